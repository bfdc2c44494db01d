// --timing=sampled's counters (doc/sampled-timing.md): what a cycle-driven counter reads when most instructions
// run in the functional tier, which has no cycles.
//
// The front end runs a schedule (SMARTS, Wunderlich et al., ISCA 2003): the functional tier all the time, and
// every period a window in the timing tier, W instructions of detailed warming and then a measured unit of U. A
// counter whose selection needs the timing tier ("estimated": it counts a timing-dependent event or evaluates every
// cycle) then reads
//   - exactly what it counted while instructions ran timed (the windows, and any stretch the tier was timing for
//     another reason): its raw count over those stretches;
//   - plus, for each stretch of instructions that ran in the functional tier, what the interval's units predict
//     for it: the rate of the most recent unit (its raw increase divided by U) times the stretch's instructions,
//     or, once it has proved better, a regression of the units' events on their instructions and on the misses
//     and kernel paths among them (unit_regression.h) applied to the stretch's own exact counts of those.
// The estimate is applied when the instructions run, never afterwards, so reads only grow and the difference of
// two reads is the estimate of what lies between them. Each estimate carries the half-width of its 99.7 %
// confidence interval: three standard deviations of the functional part. Stretches estimated between two units,
// W_u instructions each, give a variance of s^2 * sum W_u^2, where s^2 is the variance of a unit's rate about the
// prediction for it, measured as each unit arrives, before it is used: for the rate, half the mean square of
// successive units' differences (units come in program order, one per period, and that estimator for systematic
// samples is not inflated by a program's phases as the plain sample variance is); for the regression, its mean
// square error on units it had not yet seen (a misfit shows there, where its residuals would hide it). The
// predictor with the smaller error is used. A unit counts events, so the estimate is also no better than the
// events its units saw: with K events seen the functional part is known to about 1/sqrt(K) of itself (Poisson);
// with fewer than kMinEvents the sample does not bound it at all (kUnbounded).
//
// Counters that count functional events are not touched: they stay exact in both tiers, as always.
//
// Freestanding (the Valgrind tool links it): fixed-size state, no allocation.
#pragma once

#include <cstdint>

#include "emulator/pmu/pmu_types.h"
#include "emulator/pmu/unit_regression.h"

namespace netburst::emu {

// Newton's iteration: the tool has no C library to take sqrt from.
double square_root(double x);

class SampledCounters {
public:
    static constexpr unsigned kCounters = 18;
    // Intervals with at least this many units take the spread of their own units; shorter ones that of every unit
    // of the selection (a stated assumption: ten rates give a usable variance).
    static constexpr unsigned kOwnSpreadUnits = 10;
    // Three standard deviations of a normal distribution: 99.73 %.
    static constexpr double kZ = 3.0;

    // The registers' width: a PMU counter's 40 bits, or a full 64 for a count that does not wrap (the clock:
    // emulator/sampled_clock.h).
    static constexpr std::uint64_t kCounterMask = (std::uint64_t{1} << 40) - 1;
    void reset(std::uint64_t value_mask = kCounterMask);

    // Counter n's selection changed (or was looked at again after a CCCR or ESCR write): whether it is estimated,
    // whether it counts, and the selection the rate belongs to. `raw` is its register value now. Returns the
    // register value it must hold afterwards: a counter that stops being estimated keeps the estimate it reached.
    std::uint64_t program(unsigned n, bool estimated, bool counting, std::uint64_t key, std::uint64_t raw);
    // Software wrote counter n (`value` is also its register value from now on): a new interval.
    void written(unsigned n, std::uint64_t value);

    // The instructions since the last settle (or attach) ran in the functional tier (functional) or the timing
    // tier; `total` is the front end's count of program instructions now.
    // `aux` holds the functional tier's cumulative exact counts (unit_regression.h).
    void settle(std::uint64_t total, bool functional, const SampleAux& aux);
    // The PMU is attached to the core again after other threads ran: their instructions are not its own.
    void resume(std::uint64_t total, const SampleAux& aux) {
        last_total_ = total;
        last_aux_ = aux;
        timed_ = false;  // until the emulator says the tier is timing (a copied PMU may carry another's flag)
    }
    // The timing tier starts (begin) or has ended and drained (end): raw holds every counter's register value.
    void timed(bool begin, const std::uint64_t* raw);
    // A measured unit starts, or ends after `instructions` program instructions.
    void unit_begin(const std::uint64_t* raw, const SampleAux& aux);
    void unit_end(const std::uint64_t* raw, std::uint64_t instructions, const SampleAux& aux);

    // Counter n's count goes on into what may be another part of the program (a region the clock times): its
    // regression starts afresh, fitted on the units to come, and until then the most recent unit's rate predicts.
    void refit(unsigned n) { forget_fit(c_[n]); }
    // Software read or wrote a counter: a PAPI interval ends or starts, so the code that follows may be another
    // part of the program; stretches are estimated from the units that follow.
    void accessed();

    bool estimated(unsigned n) const { return c_[n].estimated; }
    // Whether counter n's value since software last wrote it includes estimated instructions (else it is exact).
    bool sampled(unsigned n) const { return c_[n].estimated && c_[n].estimated_instructions + c_[n].pending > 0; }
    bool any_estimated() const {
        for (const Counter& c : c_)
            if (c.estimated && c.counting) return true;
        return false;
    }
    // Whether an estimated, counting counter has no rate yet: the front end should measure a unit now.
    bool wants_unit() const;
    // What software reads from estimated counter n whose register holds `raw` now.
    std::uint64_t value(unsigned n, std::uint64_t raw) const;
    // The half-width of the 99.7 % confidence interval of that value since software last wrote the counter;
    // kUnbounded when the sample cannot bound it: functional instructions wait for the selection's first unit, or
    // the interval's units saw fewer than kMinEvents events (a rare event that comes in bursts, such as the store
    // buffer filling up, is seen by few units or none, and their spread says nothing of the bursts they missed).
    static constexpr std::uint64_t kUnbounded = ~std::uint64_t{0};
    static constexpr double kMinEvents = 30;  // a stated assumption: 3/sqrt(30), about half the count, at best
    std::uint64_t half_width(unsigned n) const;

private:
    // Units in program order: how many, the last rate, and the sum of the squares of successive differences.
    struct Spread {
        std::uint32_t units = 0;
        double last = 0;
        double sum_d2 = 0;
        void add(double r) {
            if (units != 0) sum_d2 += (r - last) * (r - last);
            last = r;
            ++units;
        }
        double variance() const { return units < 2 ? 0 : sum_d2 / (2.0 * (units - 1)); }
    };
    // The units since software last read or wrote a counter that the regression predicted: its predictions and
    // their events, each weighed down by kCorrectionDecay per later unit.
    struct Local {
        double predicted = 0, predicted_events = 0;
    };
    struct Counter {
        bool estimated = false;
        bool counting = false;
        std::uint64_t key = 0;
        double value = 0;           // the estimate, without the current timed stretch
        std::uint64_t mark = 0;     // the register at the start of the current timed stretch
        std::uint64_t unit_mark = 0;
        bool unit_open = false;     // counting, unwritten and unprogrammed since the unit began
        // The rate of the selection's most recent unit, and the successive differences of the selection's units.
        bool has_rate = false;
        double rate = 0;
        Spread all;
        // The interval's regression, and each predictor's squared errors on units it was tested on before they
        // were used.
        UnitRegression model;
        double model_sse = 0, rate_sse = 0;
        std::uint32_t model_tests = 0, rate_tests = 0;
        Local local;
        // The interval since software last wrote the counter: functional instructions estimated since the last
        // unit (weight) and the sums of the squares of those of earlier units, by predictor (0 the rate, 1 the
        // regression); instructions that waited for a first rate; every functional instruction estimated; and the
        // units measured in it.
        double weight[2] = {}, sum_w2[2] = {};
        double pending = 0;
        double estimated_instructions = 0;
        Spread interval;
        // Events and instructions of the units measured in the interval.
        double unit_events = 0, unit_instructions = 0;
    };
    void new_interval(Counter& c, double value);
    static void forget_fit(Counter& c);
    static bool uses_model(const Counter& c);
    static double correction(const Counter& c);
    // Units the fit must have predicted before it is trusted (a stated assumption).
    static constexpr unsigned kModelTests = 10;
    // The weight the correction of the fit (correction()) loses per unit: it follows about the last 1/0.03 = 33
    // units (a stated assumption).
    static constexpr double kCorrectionDecay = 0.03;

    Counter c_[kCounters];
    std::uint64_t last_total_ = 0;
    SampleAux last_aux_{};
    SampleAux unit_aux_{};  // at the current unit's start
    bool timed_ = false;
    std::uint64_t mask_ = kCounterMask;
};

}  // namespace netburst::emu
