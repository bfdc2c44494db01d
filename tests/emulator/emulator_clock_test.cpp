// The emulated clock's mechanism (emulator/sampled_clock.h): exact while every instruction is timed, estimated from
// the sampled schedule's units while the functional tier runs, never backwards, and waiting for a first unit rather
// than guessing. The test drives the schedule the way the Valgrind front end does (settle, windows, units) over the
// tier corpus's single-thread traces. How close the estimate comes to the exact cycles on real programs is measured
// with scripts/bench-workloads.py (doc/sampled-timing.md, "The clock"), not here.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "emulator/emulator.h"
#include "tests/emulator/tier_corpus.h"

namespace netburst::emu::test {
namespace {

std::unique_ptr<Emulator> clocked(const EmulatedMachine& machine, bool force_timing) {
    std::unique_ptr<Emulator> emu(new Emulator);
    EmulatorConfig c;
    c.machine = machine;
    c.machine.emulated_clock = true;
    c.force_timing = force_timing;
    emu->reset(c);
    return emu;
}

// A small schedule: every kPeriod instructions a window of kWarm instructions of warming and a unit of kUnit.
constexpr std::uint64_t kPeriod = 2000, kWarm = 200, kUnit = 100;

struct ClockRun {
    std::uint64_t clock = 0;   // at the end
    std::uint64_t timed = 0;   // instructions the timing tier ran
    bool monotonic = true;     // every read at least the one before
};

ClockRun run_scheduled(const CorpusTrace& trace, bool force_timing) {
    auto emu = clocked(trace.machine, force_timing);
    ClockRun r;
    std::uint64_t last = 0;
    for (std::uint64_t i = 0; i < trace.insns.size(); ++i) {
        const std::uint64_t at = i % kPeriod;
        if (at == 0 || at == kWarm || at == kWarm + kUnit) emu->settle(i, 0, 0);
        if (at == 0) emu->set_detail(true);
        if (at == kWarm) emu->unit(true, 0);
        if (at == kWarm + kUnit) {
            emu->unit(false, kUnit);
            emu->set_detail(false);
        }
        if (at % 97 == 0) {  // a read now and then, as rdtsc would
            emu->settle(i, 0, 0);
            const std::uint64_t now = emu->clock();
            r.monotonic = r.monotonic && now >= last;
            last = now;
        }
        emu->execute(trace.insns[i]);
    }
    emu->settle(trace.insns.size(), 0, 0);
    emu->finish();
    r.clock = emu->clock();
    r.monotonic = r.monotonic && r.clock >= last;
    r.timed = emu->timed_instructions();
    return r;
}

TEST(EmulatedClock, IsTheCoresCycleWhileEveryInstructionIsTimed) {
    const CorpusTrace trace = tier_corpus().front();
    auto emu = clocked(trace.machine, /*force_timing=*/true);
    for (const Instruction& insn : trace.insns) emu->execute(insn);
    emu->finish();
    EXPECT_GT(emu->now(), 0u);
    EXPECT_EQ(emu->clock(), emu->now());
    EXPECT_EQ(emu->clock_half_width(), 0u);
}

TEST(EmulatedClock, WaitsForAUnitInsteadOfGuessing) {
    const CorpusTrace trace = tier_corpus().front();
    auto emu = clocked(trace.machine, false);
    EXPECT_TRUE(emu->wants_unit()) << "the front end should open a window at once";
    for (const Instruction& insn : trace.insns) emu->execute(insn);
    emu->settle(trace.insns.size(), 0, 0);
    EXPECT_FALSE(emu->timing()) << "the clock alone does not keep the timing tier outside windows";
    EXPECT_EQ(emu->clock(), 0u) << "no unit measured: nothing to estimate the functional instructions with";
    EXPECT_EQ(emu->clock_half_width(), SampledCounters::kUnbounded);
}

TEST(EmulatedClock, EstimatesFunctionalStretchesFromTheUnits) {
    unsigned tested = 0;
    for (const CorpusTrace& trace : tier_corpus()) {
        // Two streams keep the timing tier on (nothing to estimate); a trace shorter than a few periods is mostly
        // windows.
        if (trace.machine.hyper_threading || trace.insns.size() < 4 * kPeriod) continue;
        SCOPED_TRACE(trace.name);
        ++tested;
        const ClockRun exact = run_scheduled(trace, /*force_timing=*/true);
        const ClockRun sampled = run_scheduled(trace, false);
        EXPECT_TRUE(exact.monotonic);
        EXPECT_TRUE(sampled.monotonic) << "a clock never runs backwards";
        EXPECT_EQ(exact.timed, trace.insns.size());
        EXPECT_LT(sampled.timed, trace.insns.size() / 5) << "only the windows run timed";
        // The estimate is the timed stretches plus the functional ones at the units' rates: of the size of the
        // exact cycles (a mechanism check, not a fidelity figure: these traces are short and phase-heavy).
        EXPECT_GT(sampled.clock, exact.clock / 2);
        EXPECT_LT(sampled.clock, exact.clock * 2);
    }
    EXPECT_GE(tested, 3u);
}

}  // namespace
}  // namespace netburst::emu::test
