// A hash of the timing state relative to a reference tick, for the timing memo (memo_probe.h): two states that differ
// only by a shift in time, or in times already past the reference, hash the same. Times at or before the
// reference are all "past" (0); later ones count from it.
#pragma once

#include <cstdint>

#include "emulator/core/ticks.h"

namespace netburst::emu {

class StateHash {
public:
    explicit StateHash(Tick reference) : reference_(reference) {}

    Tick reference() const { return reference_; }
    void add(std::uint64_t v) {
        h_ ^= v + 0x9E3779B97F4A7C15ull + (h_ << 6) + (h_ >> 2);
        h_ *= 0xFF51AFD7ED558CCDull;
    }
    void add_tick(Tick t) { add(t > reference_ ? t - reference_ : 0); }
    void add_cycle(Cycle c) { add_tick(to_ticks(c)); }
    // The times of a pool of interchangeable entries (the model takes whichever frees first, and only the time
    // matters), in order: pools that hold the same times hash the same, whatever entry holds which.
    void add_pool(const Tick* times, unsigned n) {
        Tick sorted[64];
        if (n > 64) n = 64;
        for (unsigned i = 0; i < n; ++i) {
            Tick v = times[i] > reference_ ? times[i] - reference_ : 0;
            unsigned j = i;
            for (; j > 0 && sorted[j - 1] > v; --j) sorted[j] = sorted[j - 1];
            sorted[j] = v;
        }
        for (unsigned i = 0; i < n; ++i) add(sorted[i]);
    }
    std::uint64_t value() const { return h_ ^ (h_ >> 33); }

private:
    Tick reference_;
    std::uint64_t h_ = 0xCBF29CE484222325ull;
};

}  // namespace netburst::emu
