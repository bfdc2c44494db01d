// A set-associative cache with true LRU replacement, in the style of cachegrind's cg_sim.c: each set keeps its
// lines in most-recently-used order, so a hit on the MRU line costs one compare and a hit further down shifts the
// lines above it. Used for the L1 data cache, the L2 and the L3 (and the ITLB), which differ only in geometry and
// in what a line carries.
//
// A line is two parts kept apart, both in the set's MRU order:
//  - CacheLine, the functional state: the block number (address >> line bits, which also gives the set) and a
//    few state bits for the cache that owns it. Sixteen bytes, so a set of eight is two host cache lines: the
//    functional tier, which only ever reads these, touches little memory per access;
//  - LineTiming, what the timing tier adds: the tick a line's data arrives (a line can be allocated before its
//    fill completes: a later access "hits" but waits) and when a load that missed read it.
// The timing tier (touch<true>, insert<true>) moves both parts; the functional tier (touch<false>, ...) moves the
// functional part only, which leaves the timing parts out of step with their lines. The functional tier has no
// time, so when the timing tier resumes every fill is complete: forget_timing() then puts every line's timing
// back to "present" (all zero), in step again.
//
// A pointer to a line is valid until the next touch or insert in its set.
#pragma once

#include <cstdint>
#include <cstring>

#include "emulator/core/ticks.h"

namespace netburst::emu {

struct CacheLine {
    std::uint64_t block;  // address >> line_bits; kInvalidBlock when empty
    std::uint32_t state;  // owner-defined (sector dirty bits for the L2 and L3; the L1 keeps half its tag here)
    std::uint32_t aux;    // owner-defined (the L1: the other half of its tag, see memory_system.h)
};

struct LineTiming {
    Tick ready;  // when the data is (or will be) present
    Tick used;   // the L1: when the load that missed on this line read it (an aliasing line waits)
};

constexpr std::uint64_t kInvalidBlock = ~std::uint64_t{0};

// a[w] = a[w - 1], ..., a[1] = a[0] (w < 16): a jump and w copies. A loop here becomes a call to memmove, which
// costs more than the few lines it moves.
template <class T>
__attribute__((always_inline)) inline void shift_down(T* a, unsigned w) {
    switch (w) {
    case 15: a[15] = a[14]; [[fallthrough]];
    case 14: a[14] = a[13]; [[fallthrough]];
    case 13: a[13] = a[12]; [[fallthrough]];
    case 12: a[12] = a[11]; [[fallthrough]];
    case 11: a[11] = a[10]; [[fallthrough]];
    case 10: a[10] = a[9]; [[fallthrough]];
    case 9: a[9] = a[8]; [[fallthrough]];
    case 8: a[8] = a[7]; [[fallthrough]];
    case 7: a[7] = a[6]; [[fallthrough]];
    case 6: a[6] = a[5]; [[fallthrough]];
    case 5: a[5] = a[4]; [[fallthrough]];
    case 4: a[4] = a[3]; [[fallthrough]];
    case 3: a[3] = a[2]; [[fallthrough]];
    case 2: a[2] = a[1]; [[fallthrough]];
    case 1: a[1] = a[0]; [[fallthrough]];
    default: break;
    }
}

template <unsigned MaxLines, unsigned MaxWays>
class LruCache {
public:
    static_assert(MaxWays <= 16, "shift_down moves at most 15 lines");
    // `size` and `line` in bytes, powers of two; ways <= MaxWays.
    void reset(unsigned size, unsigned ways, unsigned line) {
        ways_ = ways;
        line_bits_ = 0;
        while ((1u << line_bits_) < line) ++line_bits_;
        sets_ = size / line / ways;
        if (sets_ == 0) sets_ = 1;
        if (sets_ * ways_ > MaxLines) sets_ = MaxLines / ways_;
        set_mask_ = sets_ - 1;
        invalidate_all();
    }

    unsigned line_bits() const { return line_bits_; }
    unsigned ways() const { return ways_; }
    unsigned sets() const { return sets_; }
    std::uint64_t block_of(std::uint64_t address) const { return address >> line_bits_; }

    // Looks the block up; on a hit makes it most recently used and returns its line. kTiming: the timing tier
    // (see above).
    template <bool kTiming = true>
    __attribute__((always_inline)) CacheLine* touch(std::uint64_t block) {
        const unsigned base = set_base(block);
        CacheLine* set = &lines_[base];
        if (set[0].block == block) return set;
        const unsigned w = find_below_mru(set, block);
        if (w >= ways_) return nullptr;
        const CacheLine hit = set[w];
        shift_down(set, w);
        set[0] = hit;
        if constexpr (kTiming) {
            LineTiming* timing = &timing_[base];
            const LineTiming t = timing[w];
            shift_down(timing, w);
            timing[0] = t;
        }
        return set;
    }

    // Looks the block up without changing the replacement order.
    CacheLine* peek(std::uint64_t block) {
        const unsigned base = set_base(block);
        for (unsigned w = 0; w < ways_; ++w)
            if (lines_[base + w].block == block) return &lines_[base + w];
        return nullptr;
    }

    // Inserts a block that missed as most recently used; the least recently used line falls out into *victim
    // (victim->block is kInvalidBlock when the way was empty). Returns the new line, its state bits clear (and,
    // kTiming, its timing all zero).
    template <bool kTiming = true>
    CacheLine* insert(std::uint64_t block, CacheLine* victim) {
        CacheLine* line = make_room<kTiming>(block);
        *victim = *line;
        *line = CacheLine{block, 0, 0};
        return line;
    }
    // The same when the victim does not matter.
    template <bool kTiming = true>
    CacheLine* insert(std::uint64_t block) {
        CacheLine* line = make_room<kTiming>(block);
        *line = CacheLine{block, 0, 0};
        return line;
    }

    // The timing part of a line (a pointer from touch(), peek() or insert()).
    LineTiming& timing(const CacheLine* line) { return timing_[line - lines_]; }

    // Every line's data present (see above).
    void forget_timing() { std::memset(timing_, 0, sets_ * ways_ * sizeof(LineTiming)); }

    void invalidate_all() {
        for (unsigned i = 0; i < sets_ * ways_; ++i) lines_[i] = CacheLine{kInvalidBlock, 0, 0};
        forget_timing();
    }

private:
    // Shifts the set down by one line (the last falls out of the order) and returns its first line, which still
    // holds the least recently used line's contents.
    template <bool kTiming>
    __attribute__((always_inline)) CacheLine* make_room(std::uint64_t block) {
        const unsigned base = set_base(block);
        CacheLine* set = &lines_[base];
        const CacheLine last = set[ways_ - 1];
        shift_down(set, ways_ - 1);
        set[0] = last;
        if constexpr (kTiming) {
            LineTiming* timing = &timing_[base];
            shift_down(timing, ways_ - 1);
            timing[0] = LineTiming{0, 0};
        }
        return set;
    }

    // The way below the most recently used one that holds the block, or ways_. Unrolled for the geometries the
    // models use (4 and 8 ways): a miss, the common case for a streaming access, then costs one compare per way
    // and no loop.
    __attribute__((always_inline)) unsigned find_below_mru(const CacheLine* set, std::uint64_t block) const {
        if (ways_ == 4) {
            if (set[1].block == block) return 1;
            if (set[2].block == block) return 2;
            return set[3].block == block ? 3 : 4;
        }
        if (ways_ == 8) {
            for (unsigned w = 1; w < 8; ++w)
                if (set[w].block == block) return w;
            return 8;
        }
        unsigned w = 1;
        while (w < ways_ && set[w].block != block) ++w;
        return w;
    }
    unsigned set_base(std::uint64_t block) const { return static_cast<unsigned>(block & set_mask_) * ways_; }

    unsigned sets_ = 1, ways_ = 1, line_bits_ = 6;
    std::uint64_t set_mask_ = 0;  // sets_ - 1
    alignas(64) CacheLine lines_[MaxLines];  // per set, most recently used first (a set of four is one host line)
    LineTiming timing_[MaxLines];  // in the same order while the timing tier runs
};

}  // namespace netburst::emu
