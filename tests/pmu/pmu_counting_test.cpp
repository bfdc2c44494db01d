// Counting as the SDM describes it: ESCR T0/T1 x OS/USR qualification for thread-specific and thread-independent
// events, the 4-bit bus, intervals, 40-bit wrap, enable/disable attribution, and the extended-cascade bit.
#include "tests/pmu/pmu_test_util.h"

namespace netburst::emu::test {
namespace {

class PmuCounting : public PmuTest {};

// For every T-bit combination and every (logical processor, CPL) of an occurrence: a thread-specific event counts
// when the bit of that logical processor and privilege is set; a thread-independent one when any bit of that
// privilege is set.
TEST_F(PmuCounting, ThreadAndPrivilegeQualificationTsAndTi) {
    PmuConfig ht = test_config();
    ht.machine.hyper_threading = true;
    const unsigned ts_mmtp = mask_bit("branch_retired", "MMTP");
    const unsigned ti_all = mask_bit("x87_FP_uop", "ALL");
    for (unsigned tbits = 0; tbits < 16; ++tbits) {
        for (unsigned thread = 0; thread < 2; ++thread) {
            for (unsigned cpl : {0u, 3u}) {
                reset(ht);
                program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, tbits);
                program(8, "FIRM_ESCR0", "x87_FP_uop", {"ALL"}, tbits);
                Outcome o = instruction(0x400000, 10, thread, cpl);
                o.add_event(5, EventId::BranchRetired, ts_mmtp);
                o.add_event(6, EventId::X87FpUop, ti_all);
                feed(o);
                const bool os = cpl == 0;
                const unsigned own = thread == 0 ? (os ? T0_OS : T0_USR) : (os ? T1_OS : T1_USR);
                const unsigned any_thread = os ? (T0_OS | T1_OS) : (T0_USR | T1_USR);
                EXPECT_EQ(counter(12), (tbits & own) ? 1u : 0u)
                    << "TS tbits " << tbits << " thread " << thread << " cpl " << cpl;
                EXPECT_EQ(counter(8), (tbits & any_thread) ? 1u : 0u)
                    << "TI tbits " << tbits << " thread " << thread << " cpl " << cpl;
            }
        }
    }
}

TEST_F(PmuCounting, NoTBitsCountsNothing) {
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP", "MMTM", "MMNP", "MMNM"}, 0);
    for (unsigned cpl : {0u, 3u}) feed(event_at(5, EventId::BranchRetired, mask_bit("branch_retired", "MMTP"), 3, 0, cpl));
    EXPECT_EQ(counter(12), 0u);
}

TEST_F(PmuCounting, OnlySelectedMaskBitsCount) {
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP", "MMTM"});
    for (const char* m : {"MMNP", "MMNM", "MMTP", "MMTM"})
        feed(event_at(5, EventId::BranchRetired, mask_bit("branch_retired", m), 2));
    EXPECT_EQ(counter(12), 4u);
}

TEST_F(PmuCounting, CountersSelectOnlyEscrsOfTheirBlockAndSide) {
    // branch_retired lives on CRU_ESCR2 (counters 12, 13, 16) and CRU_ESCR3 (14, 15, 17): counter 14 with CCCR
    // select 5 reads CRU_ESCR3, which this test leaves unprogrammed.
    wrmsr(escr_msr("CRU_ESCR2"), escr_value("branch_retired", {"MMTP"}, T0_USR));
    for (unsigned n : {12u, 13u, 16u, 14u}) wrmsr(cccr_msr(n), cccr_value("branch_retired"));
    feed(event_at(5, EventId::BranchRetired, mask_bit("branch_retired", "MMTP")));
    EXPECT_EQ(counter(12), 1u);
    EXPECT_EQ(counter(13), 1u);
    EXPECT_EQ(counter(16), 1u);
    EXPECT_EQ(counter(14), 0u);
}

TEST_F(PmuCounting, WrongEventSelectCountsNothing) {
    // A wrong ESCR value must give a wrong count: select 0x07 on CRU_ESCR2 is no event.
    EscrFields f = decode_escr(escr_value("branch_retired", {"MMTP"}, T0_USR));
    f.event_select = 0x07;
    wrmsr(escr_msr("CRU_ESCR2"), encode_escr(f));
    wrmsr(cccr_msr(12), cccr_value("branch_retired"));
    feed(event_at(5, EventId::BranchRetired, mask_bit("branch_retired", "MMTP")));
    EXPECT_EQ(counter(12), 0u);
}

TEST_F(PmuCounting, FourBitBusCapsEachCycleAtFifteen) {
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP", "MMTM"});
    const unsigned tp = mask_bit("branch_retired", "MMTP"), tm = mask_bit("branch_retired", "MMTM");
    // Cycle 5: one record of 20, then more in the same cycle from later records and another mask bit.
    feed(event_at(5, EventId::BranchRetired, tp, 20));
    EXPECT_EQ(counter(12), 15u);
    feed(event_at(5, EventId::BranchRetired, tm, 3));
    EXPECT_EQ(counter(12), 15u);
    // Cycle 6: 9 + 9 over two mask bits is 18 on the bus, delivered as 15.
    Outcome o = instruction(0x10, 6);
    o.add_event(6, EventId::BranchRetired, tp, 9);
    o.add_event(6, EventId::BranchRetired, tm, 9);
    feed(o);
    EXPECT_EQ(counter(12), 30u);
    // Cycle 7: below the cap nothing is lost.
    feed(event_at(7, EventId::BranchRetired, tp, 14));
    EXPECT_EQ(counter(12), 44u);
}

TEST_F(PmuCounting, IntervalsAddTheirCyclesInBulk) {
    program(0, "FSB_ESCR0", "global_power_events", {"RUNNING"});
    Outcome o = instruction(0x10, 300);
    o.add_interval(100, 300, EventId::GlobalPowerEvents, mask_bit("global_power_events", "RUNNING"));
    feed(o);
    EXPECT_EQ(counter(0), 200u);
    // per_cycle above 15 is capped by the bus.
    Outcome wide = instruction(0x20, 400);
    wide.add_interval(300, 310, EventId::GlobalPowerEvents, mask_bit("global_power_events", "RUNNING"), 40);
    feed(wide);
    EXPECT_EQ(counter(0), 350u);
}

TEST_F(PmuCounting, FortyBitWrapSetsOvf) {
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"});
    wrmsr(counter_msr(12), kCounterValueMask - 2);
    feed(event_at(5, EventId::BranchRetired, mask_bit("branch_retired", "MMTP"), 2));
    EXPECT_EQ(counter(12), kCounterValueMask);
    EXPECT_FALSE(ovf(12));
    feed(event_at(6, EventId::BranchRetired, mask_bit("branch_retired", "MMTP"), 3));
    EXPECT_EQ(counter(12), 2u);
    EXPECT_TRUE(ovf(12));
}

TEST_F(PmuCounting, OvfIsStickyUntilSoftwareClearsIt) {
    const std::uint64_t cccr = cccr_value("branch_retired");
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"});
    wrmsr(counter_msr(12), kCounterValueMask);
    const unsigned tp = mask_bit("branch_retired", "MMTP");
    feed(event_at(5, EventId::BranchRetired, tp));
    EXPECT_TRUE(ovf(12));
    for (Cycle c = 6; c < 20; ++c) feed(event_at(c, EventId::BranchRetired, tp));
    EXPECT_TRUE(ovf(12));
    EXPECT_EQ(counter(12), 14u);
    wrmsr(cccr_msr(12), cccr);  // OVF written as 0
    EXPECT_FALSE(ovf(12));
    feed(event_at(30, EventId::BranchRetired, tp));
    EXPECT_FALSE(ovf(12));
    EXPECT_EQ(counter(12), 15u);
}

TEST_F(PmuCounting, ForceOvfOverflowsOnEveryIncrement) {
    CccrFields f;
    f.force_ovf = true;
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_ALL, f);
    const unsigned tp = mask_bit("branch_retired", "MMTP");
    feed(event_at(5, EventId::BranchRetired, tp));
    EXPECT_TRUE(ovf(12));
    EXPECT_EQ(counter(12), 1u);  // the value still counts normally
    wrmsr(cccr_msr(12), cccr_value("branch_retired", f));  // clear OVF
    EXPECT_FALSE(ovf(12));
    feed(event_at(6, EventId::BranchRetired, tp));
    EXPECT_TRUE(ovf(12));
    EXPECT_EQ(counter(12), 2u);
}

TEST_F(PmuCounting, EventsCountByInstructionAroundEnableAndDisable) {
    const unsigned tp = mask_bit("branch_retired", "MMTP");
    feed(event_at(100, EventId::BranchRetired, tp));  // before the counter exists: never counts
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_ALL, CccrFields{}, 150);
    // An instruction consumed after the enable counts even if its event happened before the enable cycle.
    Outcome early = instruction(0x10, 160);
    early.add_event(140, EventId::BranchRetired, tp);
    feed(early);
    EXPECT_EQ(counter(12, 170), 1u);
    wrmsr(cccr_msr(12), 0, 200);
    // Consumed after the disable: not counted, whatever its cycle.
    Outcome late = instruction(0x20, 210);
    late.add_event(190, EventId::BranchRetired, tp);
    feed(late);
    EXPECT_EQ(counter(12, 220), 1u);
}

TEST_F(PmuCounting, ExtendedCascadeBitIsAcceptedAndCountingContinues) {
    CccrFields f;
    f.extended_cascade = true;
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_ALL, f);
    const unsigned tp = mask_bit("branch_retired", "MMTP");
    for (Cycle c = 1; c <= 5; ++c) feed(event_at(c, EventId::BranchRetired, tp));
    EXPECT_EQ(counter(12), 5u);
    EXPECT_EQ(rdmsr(cccr_msr(12)) >> kCccrExtendedCascadeBit & 1u, 1u);
}

TEST_F(PmuCounting, CoreRecordsOfPmuOwnedEventsAreIgnored) {
    // The PMU counts uops_retired from UopRecords; a stray EventRecord of it must not count twice.
    program(12, "CRU_ESCR0", "uops_retired", {"NBOGUS"});
    Outcome o = instruction(0x10, 5);
    o.add_event(5, EventId::UopsRetired, mask_bit("uops_retired", "NBOGUS"), 4);
    feed(o);
    EXPECT_EQ(counter(12), 1u);
}

TEST_F(PmuCounting, InstrCompletedExistsOnlyFromPrescott) {
    for (unsigned model : {2u, 3u}) {
        PmuConfig c = test_config();
        c.machine.model = model;
        reset(c);
        program(12, "CRU_ESCR0", "instr_completed", {"NBOGUS"});
        feed(instruction(0x10, 5));
        EXPECT_EQ(counter(12), model == 3 ? 1u : 0u) << "model " << model;
    }
}

}  // namespace
}  // namespace netburst::emu::test
