// --timing=sampled's model of a counter's events in a stretch of instructions (sampled_counters.h): a linear
// regression, fitted on the measured units, of the events on what the functional tier knows exactly about every
// stretch: its instructions, and the misses and system-call paths among them (SampleAux).
//
// Why: a unit's cycles depend mostly on what it missed. A loop whose every eighth pass misses to memory gives units
// of two kinds, and a plain rate per instruction then needs tens of thousands of units to average them; a rate per
// instruction plus a cost per miss, fitted on a few hundred, predicts each stretch from its own exact miss counts
// (the regression estimator of survey sampling, Cochran, "Sampling Techniques", 3rd ed., ch. 7).
//
// Freestanding: fixed-size state.
#pragma once

#include <cstdint>

namespace netburst::emu {

// What the functional tier counts exactly for any stretch of instructions, cumulative: the columns of the
// regression besides the instructions themselves.
struct SampleAux {
    static constexpr unsigned kCount = 6;
    // L2 read misses (memory latency), L2 write misses (reads for ownership, behind the store buffer: another
    // cost), L1 load misses (L2 latency, replays), 64K-aliasing conflicts, and the synthetic kernel paths run:
    // system calls, timer interrupts (each path its own cost).
    std::uint64_t v[kCount] = {};
};

class UnitRegression {
public:
    static constexpr unsigned kColumns = 1 + SampleAux::kCount;
    // Units before the regression is used (four per column, a stated assumption); until then a rate per
    // instruction.
    static constexpr unsigned kMinUnits = 4 * kColumns;

    void reset();
    // A unit: its instructions, its aux counts (the differences over the unit) and its events.
    void add(double instructions, const double* aux, double events);
    bool ready() const { return units_ >= kMinUnits; }
    // The events the fit predicts for a stretch (never below 0).
    double predict(double instructions, const double* aux) const;
    // The units' mean length in instructions.
    double unit_instructions() const { return units_ ? instructions_ / units_ : 0; }

private:
    void solve() const;

    std::uint32_t units_ = 0;
    double instructions_ = 0;
    double xtx_[kColumns][kColumns] = {};
    double xty_[kColumns] = {};
    // The fit, worked out when first needed after a unit came.
    mutable double beta_[kColumns] = {};
    mutable bool solved_ = false;
};

}  // namespace netburst::emu
