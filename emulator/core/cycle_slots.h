// Per-cycle bandwidth of an in-order pipeline stage shared by the two logical processors: trace-cache delivery,
// allocation and retirement each handle up to `width` uops per cycle, and with both logical processors active
// they alternate cycle by cycle (Marr et al., "Hyper-Threading Technology Architecture and Microarchitecture",
// ITJ 2002: a stage that has uops of both threads gives each cycle to one of them). A cycle, once used by a
// thread, belongs to it.
//
// Each thread moves through the stage in order, so it keeps a cursor; the shared table of cycle owners is only
// consulted while both threads are active. Single-thread mode is therefore a counter.
#pragma once

#include <cstdint>
#include <cstring>

#include "emulator/core/ticks.h"

namespace netburst::emu {

class CycleSlots {
public:
    void reset(unsigned width) {
        width_ = width;
        std::memset(ring_, 0, sizeof ring_);
        for (Cursor& c : cursor_) c = Cursor{};
    }

    // The cycle at or after `earliest` in which thread `t` gets one slot. With `shared` the other thread may
    // own cycles; otherwise the thread has the stage to itself.
    Cycle take(unsigned t, Cycle earliest, bool shared) {
        Cursor& c = cursor_[t];
        if (earliest < c.cycle) earliest = c.cycle;
        if (earliest == c.cycle && c.used < width_) {
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
            if (c.used < width_) {
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
        const std::uint64_t room = width_ - c.used;
        if (rest <= room) {
            c.used += static_cast<unsigned>(rest);
            return first;
        }
        rest -= room;
        const std::uint64_t cycles = (rest + width_ - 1) / width_;
        const Cycle last = first + cycles * (shared ? 2 : 1);
        c.cycle = last;
        c.used = static_cast<unsigned>(rest - (cycles - 1) * width_);
        return last;
    }

    Cycle cursor(unsigned t) const { return cursor_[t].cycle; }
    // Thread t's cursor relative to the hash's reference (single-thread mode: the shared table is not used).
    template <class Hash>
    void hash_cursor(unsigned t, Hash* h) const {
        h->add_cycle(cursor_[t].cycle);
        h->add(to_ticks(cursor_[t].cycle) > h->reference() ? cursor_[t].used : 0);
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
    Entry ring_[kRing];
    Cursor cursor_[2];
};

}  // namespace netburst::emu
