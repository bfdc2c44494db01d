// The PMU's side of the tiers: Pmu::needs_timing() follows the programmed registers, and Pmu::absorb() counts a
// FunctionalSink's counts as Pmu::consume() counts the same occurrences in Outcomes.
//
// These tests link pmu_coverage_test.cpp's test double of the coverage table, in which only global_power_events
// and TC_deliver_mode depend on timing.
#include <memory>

#include "tests/pmu/pmu_test_util.h"

namespace netburst::emu::test {
namespace {

class PmuTier : public PmuTest {
protected:
    void SetUp() override {
        PmuTest::SetUp();
        sink = std::make_unique<FunctionalSink>();
        sink->reset();
    }
    std::unique_ptr<FunctionalSink> sink;
};

TEST_F(PmuTier, NothingProgrammedNeedsNoTiming) { EXPECT_FALSE(pmu->needs_timing()); }

TEST_F(PmuTier, FunctionalEventsNeedNoTimingTimingEventsDo) {
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP", "MMNM"});
    EXPECT_FALSE(pmu->needs_timing());
    program(0, "FSB_ESCR0", "global_power_events", {"RUNNING"});
    EXPECT_TRUE(pmu->needs_timing());
    wrmsr(cccr_msr(0), 0);  // that counter stops: no more need
    EXPECT_FALSE(pmu->needs_timing());
    // An ESCR programmed with a timing event but selected by no counting CCCR needs nothing either.
    wrmsr(escr_msr("TC_ESCR0"), escr_value("TC_deliver_mode", {"DD"}, T0_ALL));
    EXPECT_FALSE(pmu->needs_timing());
}

TEST_F(PmuTier, PerCycleEvaluationAndOverflowMachineryNeedTiming) {
    const auto check = [&](CccrFields extra, bool expected, const char* what) {
        reset(test_config());
        program(12, "CRU_ESCR2", "branch_retired", {"MMTP"}, T0_ALL, extra);
        EXPECT_EQ(pmu->needs_timing(), expected) << what;
    };
    CccrFields f;
    check(f, false, "plain");
    f = CccrFields{};
    f.compare = true;
    check(f, true, "compare");
    f = CccrFields{};
    f.active_thread = ActiveThread::Single;
    check(f, true, "active thread filter");
    f = CccrFields{};
    f.force_ovf = true;
    check(f, true, "FORCE_OVF");
    f = CccrFields{};
    f.ovf_pmi_t0 = true;
    check(f, true, "OVF_PMI_T0");
    f = CccrFields{};
    f.cascade = true;
    check(f, true, "cascade");
}

TEST_F(PmuTier, ACascadeBitArmsEvenOnAStoppedCounter) {
    CccrFields f;
    f.cascade = true;
    f.enable = false;
    wrmsr(escr_msr("CRU_ESCR2"), escr_value("branch_retired", {"MMTP"}, T0_ALL));
    wrmsr(cccr_msr(14), encode_cccr(f));
    EXPECT_TRUE(pmu->needs_timing());
}

TEST_F(PmuTier, PebsAndMobReplayTaggingNeedTiming) {
    program(12, "CRU_ESCR2", "replay_event", {"NBOGUS"});
    wrmsr(kMsrPebsMatrixVert, 0x1);
    wrmsr(kMsrPebsEnable, 0x01000001);  // L1 load misses (1stL_cache_load_miss_retired): functional
    EXPECT_FALSE(pmu->needs_timing());
    wrmsr(kMsrPebsEnable, 0x01000001u | 1u << kPebsEnableMyThreadBit);  // PEBS sampling
    EXPECT_TRUE(pmu->needs_timing());
    wrmsr(kMsrPebsEnable, 0x01000200);  // MOB load replays (MOB_load_replay_retired): what is in flight
    EXPECT_TRUE(pmu->needs_timing());
}

// absorb() gives the counters what consume() gives them for the same occurrences: core events by qualifier,
// retirement by uop signature, the 40-bit wrap and the sticky OVF flag.
TEST_F(PmuTier, AbsorbCountsLikeConsume) {
    program(12, "CRU_ESCR2", "branch_retired", {"MMTP", "MMNM"}, T0_USR);
    program(14, "CRU_ESCR1", "instr_retired", {"NBOGUSNTAG", "NBOGUSTAG"}, T0_ALL);
    program(0, "BSU_ESCR0", "BSQ_cache_reference", {"RD_2ndL_MISS"}, T0_USR | T0_OS);
    sink->begin(0, 3);
    sink->add(EventId::BranchRetired, mask_bit("branch_retired", "MMTP"), 5);
    sink->add(EventId::BranchRetired, mask_bit("branch_retired", "MMNP"), 7);  // not selected
    sink->add(EventId::BsqCacheReference, mask_bit("BSQ_cache_reference", "RD_2ndL_MISS"), 11);
    sink->retire_instructions(0, 20);
    sink->retire_instructions(1, 3);
    sink->begin(0, 0);  // kernel: not counted by counter 12 (USR only)
    sink->add(EventId::BranchRetired, mask_bit("branch_retired", "MMNM"), 2);
    sink->add(EventId::BsqCacheReference, mask_bit("BSQ_cache_reference", "RD_2ndL_MISS"), 4);
    sink->retire_instructions(2, 6);
    pmu->absorb(*sink);
    EXPECT_EQ(counter(12), 5u);
    EXPECT_EQ(counter(14), 29u);
    EXPECT_EQ(counter(0), 15u);

    // The 40-bit wrap sets OVF, as an increment past the top does in consume().
    wrmsr(counter_msr(12), kCounterValueMask - 1);
    sink->clear_counts();
    sink->begin(0, 3);
    sink->add(EventId::BranchRetired, mask_bit("branch_retired", "MMTP"), 3);
    pmu->absorb(*sink);
    EXPECT_EQ(counter(12), 1u);
    EXPECT_TRUE(ovf(12));
}

TEST_F(PmuTier, AbsorbTagsBySignature) {
    // Front-end tagging of loads (uop_type TAGLOADS), counted by front_end_event NBOGUS and instr_retired TAG.
    program(12, "RAT_ESCR0", "uops_type", {"TAGLOADS"});  // the upstream ESCR needs a counting CCCR
    program(13, "CRU_ESCR2", "front_end_event", {"NBOGUS"});
    program(14, "CRU_ESCR1", "instr_retired", {"NBOGUSTAG"});
    // Replay tagging of loads that missed the L1.
    program(15, "CRU_ESCR3", "replay_event", {"NBOGUS"});
    wrmsr(kMsrPebsMatrixVert, 0x1);
    wrmsr(kMsrPebsEnable, 0x01000001);
    EXPECT_FALSE(pmu->needs_timing());

    UopSignature load;
    load.kind = UopKind::Load;
    UopSignature missed = load;
    missed.replay_causes = kReplayL1LoadMiss;
    UopSignature other;
    const std::uint16_t l = sink->intern(load), m = sink->intern(missed), o = sink->intern(other);
    sink->begin(0, 3);
    sink->retire_uops(l, 10);
    sink->retire_uops(m, 4);
    sink->retire_uops(o, 100);
    sink->retire_instructions(1, 14);  // instructions with a load
    sink->retire_instructions(0, 100);
    pmu->absorb(*sink);
    EXPECT_EQ(counter(12), 0u);   // uop_type itself never counts
    EXPECT_EQ(counter(13), 14u);  // every load is front-end tagged
    EXPECT_EQ(counter(14), 14u);  // instructions with a tagged uop
    EXPECT_EQ(counter(15), 4u);   // loads that missed the L1
}

}  // namespace
}  // namespace netburst::emu::test
