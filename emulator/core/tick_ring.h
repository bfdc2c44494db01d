// Reservation table for one execution resource (a dispatch port, a functional unit, the L2 pipeline): which
// ticks of a sliding window are taken. Uops are timed in program order but issue out of order, so a later uop may
// claim an earlier tick than the one before it; a bitmap over absolute ticks handles that in O(1) per claim.
//
// The window covers kSpan ticks from base(). Claims beyond it (far-future uops behind long memory chains) are
// granted without being recorded: at that distance port contention no longer matters.
#pragma once

#include <cstdint>
#include <cstring>

#include "emulator/core/ticks.h"

namespace netburst::emu {

class TickRing {
public:
    static constexpr unsigned kWords = 256;
    static constexpr Tick kSpan = Tick{kWords} * 64;

    // Which ticks of a 64-tick word a resource may start on.
    static constexpr std::uint64_t kAnyTick = ~std::uint64_t{0};
    static constexpr std::uint64_t kCycleStart = 0x5555555555555555ull;   // even ticks: once per cycle
    static constexpr std::uint64_t kEveryOtherCycle = 0x1111111111111111ull;  // every second cycle

    void reset() {
        std::memset(bits_, 0, sizeof bits_);
        base_ = 0;
    }

    Tick base() const { return base_; }

    // Forgets everything before `tick` (rounded down to a word); nothing will be claimed there again.
    void advance(Tick tick) {
        const Tick new_base = tick & ~Tick{63};
        if (new_base <= base_) return;
        Tick words = (new_base - base_) >> 6;
        if (words >= kWords) {
            std::memset(bits_, 0, sizeof bits_);
        } else {
            for (Tick w = base_ >> 6; words != 0; ++w, --words) bits_[w & (kWords - 1)] = 0;
        }
        base_ = new_base;
    }

    // The first tick at or after `tick` that is free and allowed by `pattern` (nothing is claimed).
    Tick find(Tick tick, std::uint64_t pattern) const {
        if (tick < base_) tick = base_;
        for (;;) {
            if (tick >= base_ + kSpan) return first_allowed(tick, pattern);
            const std::uint64_t word = bits_[(tick >> 6) & (kWords - 1)];
            const std::uint64_t free = ~word & (~std::uint64_t{0} << (tick & 63)) & pattern;
            if (free != 0) return (tick & ~Tick{63}) + static_cast<unsigned>(__builtin_ctzll(free));
            tick = (tick | 63) + 1;
        }
    }

    // find() for a resource that may start on any tick, with the common case (the word holding `tick` has a free
    // tick at or after it) first.
    Tick find_any(Tick tick) const {
        if (tick >= base_ && tick < base_ + kSpan) {
            const std::uint64_t free = ~bits_[(tick >> 6) & (kWords - 1)] & (~std::uint64_t{0} << (tick & 63));
            if (free != 0) return (tick & ~Tick{63}) + static_cast<unsigned>(__builtin_ctzll(free));
        }
        return find(tick, kAnyTick);
    }
    void set_in_window(Tick tick) { bits_[(tick >> 6) & (kWords - 1)] |= std::uint64_t{1} << (tick & 63); }

    // Marks a tick taken (outside the window: ignored).
    void set(Tick tick) {
        if (tick < base_ || tick >= base_ + kSpan) return;
        bits_[(tick >> 6) & (kWords - 1)] |= std::uint64_t{1} << (tick & 63);
    }

    // Claims the first tick at or after `tick` that is free and allowed by `pattern`; returns it.
    Tick claim(Tick tick, std::uint64_t pattern) {
        const Tick t = find(tick, pattern);
        set(t);
        return t;
    }

    // Are the `n` ticks start, start + stride, ... all free?
    bool run_free(Tick start, unsigned n, Tick stride) const {
        for (unsigned i = 0; i < n; ++i)
            if (taken(start + i * stride)) return false;
        return true;
    }
    void set_run(Tick start, unsigned n, Tick stride) {
        for (unsigned i = 0; i < n; ++i) set(start + i * stride);
    }

    bool taken(Tick tick) const {
        if (tick < base_ || tick >= base_ + kSpan) return false;
        return (bits_[(tick >> 6) & (kWords - 1)] >> (tick & 63) & 1) != 0;
    }

    // The 64 ticks from `word_start` (a multiple of 64) as bits; outside the window none is taken.
    std::uint64_t word(Tick word_start) const {
        if (word_start < base_ || word_start >= base_ + kSpan) return 0;
        return bits_[(word_start >> 6) & (kWords - 1)];
    }

    // The reservations from `from` (a tick no later claim precedes: the allocation point) over the next
    // kHashWords * 64 ticks, as bits counted from the hash's reference (state_hash.h). Further ones are left out:
    // the probe's approximation (memory latency is 360 ticks).
    static constexpr unsigned kHashWords = 32;
    template <class Hash>
    void hash_future(Hash* h, Tick from) const {
        if (from < h->reference()) from = h->reference();
        if (from < base_) from = base_;
        const Tick end = base_ + kSpan < from + kHashWords * 64 ? base_ + kSpan : from + kHashWords * 64;
        h->add(from - h->reference());
        for (Tick t = from; t < end; t += 64) {
            std::uint64_t bits = word(t & ~Tick{63}) >> (t & 63);
            if ((t & 63) != 0) bits |= word((t & ~Tick{63}) + 64) << (64 - (t & 63));
            if (bits != 0) {
                h->add(t - h->reference());
                h->add(bits);
            }
        }
    }

    static constexpr unsigned kMaxCycleRun = 32;  // find_with_cycle_run's limit: the run then spans two words

private:
    static Tick first_allowed(Tick tick, std::uint64_t pattern) {
        while ((pattern >> (tick & 63) & 1) == 0) ++tick;
        return tick;
    }

    std::uint64_t bits_[kWords];
    Tick base_;
};

// The first tick at or after `tick` that `port` may start on (free, allowed by `pattern`, not before its window)
// where `unit` has the n ticks t, t + 2, ..., t + 2(n - 1) free: port.find() then unit.run_free() at each candidate
// cycle, as a unit that stays busy for n cycles needs, but 64 ticks at a time (a dense reservation stretch costs one
// step per word rather than one per cycle). port and unit may be the same ring. n is 1 to kMaxCycleRun.
inline Tick find_with_cycle_run(const TickRing& port, std::uint64_t pattern, const TickRing& unit, Tick tick,
                                unsigned n) {
    if (tick < port.base()) tick = port.base();
    std::uint64_t from = ~std::uint64_t{0} << (tick & 63);
    for (Tick w = tick & ~Tick{63};; w += 64) {
        const std::uint64_t u0 = unit.word(w), u1 = n > 1 ? unit.word(w + 64) : 0;
        std::uint64_t blocked = port.word(w) | u0;  // a start is blocked by its own tick and those of its run
        for (unsigned k = 2; k < 2 * n; k += 2) blocked |= (u0 >> k) | (u1 << (64 - k));
        const std::uint64_t free = ~blocked & pattern & from;
        if (free != 0) return w + static_cast<unsigned>(__builtin_ctzll(free));
        from = ~std::uint64_t{0};
    }
}

}  // namespace netburst::emu
