// --timing=sampled's estimator (emulator/pmu/sampled_counters.h): the mechanisms, with hand-made raw counts. How
// close the estimates come on real programs is scripts/sampled-accuracy.py's question, not these tests'.
#include "emulator/pmu/sampled_counters.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace netburst::emu {
namespace {

constexpr unsigned kN = SampledCounters::kCounters;
constexpr std::uint64_t kKey = 0x1234;

// One estimated, counting counter (0) and the raw registers the PMU would hold.
struct Fixture {
    SampledCounters s;
    std::uint64_t raw[kN] = {};
    std::uint64_t total = 0;
    SampleAux aux{};  // no misses anywhere: the regression reduces to the rate

    Fixture() {
        s.reset();
        s.program(0, true, true, kKey, 0);
    }
    // `instructions` program instructions in the timing tier, counting `events` (the window's warming).
    void timed(std::uint64_t instructions, std::uint64_t events) {
        s.settle(total, true, aux);
        s.timed(true, raw);
        total += instructions;
        raw[0] += events;
        s.settle(total, false, aux);
        s.timed(false, raw);
    }
    // A window: warming, then a unit of `unit` instructions counting `events`; a unit that does not stand for the
    // program (`sample` false: Emulator::unit's representative) ends with 0 instructions, as the Emulator ends it.
    void window(std::uint64_t warm, std::uint64_t warm_events, std::uint64_t unit, std::uint64_t events,
                bool sample = true) {
        s.settle(total, true, aux);
        s.timed(true, raw);
        total += warm;
        raw[0] += warm_events;
        s.settle(total, false, aux);
        s.unit_begin(raw, aux);
        total += unit;
        raw[0] += events;
        s.settle(total, false, aux);
        s.unit_end(raw, sample ? unit : 0, aux);
        s.timed(false, raw);
    }
    // Functional instructions: the raw register does not move (no cycles in that tier).
    void functional(std::uint64_t instructions) {
        total += instructions;
        s.settle(total, true, aux);
    }
    std::uint64_t read() const { return s.value(0, raw[0]); }
};

TEST(SampledCounters, TimedInstructionsCountExactlyAndFunctionalOnesAtTheUnitsRate) {
    Fixture f;
    f.window(2000, 5000, 1000, 3000);  // 3 events per instruction in the unit
    EXPECT_EQ(f.read(), 8000u);         // everything so far ran timed: its raw count
    f.functional(10000);
    EXPECT_EQ(f.read(), 8000u + 30000u);
    EXPECT_TRUE(f.s.sampled(0));
}

// A window the program's clock opened (not at a random position) times its own stretch, but the functional stretches
// after it keep the rate of the schedule's units.
TEST(SampledCounters, AUnitThatIsNoSampleCountsExactlyButSetsNoRate) {
    Fixture f;
    f.window(2000, 2000, 1000, 1000);          // 1 event per instruction
    f.window(2000, 10000, 1000, 5000, false);  // 5 per instruction, where the clock was read
    EXPECT_EQ(f.read(), 3000u + 15000u);
    f.functional(10000);
    EXPECT_EQ(f.read(), 18000u + 10000u);
}

TEST(SampledCounters, ReadsNeverGoBackWhenALaterUnitIsSlower) {
    Fixture f;
    f.window(2000, 2000, 1000, 1000);
    f.functional(5000);
    const std::uint64_t before = f.read();
    f.window(2000, 20000, 1000, 10000);  // a much slower unit: earlier instructions keep their estimate
    EXPECT_EQ(f.read(), before + 30000u);
    f.functional(1000);
    EXPECT_EQ(f.read(), before + 30000u + 10000u);
}

TEST(SampledCounters, ACounterWrittenStartsANewIntervalAndKeepsItsRate) {
    Fixture f;
    f.window(2000, 2000, 1000, 2000);
    f.functional(5000);
    f.s.written(0, 0);
    f.raw[0] = 0;
    EXPECT_EQ(f.read(), 0u);
    EXPECT_FALSE(f.s.sampled(0));  // nothing estimated in the new interval yet
    EXPECT_FALSE(f.s.wants_unit());
    f.functional(100);
    EXPECT_EQ(f.read(), 200u);
}

TEST(SampledCounters, AnotherSelectionHasNoRateAndAsksForAUnit) {
    Fixture f;
    f.window(2000, 2000, 1000, 2000);
    EXPECT_FALSE(f.s.wants_unit());
    f.s.program(0, true, true, kKey + 1, f.raw[0]);
    EXPECT_TRUE(f.s.wants_unit());
    // Functional instructions before the selection's first unit wait for it; meanwhile nothing bounds the value.
    f.functional(1000);
    EXPECT_EQ(f.s.half_width(0), SampledCounters::kUnbounded);
    const std::uint64_t before = f.read();
    f.window(0, 0, 1000, 4000);
    EXPECT_EQ(f.read(), before + 4000u + 4000u);  // the unit itself, and the 1,000 that waited at its rate
    EXPECT_LT(f.s.half_width(0), SampledCounters::kUnbounded);
}

TEST(SampledCounters, StoppingAndStartingKeepsTheRate) {
    Fixture f;
    f.window(2000, 2000, 1000, 2000);
    f.s.program(0, true, false, kKey, f.raw[0]);  // disabled: same selection
    f.functional(1000);
    const std::uint64_t stopped = f.read();
    EXPECT_EQ(stopped, 4000u);  // a stopped counter does not count
    f.s.program(0, true, true, kKey, f.raw[0]);
    EXPECT_FALSE(f.s.wants_unit());
    f.functional(1000);
    EXPECT_EQ(f.read(), stopped + 2000u);
}

TEST(SampledCounters, LeavingEstimationHandsTheEstimateToTheRegister) {
    Fixture f;
    f.window(2000, 2000, 1000, 2000);
    f.functional(1000);
    EXPECT_EQ(f.s.program(0, false, true, 0, f.raw[0]), 6000u);
    EXPECT_FALSE(f.s.estimated(0));
}

TEST(SampledCounters, IdenticalUnitsGiveANarrowIntervalAndScatteredOnesAWideOne) {
    Fixture steady, scattered;
    for (int i = 0; i < 20; ++i) {
        steady.window(2000, 2000, 1000, 1000);
        steady.functional(97000);
        scattered.window(2000, 2000, 1000, i % 2 ? 500 : 1500);
        scattered.functional(97000);
    }
    // Every steady unit saw 1,000 events: only the counting (Poisson) term remains, 3 sqrt(K) scaled.
    const double steady_half = static_cast<double>(steady.s.half_width(0));
    const double estimated = 20 * 97000.0;
    EXPECT_NEAR(steady_half, estimated / 20000.0 * 3.0 * 141.42, 2.0);
    EXPECT_GT(scattered.s.half_width(0), 10 * steady.s.half_width(0));
}

TEST(SampledCounters, AnEventTooRareForTheUnitsHasNoBound) {
    Fixture f;
    for (int i = 0; i < 10; ++i) {
        f.window(2000, 0, 1000, i == 3 ? 5 : 0);  // five events in one unit: a burst, or chance
        f.functional(97000);
    }
    EXPECT_EQ(f.s.half_width(0), SampledCounters::kUnbounded);
    // Enough of them, and the interval is a number again.
    for (int i = 0; i < 10; ++i) {
        f.window(2000, 0, 1000, 10);
        f.functional(97000);
    }
    EXPECT_LT(f.s.half_width(0), SampledCounters::kUnbounded);
}

TEST(SampledCounters, ACounterProgrammedDuringAUnitDoesNotTakeItsRate) {
    Fixture f;
    f.s.program(1, false, false, 0, 0);
    f.s.settle(f.total, true, f.aux);
    f.s.timed(true, f.raw);
    f.s.unit_begin(f.raw, f.aux);
    f.s.program(1, true, true, kKey, f.raw[1]);  // estimated from the middle of the unit on
    f.total += 1000;
    f.raw[1] += 500;
    f.s.settle(f.total, false, f.aux);
    f.s.unit_end(f.raw, 1000, f.aux);
    f.s.timed(false, f.raw);
    EXPECT_TRUE(f.s.wants_unit());
    EXPECT_EQ(f.s.value(1, f.raw[1]), 500u);  // what it counted timed
}

TEST(SampledCounters, StretchesAreEstimatedFromTheirOwnMissesOnceTheRegressionHasEnoughUnits) {
    Fixture f;
    // Units of two kinds: one in eight misses 30 times to memory (300 cycles each) on top of 1.2 cycles an
    // instruction. A plain rate would give each stretch whichever kind of unit came last.
    for (unsigned u = 0; u < 2 * UnitRegression::kMinUnits; ++u) {
        const unsigned misses = u % 8 == 0 ? 30 : 0;
        f.s.settle(f.total, true, f.aux);
        f.s.timed(true, f.raw);
        f.s.unit_begin(f.raw, f.aux);
        f.total += 1000;
        f.raw[0] += 1200 + 300 * misses;
        f.aux.v[0] += misses;
        f.s.settle(f.total, false, f.aux);
        f.s.unit_end(f.raw, 1000, f.aux);
        f.s.timed(false, f.raw);
    }
    const std::uint64_t before = f.read();
    f.total += 10000;
    f.aux.v[0] += 7;  // a functional stretch with 7 misses
    f.s.settle(f.total, true, f.aux);
    EXPECT_NEAR(static_cast<double>(f.read() - before), 12000 + 2100, 2.0);
    // The fit explains every unit: only the counting term remains, 3 sqrt(K) for the K events of the interval's
    // units (1,200 each, and 9,000 more in every eighth), scaled from their instructions to the 10,000 estimated.
    const unsigned units = 2 * UnitRegression::kMinUnits, missing = (units + 7) / 8;
    const double events = units * 1200.0 + missing * 9000.0;
    EXPECT_NEAR(static_cast<double>(f.s.half_width(0)), 10000.0 / (units * 1000.0) * 3.0 * std::sqrt(events), 1.0);
}

// A PMU counter's timed stretches are 40-bit differences (the register wraps); the clock's (sampled_clock.h) are
// 64-bit: a stretch that passes 2^40 cycles must not lose them.
TEST(SampledCounters, TheRegistersWidthIsTheCountersOrTheClocks) {
    const std::uint64_t start = (std::uint64_t{1} << 40) - 100;
    for (const bool clock : {false, true}) {
        SampledCounters s;
        clock ? s.reset(~std::uint64_t{0}) : s.reset();
        s.program(0, true, true, kKey, start);
        std::uint64_t raw[kN] = {};
        raw[0] = start;
        s.timed(true, raw);
        raw[0] = start + 1000;  // the 64-bit count; a 40-bit register would hold 900
        s.timed(false, raw);
        if (clock) EXPECT_EQ(s.value(0, raw[0]), start + 1000);
        else EXPECT_EQ(s.value(0, raw[0] & SampledCounters::kCounterMask), 900u);
    }
}

TEST(SampledCounters, SquareRoot) {
    EXPECT_DOUBLE_EQ(square_root(0), 0);
    EXPECT_NEAR(square_root(2), 1.41421356237, 1e-9);
    EXPECT_NEAR(square_root(1e18), 1e9, 1e-3);
    EXPECT_NEAR(square_root(0.25), 0.5, 1e-12);
}

}  // namespace
}  // namespace netburst::emu
