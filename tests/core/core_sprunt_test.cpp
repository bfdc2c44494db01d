// The SMT benchmarks of Sprunt's "Pentium 4 Performance-Monitoring Features" ("Benchmark results"): uops retired
// per cycle in single-thread and dual-thread mode on a Hyper-Threaded Pentium 4 Xeon (Northwood generation, model 2).
//   fp_add_latency: 0.21 single, 0.41 dual;   l1_miss: 1.23 single, 0.65 dual.
// doc/emulator-model.md discusses the agreement and the deviations.
#include <cstdio>

#include <gtest/gtest.h>

#include "tests/core/core_test_util.h"

namespace netburst::emu::test {
namespace {

double uops_per_cycle(Harness& h, unsigned threads) {
    std::uint64_t uops = 0;
    Cycle cycles = 0;
    for (unsigned t = 0; t < threads; ++t) {
        uops += h.totals(t).uops;
        if (h.totals(t).last_retire > cycles) cycles = h.totals(t).last_retire;
    }
    return static_cast<double>(uops) / static_cast<double>(cycles);
}

double single(const std::vector<Instruction>& trace) {
    Harness h(EmulatedMachine{}.with_ht());
    h.stop(1);
    h.run_all(trace);
    h.stop(0);
    EXPECT_TRUE(h.ok()) << h.problem();
    return uops_per_cycle(h, 1);
}

// Two copies: two processes (the paper's runs) unless `one_process`.
double dual(const std::vector<Instruction>& t0, const std::vector<Instruction>& t1, bool one_process = false) {
    CoreConfig config = make_core_config(EmulatedMachine{}.with_ht());
    config.shared_address_space = one_process;
    Harness h(config);
    h.run_smt(t0, t1);
    EXPECT_TRUE(h.ok()) << h.problem();
    return uops_per_cycle(h, 2);
}

TEST(CoreSprunt, FpAddLatency) {
    const double st = single(fp_add_latency(2000, 16));
    const double mt = dual(fp_add_latency(2000, 16, 0), fp_add_latency(2000, 16, 1));
    std::printf("fp_add_latency: single %.3f (paper 0.21), dual %.3f (paper 0.41)\n", st, mt);
    EXPECT_NEAR(st, 0.21, 0.21 * 0.15);
    EXPECT_NEAR(mt, 0.41, 0.41 * 0.15);
}

TEST(CoreSprunt, L1Miss) {
    const double st = single(l1_miss(4000));
    const double mt = dual(l1_miss(4000, 0), l1_miss(4000, 1));
    std::printf("l1_miss: single %.3f (paper 1.23), dual %.3f (paper 0.65)\n", st, mt);
}

// The PEBS section's l1_miss: the collapse in dual-thread mode comes from the hitting blocks, which two processes
// read at the same linear addresses; in the L1's shared mode those lines alias and the threads evict each other's.
// Two threads of one process share the lines and lose nothing. The figures are printed, not matched: the block
// size is unknown (doc/emulator-model.md, "Validation").
TEST(CoreSprunt, L1MissPebsReadingCollapsesOnlyAcrossAddressSpaces) {
    const double st = single(l1_miss_pebs(300, 100));
    const double two_processes = dual(l1_miss_pebs(300, 100, 0), l1_miss_pebs(300, 100, 1));
    const double one_process = dual(l1_miss_pebs(300, 100, 0), l1_miss_pebs(300, 100, 1), true);
    std::printf("l1_miss (PEBS section): single %.3f (paper 1.23), dual %.3f (paper 0.65), as threads of one "
                "process %.3f\n", st, two_processes, one_process);
    EXPECT_LT(st, 1.05);  // one load port: a loop of one-uop loads cannot retire much more than one per cycle
    EXPECT_LT(two_processes, 0.9 * st);
    EXPECT_GT(one_process, 0.95 * st);
}

}  // namespace
}  // namespace netburst::emu::test
