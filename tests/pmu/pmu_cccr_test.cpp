// CCCR behaviour: compare/complement/threshold and edge on a known per-cycle pattern (including the thesis'
// worked example), the active-thread filter with two logical processors, the PMI on the next event after an
// overflow with skid, and cascading including the rules for counters 16 and 17.
#include "tests/pmu/pmu_test_util.h"

namespace netburst::emu::test {
namespace {

class PmuCccr : public PmuTest {
protected:
    // Occurrences per cycle 0..9; cycles 10.. are empty.
    static constexpr unsigned kPattern[10] = {0, 3, 3, 1, 0, 4, 4, 4, 0, 2};

    // Feeds the pattern as branch_retired:MMTP occurrences of thread 0 (user), one instruction per cycle.
    void feed_pattern() {
        const unsigned tp = mask_bit("branch_retired", "MMTP");
        for (Cycle c = 0; c < 10; ++c) {
            Outcome o = instruction(0x100 + c, c);
            o.add_event(c, EventId::BranchRetired, tp, kPattern[c]);
            feed(o);
        }
    }
    std::uint64_t compare_count(CccrFields f) {
        reset(test_config());
        f.compare = true;
        program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_USR, f);
        feed_pattern();
        return counter(12, 10);  // closes cycles 0-9
    }
};

TEST_F(PmuCccr, ThresholdComplementAndEdgeOnAKnownPattern) {
    CccrFields f;
    f.threshold = 2;
    EXPECT_EQ(compare_count(f), 5u);  // cycles with more than 2: 1, 2, 5, 6, 7
    f.complement = true;
    EXPECT_EQ(compare_count(f), 5u);  // cycles with at most 2, empty ones included: 0, 3, 4, 8, 9
    f.complement = false;
    f.edge = true;
    EXPECT_EQ(compare_count(f), 2u);  // rising edges of "> 2": cycles 1 and 5
    f.complement = true;
    EXPECT_EQ(compare_count(f), 3u);  // rising edges of "<= 2": cycles 0, 3 and 8
    f = CccrFields{};
    f.threshold = 0;
    EXPECT_EQ(compare_count(f), 7u);  // cycles with any occurrence
    f.threshold = 3;
    EXPECT_EQ(compare_count(f), 3u);
    f.threshold = 15;
    f.complement = true;
    EXPECT_EQ(compare_count(f), 10u);  // every cycle: the 4-bit bus never exceeds 15
}

TEST_F(PmuCccr, EmptyCyclesCountWithComplementUpToTheRead) {
    CccrFields f;
    f.compare = true;
    f.complement = true;
    f.threshold = 0;  // cycles with no occurrence
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_USR, f, 0);
    feed_pattern();
    EXPECT_EQ(counter(12, 10), 3u);    // cycles 0, 4, 8
    EXPECT_EQ(counter(12, 1010), 1003u);  // and the 1000 empty cycles 10-1009
}

TEST_F(PmuCccr, CompareCountsIntervalsCycleByCycle) {
    CccrFields f;
    f.compare = true;
    f.threshold = 1;
    program(0, "FSB_ESCR0", "global_power_events", {"RUNNING"}, T0_USR, f);
    const unsigned running = mask_bit("global_power_events", "RUNNING");
    Outcome o = instruction(0x10, 100);
    o.add_interval(10, 50, EventId::GlobalPowerEvents, running, 1);
    o.add_interval(30, 40, EventId::GlobalPowerEvents, running, 1);  // overlap: 2 per cycle in 30-39
    o.frontier = 0;
    feed(o);
    EXPECT_EQ(counter(0, 100), 10u);
}

// Per-cycle counters: idle cycles are evaluated from the enable to the disable; later cycles only where they hold
// occurrences of instructions consumed before the disable; occurrences before the enable count at the enable.
TEST_F(PmuCccr, PerCycleWindowRunsFromEnableToDisable) {
    CccrFields f;
    f.compare = true;
    f.complement = true;
    f.threshold = 0;  // empty cycles
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_USR, f, 100);
    EXPECT_EQ(counter(12, 110), 10u);  // cycles 100-109
    wrmsr(cccr_msr(12), 0, 120);
    EXPECT_EQ(counter(12, 200), 20u);
}

TEST_F(PmuCccr, OccurrencesAfterTheDisableCountWhenTheirInstructionCameBefore) {
    CccrFields f;
    f.compare = true;
    f.threshold = 0;  // cycles with an occurrence
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_USR, f, 0);
    const unsigned tp = mask_bit("branch_retired", "MMTP");
    Outcome o = instruction(0x10, 10);
    o.add_event(5, EventId::BranchRetired, tp);
    o.add_event(30, EventId::BranchRetired, tp);  // e.g. a late occurrence of this instruction
    o.add_event(40, EventId::BranchRetired, tp);
    feed(o);
    wrmsr(cccr_msr(12), 0, 20);
    feed(event_at(50, EventId::BranchRetired, tp));  // consumed after the disable
    EXPECT_EQ(counter(12, 100), 3u);
}

TEST_F(PmuCccr, OccurrencesBeforeTheEnableCountAtTheEnableCycle) {
    CccrFields f;
    f.compare = true;
    f.threshold = 1;  // cycles with at least two occurrences
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_USR, f, 100);
    const unsigned tp = mask_bit("branch_retired", "MMTP");
    Outcome o = instruction(0x10, 105);
    o.add_event(50, EventId::BranchRetired, tp);  // before the enable: clamped to cycle 100
    o.add_event(100, EventId::BranchRetired, tp);
    feed(o);
    EXPECT_EQ(counter(12, 110), 1u);
}

// SDM/thesis section 9.1: branch_retired MMTP|MMTM for user code on logical processor 0, counting the cycles in
// which more than two taken branches retire.
TEST_F(PmuCccr, ThesisBranchRetiredThresholdExample) {
    wrmsr(escr_msr("CRU_ESCR2"), 0x0C001804);
    wrmsr(cccr_msr(12), 0x0027B000);
    const unsigned tp = mask_bit("branch_retired", "MMTP"), tm = mask_bit("branch_retired", "MMTM"),
                   np = mask_bit("branch_retired", "MMNP");
    const struct { unsigned taken_p, taken_m, not_taken; } cycles[] = {{3, 0, 0}, {2, 0, 5}, {1, 2, 0}, {0, 0, 0}, {2, 1, 1}};
    for (Cycle c = 0; c < 5; ++c) {
        Outcome o = instruction(0x100 + c, c);
        o.add_event(c, EventId::BranchRetired, tp, cycles[c].taken_p);
        o.add_event(c, EventId::BranchRetired, tm, cycles[c].taken_m);
        o.add_event(c, EventId::BranchRetired, np, cycles[c].not_taken);
        feed(o);
    }
    // Kernel-mode taken branches on the same cycle do not count (T0_USR only).
    feed(event_at(5, EventId::BranchRetired, tp, 5, 0, 0));
    EXPECT_EQ(counter(12, 10), 3u);  // cycles 0, 2 and 4
}

// Two logical processors: both active in 0-9, only LP0 in 10-19, none in 20-29, only LP1 in 30-39, both in 40-49.
class PmuActiveThread : public PmuTest {
protected:
    std::uint64_t cycles_counted(ActiveThread mode, bool compare) {
        PmuConfig ht = test_config();
        ht.machine.hyper_threading = true;
        reset(ht);
        CccrFields f;
        f.active_thread = mode;
        if (compare) {  // every cycle, occurrences or not
            f.compare = true;
            f.complement = true;
            f.threshold = 15;
        }
        program(0, "FSB_ESCR0", "global_power_events", {"RUNNING"}, T_ALL, f);
        pmu->set_thread_active(1, false, 10);
        pmu->set_thread_active(0, false, 20);
        pmu->set_thread_active(1, true, 30);
        pmu->set_thread_active(0, true, 40);
        pmu->set_thread_active(1, false, 40);
        pmu->set_thread_active(1, true, 40);
        if (!compare) {
            Outcome o = instruction(0x10, 50);
            o.frontier = 0;
            o.add_interval(0, 50, EventId::GlobalPowerEvents, mask_bit("global_power_events", "RUNNING"), 2);
            feed(o);
        }
        return counter(0, 50);
    }
};

TEST_F(PmuActiveThread, NoneSingleBothAny) {
    EXPECT_EQ(cycles_counted(ActiveThread::None, true), 10u);
    EXPECT_EQ(cycles_counted(ActiveThread::Single, true), 20u);
    EXPECT_EQ(cycles_counted(ActiveThread::Both, true), 20u);
    EXPECT_EQ(cycles_counted(ActiveThread::Any, true), 40u);
    // Without compare the filter gates the occurrences themselves (2 per cycle here).
    EXPECT_EQ(cycles_counted(ActiveThread::None, false), 20u);
    EXPECT_EQ(cycles_counted(ActiveThread::Single, false), 40u);
    EXPECT_EQ(cycles_counted(ActiveThread::Both, false), 40u);
    EXPECT_EQ(cycles_counted(ActiveThread::Any, false), 100u);
}

// The PMI is raised by the event after the overflowing one and taken pmi_skid_cycles later, returning to the first
// instruction that had not retired then.
class PmuInterrupt : public PmuTest {
protected:
    std::vector<PmiRecord> run(unsigned skid, bool pmi_t1 = false) {
        PmuConfig c = test_config();
        c.machine.pmi_skid_cycles = skid;
        c.machine.hyper_threading = pmi_t1;
        reset(c);
        CccrFields f;
        f.ovf_pmi_t0 = !pmi_t1;
        f.ovf_pmi_t1 = pmi_t1;
        program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_USR, f);
        wrmsr(counter_msr(12), kCounterValueMask);  // the next event overflows
        // Instruction i retires at cycle 10 i; instructions 1, 2 and 6 carry a branch event.
        for (unsigned i = 0; i < 10; ++i) {
            Outcome o = instruction(0x100 + i, 10 * i);
            if (i == 1 || i == 2 || i == 6) o.add_event(10 * i, EventId::BranchRetired, mask_bit("branch_retired", "MMTP"));
            feed(o);
        }
        return pmis();
    }
};

TEST_F(PmuInterrupt, RaisedOnTheEventAfterTheOverflow) {
    const auto records = run(0);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].cycle, 20u);  // the overflow was at cycle 10, the next event at 20
    EXPECT_EQ(records[0].eip, 0x102u);
    EXPECT_EQ(records[0].thread, 0u);
    EXPECT_EQ(records[0].overflowed, 1u << 12);
    EXPECT_FALSE(records[0].pebs_threshold);
}

TEST_F(PmuInterrupt, SkidShowsAsInstructions) {
    const auto records = run(25);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].cycle, 45u);
    EXPECT_EQ(records[0].eip, 0x105u);  // three instructions after the one that raised it
}

TEST_F(PmuInterrupt, OvfPmiT1InterruptsLogicalProcessorOne) {
    // LP1 retires nothing while LP0 runs: the PMI waits for LP1's next instruction to know where it returns.
    EXPECT_TRUE(run(0, true).empty());
    feed(instruction(0x900, 120, 1));
    const auto records = pmis();
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].thread, 1u);
    EXPECT_EQ(records[0].cycle, 20u);
    EXPECT_EQ(records[0].eip, 0x900u);
}

TEST_F(PmuInterrupt, NoPmiWithoutTheNextEventOrWithoutOvfPmi) {
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"});
    wrmsr(counter_msr(12), kCounterValueMask);
    feed(event_at(5, EventId::BranchRetired, mask_bit("branch_retired", "MMTP")));
    feed(event_at(6, EventId::BranchRetired, mask_bit("branch_retired", "MMTP")));
    EXPECT_TRUE(pmis().empty());  // OVF_PMI clear

    CccrFields f;
    f.ovf_pmi_t0 = true;
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_ALL, f);
    wrmsr(counter_msr(12), kCounterValueMask);
    feed(event_at(10, EventId::BranchRetired, mask_bit("branch_retired", "MMTP")));
    feed(instruction(0x20, 30));
    EXPECT_TRUE(pmis().empty());  // overflowed, but no event after it yet
    EXPECT_TRUE(ovf(12));
}

TEST_F(PmuInterrupt, ForceOvfRaisesAPmiFromTheSecondIncrementOn) {
    CccrFields f;
    f.force_ovf = true;
    f.ovf_pmi_t0 = true;
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_ALL, f);
    const unsigned tp = mask_bit("branch_retired", "MMTP");
    Outcome first = instruction(0x10, 10);
    first.add_event(10, EventId::BranchRetired, tp);
    feed(first);
    EXPECT_TRUE(pmis().empty());
    Outcome second = instruction(0x20, 20);
    second.add_event(20, EventId::BranchRetired, tp);
    feed(second);
    const auto records = pmis();
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].eip, 0x20u);
}

TEST_F(PmuInterrupt, PerCycleCounterOverflowRaisesAPmiToo) {
    CccrFields f;
    f.compare = true;
    f.complement = true;
    f.threshold = 0;
    f.ovf_pmi_t0 = true;
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_ALL, f);
    wrmsr(counter_msr(12), kCounterValueMask - 4);  // overflows at the 5th empty cycle (4), PMI at the 6th (5)
    for (unsigned i = 0; i < 10; ++i) feed(instruction(0x100 + i, i));
    const auto records = pmis();
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].cycle, 5u);
    EXPECT_EQ(records[0].eip, 0x105u);
}

// Cascading (SDM 18.15.5.6): a counter with Cascade set and Enable clear starts when its alternate overflows.
struct Side {
    const char* escr;
    const char* event;
    const char* mask;
    EventId id;
};
Side side_of(unsigned n) {
    static const Side sides[4][2] = {
        {{"BPU_ESCR0", "BPU_fetch_request", "TCMISS", EventId::BpuFetchRequest},
         {"BPU_ESCR1", "BPU_fetch_request", "TCMISS", EventId::BpuFetchRequest}},
        {{"MS_ESCR0", "tc_ms_xfer", "CISC", EventId::TcMsXfer}, {"MS_ESCR1", "tc_ms_xfer", "CISC", EventId::TcMsXfer}},
        {{"FIRM_ESCR0", "x87_FP_uop", "ALL", EventId::X87FpUop}, {"FIRM_ESCR1", "x87_FP_uop", "ALL", EventId::X87FpUop}},
        {{"CRU_ESCR2", "branch_retired", "MMTP", EventId::BranchRetired},
         {"CRU_ESCR3", "branch_retired", "MMTP", EventId::BranchRetired}},
    };
    return sides[static_cast<unsigned>(kCounters[n].block)][kCounters[n].side];
}

class PmuCascade : public PmuTest {
protected:
    // Counter `from` is one event from overflowing; `to` waits with Cascade set. Returns `to`'s count after two
    // more events (the first overflows `from`).
    std::uint64_t cascade(unsigned from, unsigned to) {
        reset(test_config());
        const Side a = side_of(from), b = side_of(to);
        wrmsr(escr_msr(a.escr), escr_value(a.event, {a.mask}, T0_USR));
        wrmsr(escr_msr(b.escr), escr_value(b.event, {b.mask}, T0_USR));
        wrmsr(cccr_msr(from), cccr_value(a.event));
        CccrFields waiting;
        waiting.cascade = true;
        std::uint64_t cccr = cccr_value(b.event, waiting) & ~(1ull << kCccrEnableBit);
        wrmsr(cccr_msr(to), cccr);
        wrmsr(counter_msr(from), kCounterValueMask);
        for (Cycle c = 1; c <= 3; ++c) {
            Outcome o = instruction(0x100 + c, c);
            o.add_event(c, a.id, mask_bit(a.event, a.mask));
            if (b.id != a.id) o.add_event(c, b.id, mask_bit(b.event, b.mask));
            feed(o);
        }
        return counter(to);
    }
};

TEST_F(PmuCascade, PairsCascadeInBothDirections) {
    const unsigned pairs[][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}, {8, 10}, {9, 11}, {12, 14}, {13, 15}};
    for (const auto& p : pairs) {
        EXPECT_EQ(cascade(p[0], p[1]), 2u) << p[0] << " -> " << p[1];
        EXPECT_EQ(cascade(p[1], p[0]), 2u) << p[1] << " -> " << p[0];
    }
    // Not pairs: counters of the same side, or other blocks.
    EXPECT_EQ(cascade(0, 1), 0u);
    EXPECT_EQ(cascade(0, 3), 0u);
    EXPECT_EQ(cascade(12, 13), 0u);
    EXPECT_EQ(cascade(2, 4), 0u);
}

TEST_F(PmuCascade, CountersSixteenAndSeventeen) {
    EXPECT_EQ(cascade(14, 16), 2u);  // 16 only from 14
    EXPECT_EQ(cascade(12, 16), 0u);
    EXPECT_EQ(cascade(15, 17), 2u);  // 17 only from 15
    EXPECT_EQ(cascade(13, 17), 0u);
    // 16 and 17 never initiate a cascade through the Cascade bit.
    EXPECT_EQ(cascade(16, 14), 0u);
    EXPECT_EQ(cascade(16, 12), 0u);
    EXPECT_EQ(cascade(17, 15), 0u);
    EXPECT_EQ(cascade(17, 13), 0u);
}

TEST_F(PmuCascade, ClearingTheAlternatesOvfStopsTheCascadedCounter) {
    EXPECT_EQ(cascade(12, 14), 2u);
    wrmsr(cccr_msr(12), cccr_value("branch_retired"));  // OVF cleared
    feed(event_at(10, EventId::BranchRetired, mask_bit("branch_retired", "MMTP"), 1, 0, 3));
    EXPECT_EQ(counter(14), 2u);
    EXPECT_EQ(counter(12), 3u);
}

TEST_F(PmuCascade, ExampleOneLongCounter) {
    // SDM Example 18-1 style: counter 12 counts, 14 continues after 12 wraps, so 14:12 is one long count.
    EXPECT_EQ(cascade(12, 14), 2u);
    EXPECT_EQ(counter(12), 2u);
    EXPECT_TRUE(ovf(12));
    EXPECT_FALSE(ovf(14));
}

}  // namespace
}  // namespace netburst::emu::test
