// The emulated Pentium 4's clock (--clock=emulated, the default): the core's cycles as rdtsc, the time system calls
// and the CPU-time timers read them (emulator/valgrind/nb_clock.c, nb_itimer.c), whichever tier runs.
//
// The core's cycle count advances only in the timing tier. While every instruction runs there (a counter needs
// cycles and --timing=exact, or --ht interleaves two threads) the clock is that count, exactly. Otherwise the
// front end runs the sampled schedule for the clock's sake (doc/sampled-timing.md): the functional tier, with a
// window of warming and a measured unit every period, and the clock is estimated as a sampled counter is
// (sampled_counters.h): the cycles of every timed stretch, plus each functional stretch at the cycles per
// instruction the units predict for it. One estimator serves both, so the clock and PAPI_TOT_CYC under
// --timing=sampled follow the same rule; the clock has no PAPI interval, so it is never "written" and its estimate
// runs from the program's start. Reads only grow: a clock never runs backwards.
//
// Freestanding (the Valgrind tool links it): fixed-size state, no allocation.
#pragma once

#include <cstdint>

#include "emulator/pmu/sampled_counters.h"

namespace netburst::emu {

class SampledClock {
public:
    void reset(std::uint64_t now) {
        estimate_.reset(~std::uint64_t{0});  // cycles do not wrap as a 40-bit counter does
        estimate_.program(0, /*estimated=*/true, /*counting=*/true, /*key=*/0, now);
    }
    // Instructions from now on run in the timing tier (begin) or the functional tier; `now` is the core's cycle.
    void timed(bool begin, std::uint64_t now) {
        const Raw raw(now);
        estimate_.timed(begin, raw.v);
    }
    // A measured unit starts, or ends after `instructions` program instructions.
    void unit(bool begin, std::uint64_t instructions, std::uint64_t now, const SampleAux& aux) {
        const Raw raw(now);
        if (begin) estimate_.unit_begin(raw.v, aux);
        else estimate_.unit_end(raw.v, instructions, aux);
    }
    void settle(std::uint64_t total, bool functional, const SampleAux& aux) {
        estimate_.settle(total, functional, aux);
    }
    // The program read the clock, and a window opens for the region it may be timing: the region's own units
    // predict it, not a fit made on what ran before.
    void region() { estimate_.refit(0); }
    // No unit has measured a rate yet: the front end should open a window now.
    bool wants_unit() const { return estimate_.wants_unit(); }
    // The clock's cycle when the core's is `now`.
    std::uint64_t read(std::uint64_t now) const { return estimate_.value(0, now); }
    // The half-width of its 99.7 % confidence interval (0: exact; SampledCounters::kUnbounded: not bounded yet).
    std::uint64_t half_width() const { return estimate_.half_width(0); }

private:
    // The estimator's registers: the clock is its counter 0, the others stay unused and zero.
    struct Raw {
        explicit Raw(std::uint64_t now) { v[0] = now; }
        std::uint64_t v[SampledCounters::kCounters] = {};
    };
    SampledCounters estimate_;
};

}  // namespace netburst::emu
