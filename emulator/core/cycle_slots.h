// Per-cycle bandwidth of an in-order pipeline stage shared by the two logical processors: trace-cache delivery,
// allocation and retirement each handle up to `width` uops per cycle, and with both logical processors active
// they alternate cycle by cycle (Marr et al., "Hyper-Threading Technology Architecture and Microarchitecture",
// ITJ 2002: a stage that has uops of both threads gives each cycle to one of them). A cycle, once used by a
// thread, belongs to it.
//
// Each thread moves through the stage in order, so it keeps a cursor; the shared table of cycle owners is only
// consulted while both threads are active. Single-thread mode is therefore a counter.
//
// A stage may also have a lower average rate than `width` per cycle: `period_uops` uops in every `period` cycles
// (Prescott's delivery, 8 in 3: CoreConfig::deliver_period). The last cycle of each period, counted from cycle 0,
// then has the period's shortfall fewer slots.
#pragma once

#include <cstdint>
#include <cstring>

#include "emulator/core/ticks.h"

namespace netburst::emu {

class CycleSlots {
public:
    void reset(unsigned width, unsigned period = 0, unsigned period_uops = 0) {
        width_ = width;
        period_ = 1;
        short_ = 0;
        if (period > 1 && period_uops != 0 && period_uops < width * period && width * period - period_uops < width) {
            period_ = period;
            short_ = width * period - period_uops;
        }
        std::memset(ring_, 0, sizeof ring_);
        for (Cursor& c : cursor_) c = Cursor{};
    }

    // The cycle at or after `earliest` in which thread `t` gets one slot. With `shared` the other thread may
    // own cycles; otherwise the thread has the stage to itself.
    Cycle take(unsigned t, Cycle earliest, bool shared) {
        Cursor& c = cursor_[t];
        if (earliest < c.cycle) earliest = c.cycle;
        if (earliest == c.cycle && c.used < cap(earliest)) {
            ++c.used;
            if (shared) mark(earliest, t);
            return earliest;
        }
        if (earliest == c.cycle) ++earliest;
        if (shared) {
            while (!available(earliest, t)) ++earliest;
            mark(earliest, t);
        }
        c.cycle = earliest;
        c.used = 1;
        return earliest;
    }

    // take() for a stage the thread has to itself (single-thread mode), the common case.
    Cycle take_own(unsigned t, Cycle earliest) {
        Cursor& c = cursor_[t];
        if (earliest <= c.cycle) {
            if (c.used < cap(c.cycle)) {
                ++c.used;
                return c.cycle;
            }
            earliest = c.cycle + 1;
        }
        c.cycle = earliest;
        c.used = 1;
        return earliest;
    }

    // `n` slots in bulk (a long microcode flow): returns the cycle of the last one. Alternation is approximated
    // by giving the thread every other cycle while the stage is shared.
    Cycle take_bulk(unsigned t, Cycle earliest, std::uint64_t n, bool shared) {
        if (n == 0) return earliest;
        const Cycle first = take(t, earliest, shared);
        std::uint64_t rest = n - 1;
        Cursor& c = cursor_[t];
        const std::uint64_t room = cap(c.cycle) - c.used;
        if (rest <= room) {
            c.used += static_cast<unsigned>(rest);
            return first;
        }
        rest -= room;
        const unsigned step = shared ? 2 : 1;
        // Whole periods at once (a period of steps holds the same slots wherever it starts), then the tail.
        Cycle cycle = c.cycle;
        std::uint64_t span = 0;
        for (unsigned k = 1; k <= period_; ++k) span += cap(cycle + k * step);
        const std::uint64_t whole = (rest - 1) / span;
        cycle += whole * period_ * step;
        rest -= whole * span;
        for (;;) {
            cycle += step;
            const unsigned slots = cap(cycle);
            if (rest <= slots) break;
            rest -= slots;
        }
        c.cycle = cycle;
        c.used = static_cast<unsigned>(rest);
        return cycle;
    }

    Cycle cursor(unsigned t) const { return cursor_[t].cycle; }
    // Thread t's cursor relative to the hash's reference (single-thread mode: the shared table is not used).
    template <class Hash>
    void hash_cursor(unsigned t, Hash* h) const {
        h->add_cycle(cursor_[t].cycle);
        h->add(to_ticks(cursor_[t].cycle) > h->reference() ? cursor_[t].used : 0);
        if (short_ != 0) {  // where the short cycles fall: the period's phase, of the cursor and of the reference
            h->add(cursor_[t].cycle % period_);
            h->add((h->reference() / kTicksPerCycle) % period_);
        }
    }

private:
    static constexpr unsigned kRing = 4096;
    struct Entry {
        Cycle cycle;
        std::uint8_t owner;
        std::uint8_t used;  // 0: nobody has this cycle
    };
    struct Cursor {
        Cycle cycle = 0;
        unsigned used = 0;
    };

    // The slots of `cycle`: `width_`, less the period's shortfall in its last cycle.
    unsigned cap(Cycle cycle) const {
        return short_ != 0 && cycle % period_ == period_ - 1 ? width_ - short_ : width_;
    }
    bool available(Cycle cycle, unsigned t) const {
        const Entry& e = ring_[cycle & (kRing - 1)];
        return e.used == 0 || e.cycle != cycle || e.owner == t;
    }
    void mark(Cycle cycle, unsigned t) {
        Entry& e = ring_[cycle & (kRing - 1)];
        if (e.cycle != cycle) e.used = 0;
        e.cycle = cycle;
        e.owner = static_cast<std::uint8_t>(t);
        e.used = 1;
    }

    unsigned width_ = 3;
    unsigned period_ = 1;  // cycles of a period (1: every cycle has `width_` slots)
    unsigned short_ = 0;   // slots the last cycle of a period lacks
    Entry ring_[kRing];
    Cursor cursor_[2];
};

}  // namespace netburst::emu
