// Two logical processors: partitioned buffers while both are active, all resources to one when the other stops,
// next_thread() keeping their front ends close, TC_deliver_mode pairs, per-thread RUNNING, and the frontier.
#include <gtest/gtest.h>

#include "tests/core/core_test_util.h"

namespace netburst::emu::test {
namespace {

// A load that misses every cache, then many independent register operations: allocation stops once the ROB share
// is full of uops waiting behind the load.
std::vector<Instruction> window_probe(unsigned thread, std::uint64_t miss_address) {
    std::vector<Instruction> v;
    v.push_back(load(0x401000, miss_address, 4, 0, reg_gpr(0), thread));
    for (unsigned i = 0; i < 300; ++i)
        v.push_back(alu(0x401004 + (i % 32) * 3, reg_gpr(1 + i % 4), reg_gpr(1 + i % 4), thread));
    return v;
}

// The index of the first instruction after the load that could not be delivered before the load retired. The
// uop queue lets delivery run uop_queue_cycles ahead of a stalled allocator, so the window seen at delivery is the
// ROB share plus the queue.
unsigned window_of(Harness& h, const std::vector<Instruction>& trace, unsigned thread) {
    Cycle load_retire = 0;
    unsigned index = 0, first_late = ~0u;
    for (const Instruction& i : trace) {
        const Outcome& o = h.run(i);
        if (index == 0) load_retire = o.retire;
        if (index != 0 && first_late == ~0u && o.fetch + h.core().config().fetch_to_alloc > load_retire)
            first_late = index;
        ++index;
    }
    (void)thread;
    return first_late;
}

TEST(CoreSmt, SingleThreadModeHasTheWholeRob) {
    Harness h(EmulatedMachine{}.with_ht());
    h.stop(1);  // logical processor 1 has nothing: single-thread mode
    const CoreConfig& c = h.core().config();
    const unsigned w = window_of(h, window_probe(0, 0x70000000), 0) - c.uop_queue_cycles * c.deliver_width;
    const unsigned rob = c.rob_entries;
    EXPECT_GE(w, rob - 2);
    EXPECT_LE(w, rob + 2);
}

TEST(CoreSmt, DualThreadModeHalvesTheRob) {
    Harness h(EmulatedMachine{}.with_ht());
    const auto t0 = window_probe(0, 0x70000000);
    // Keep logical processor 1 active with a trace of its own, interleaved.
    std::vector<Instruction> t1;
    for (unsigned i = 0; i < 400; ++i) t1.push_back(alu(0x501000 + (i % 16) * 3, reg_gpr(2), reg_gpr(2), 1));
    Cycle load_retire = 0;
    unsigned index = 0, first_late = ~0u;
    std::size_t i0 = 0, i1 = 0;
    while (i0 < t0.size()) {
        const unsigned t = h.core().next_thread(true, i1 < t1.size());
        if (t == 1) {
            h.run(t1[i1++]);
            continue;
        }
        const Outcome& o = h.run(t0[i0++]);
        if (index == 0) load_retire = o.retire;
        if (index != 0 && first_late == ~0u && o.fetch + h.core().config().fetch_to_alloc > load_retire)
            first_late = index;
        ++index;
    }
    const CoreConfig& c = h.core().config();
    const unsigned half = c.rob_entries / 2;
    first_late -= c.uop_queue_cycles * c.deliver_width;
    EXPECT_GE(first_late, half - 2);
    EXPECT_LE(first_late, half + 2);
    EXPECT_TRUE(h.ok()) << h.problem();
}

TEST(CoreSmt, NextThreadKeepsFrontEndsClose) {
    Harness h(EmulatedMachine{}.with_ht());
    h.run_smt(fp_add_latency(200, 8, 0), fp_add_latency(200, 8, 1));
    EXPECT_TRUE(h.ok()) << h.problem();
    const Cycle c0 = h.core().stats(0).cycles, c1 = h.core().stats(1).cycles;
    EXPECT_NEAR(static_cast<double>(c0), static_cast<double>(c1), 0.05 * static_cast<double>(c0));
    EXPECT_EQ(h.core().next_thread(true, false), 0u);
    EXPECT_EQ(h.core().next_thread(false, true), 1u);
}

TEST(CoreSmt, BothThreadsDeliverAndRunningIsPerThread) {
    Harness h(EmulatedMachine{}.with_ht());
    std::vector<Instruction> a, b;
    for (unsigned i = 0; i < 2000; ++i) {
        a.push_back(alu(0x401000 + (i % 40) * 3, reg_gpr(i % 4), reg_gpr(i % 4), 0));
        b.push_back(alu(0x601000 + (i % 40) * 3, reg_gpr(i % 4), reg_gpr(i % 4), 1));
    }
    h.run_smt(a, b);
    EXPECT_TRUE(h.ok()) << h.problem();
    const Totals& t0 = h.totals(0);
    const Totals& t1 = h.totals(1);
    EXPECT_EQ(t0.count(EventId::GlobalPowerEvents, 0), h.core().stats(0).cycles);
    EXPECT_EQ(t1.count(EventId::GlobalPowerEvents, 0), h.core().stats(1).cycles);
    // TC_deliver_mode is thread independent: total it over both threads' Outcomes.
    std::uint64_t dd = t0.count(EventId::TcDeliverMode, 0) + t1.count(EventId::TcDeliverMode, 0);
    EXPECT_GT(dd, 1000u);  // both delivering most of the time
    // Dual-thread delivery alternates: each thread gets about half the front end.
    EXPECT_GT(h.core().stats(0).cycles, 2000u * 2 / 3 / 2);
}

TEST(CoreSmt, StoppingOneThreadGivesTheOtherEverything) {
    Harness h(EmulatedMachine{}.with_ht());
    std::vector<Instruction> a, b;
    for (unsigned i = 0; i < 3000; ++i) a.push_back(alu(0x401000 + (i % 40) * 3, reg_gpr(i % 8), reg_gpr(i % 8), 0));
    for (unsigned i = 0; i < 100; ++i) b.push_back(alu(0x601000 + (i % 40) * 3, reg_gpr(i % 8), reg_gpr(i % 8), 1));
    h.run_smt(a, b);
    EXPECT_TRUE(h.ok()) << h.problem();
    // After thread 1 stopped, thread 0 ran at the full three uops per cycle: well under the dual-mode time.
    const double ipc = 3000.0 / static_cast<double>(h.core().stats(0).cycles);
    EXPECT_GT(ipc, 2.0);
    // LP1 idle once stopped: ID never appears (thread 0 delivers), DI does.
    const std::uint64_t di = h.totals(0).count(EventId::TcDeliverMode, 2) + h.totals(1).count(EventId::TcDeliverMode, 2);
    EXPECT_GT(di, 0u);
}

TEST(CoreSmt, SeparateAddressSpacesDoNotShareLines) {
    Harness h(EmulatedMachine{}.with_ht());
    h.run(load(0x401000, 0x10000000, 4, 0, reg_gpr(0), 0));
    h.run(load(0x401000, 0x10000000, 4, 0, reg_gpr(0), 1));
    // Same linear address, two processes: the second is an L1 miss (aliasing) and an L2 miss (other memory).
    EXPECT_EQ(h.totals(1).causes[cause_index(kReplayL1LoadMiss)], 1u);
    EXPECT_EQ(h.totals(1).causes[cause_index(kReplayL2LoadMiss)], 1u);
    EXPECT_TRUE(h.core().l1_holds(0x10000000, 1));
    EXPECT_FALSE(h.core().l1_holds(0x10000000, 0));
    // One process: they share.
    CoreConfig c = make_core_config(EmulatedMachine{}.with_ht());
    c.shared_address_space = true;
    Harness g(c);
    g.run(load(0x401000, 0x10000000, 4, 0, reg_gpr(0), 0));
    g.run(load(0x401000, 0x10000000, 4, 0, reg_gpr(0), 1));
    EXPECT_EQ(g.totals(1).causes[cause_index(kReplayL1LoadMiss)], 0u);
}

}  // namespace
}  // namespace netburst::emu::test
