// The allocator on hand-made cases: the thesis' worked register values (section 9; doc/references.md), sharing, HT, and the
// explanation of conflicts.
#include <gtest/gtest.h>

#include "alloc/allocator.h"
#include "encode/program.h"
#include "events/parser.h"
#include "schedule_checker.h"

using namespace netburst;

namespace {

std::vector<EventRequest> parse_all(const std::vector<std::string>& names, unsigned model = kDefaultModel) {
    std::vector<EventRequest> out;
    for (const auto& n : names) {
        auto r = parse_event(n, model);
        EXPECT_TRUE(r.ok()) << n << ": " << r.error().message;
        if (r.ok()) out.push_back(*r);
    }
    return out;
}

Schedule schedule_ok(const std::vector<std::string>& names, const AllocContext& ctx = {}) {
    const auto reqs = parse_all(names, ctx.model);
    auto s = schedule_events(reqs, ctx);
    EXPECT_TRUE(s.ok()) << s.error().message;
    if (!s.ok()) return {};
    EXPECT_EQ(checks::check_schedule(reqs, ctx, *s), "");
    return *s;
}

Error schedule_err(const std::vector<std::string>& names, const AllocContext& ctx = {}) {
    auto s = schedule_events(parse_all(names, ctx.model), ctx);
    EXPECT_FALSE(s.ok());
    return s.ok() ? Error{} : s.error();
}

std::uint64_t written(const Schedule& s, std::uint32_t msr) {
    for (const MsrWrite& w : start_writes(s))
        if (w.msr == msr) return w.value;
    ADD_FAILURE() << "no write to MSR 0x" << std::hex << msr;
    return 0;
}

const PlacedUnit& unit(const Schedule& s, std::size_t request, UnitRole role) {
    for (const PlacedUnit& u : s.requests.at(request).units)
        if (u.role == role) return u;
    static PlacedUnit none;
    ADD_FAILURE() << "no such unit";
    return none;
}

AllocContext ht(unsigned thread, bool both = false) {
    AllocContext ctx;
    ctx.hyper_threading = true;
    ctx.thread = thread;
    ctx.both_threads = both;
    return ctx;
}

}  // namespace

// Thesis 9.1: taken branches (MMTP|MMTM), user mode, logical processor 0 of a Hyper-Threaded part, counted only in
// cycles with more than two (compare, threshold 2). CRU_ESCR2 feeds counters 12, 13 and 16.
TEST(ThesisExamples, BranchRetiredOnCruEscr2) {
    const Schedule s = schedule_ok({"branch_retired:MMTP:MMTM:u:thr=2"}, ht(0));
    const PlacedUnit& u = unit(s, 0, UnitRole::Count);
    EXPECT_EQ(u.escr, EscrId::CRU_ESCR2);
    EXPECT_EQ(u.counter, 12);
    EXPECT_EQ(written(s, 0x3CC), 0x0C001804u);
    EXPECT_EQ(written(s, 0x36C), 0x0027B000u);
}

// The same event on logical processor 1 takes the other side: CRU_ESCR3, counters 14, 15, 17, still select 5.
TEST(ThesisExamples, BranchRetiredOnCruEscr3ForThread1) {
    const Schedule s = schedule_ok({"branch_retired:MMTP:MMTM:u:thr=2"},
                                   [] { AllocContext c = ht(1); c.sibling.escrs = escr_bit(EscrId::CRU_ESCR2); return c; }());
    const PlacedUnit& u = unit(s, 0, UnitRole::Count);
    EXPECT_EQ(u.escr, EscrId::CRU_ESCR3);
    EXPECT_EQ(u.counter, 14);
    EXPECT_EQ(written(s, 0x3CD), 0x0C001801u);  // T1_USR
    EXPECT_EQ(written(s, 0x36E), 0x0027B000u);
    // Four more copies fill CRU_ESCR3's counters 15 and 17, then nothing is left for it.
    const AllocContext ctx = [] { AllocContext c = ht(1); c.sibling.escrs = escr_bit(EscrId::CRU_ESCR2); return c; }();
    const Schedule three = schedule_ok({"branch_retired:MMTP:MMTM:u", "branch_retired:MMTP:MMTM:u:thr=1",
                                        "branch_retired:MMTP:MMTM:u:e"}, ctx);
    EXPECT_EQ(three.counters, counter_bit(14) | counter_bit(15) | counter_bit(17));
    schedule_err({"branch_retired:MMTP:MMTM:u", "branch_retired:MMTP:MMTM:u:thr=1", "branch_retired:MMTP:MMTM:u:e",
                  "branch_retired:MMTP:MMTM:u:thr=3"}, ctx);
}

// Thesis 9.2: loads retired through front-end tagging, user mode on both logical processors: uop_type (02H)
// TAGLOADS with ESCR select 2, counted by front_end_event (08H) NBOGUS with ESCR select 5.
TEST(ThesisExamples, UopTypeAndFrontEndEvent) {
    const Schedule s = schedule_ok({"memory_loads:u"}, ht(0, true));
    const PlacedUnit& up = unit(s, 0, UnitRole::Upstream);
    const PlacedUnit& count = unit(s, 0, UnitRole::Count);
    EXPECT_EQ(up.escr, EscrId::RAT_ESCR0);
    EXPECT_EQ(up.escr_value, 0x04000405u);
    EXPECT_EQ(up.cccr_value, 0x00035000u);
    EXPECT_EQ(count.escr, EscrId::CRU_ESCR2);
    EXPECT_EQ(count.escr_value, 0x10000205u);
    EXPECT_EQ(count.cccr_value, 0x0003B000u);
    EXPECT_EQ(s.front_end_uop_mask, 2);
}

// Thesis 9.3: x87 operations retired through execution tagging on a part without Hyper-Threading, user mode:
// x87_FP_uop (04H) ALL with tag enable and tag value 0001, select 1; execution_event (0CH) NBOGUS0, select 5.
TEST(ThesisExamples, X87FpUopAndExecutionEvent) {
    const Schedule s = schedule_ok({"x87_FP_retired:u"});
    const PlacedUnit& up = unit(s, 0, UnitRole::Upstream);
    const PlacedUnit& count = unit(s, 0, UnitRole::Count);
    EXPECT_EQ(up.escr, EscrId::FIRM_ESCR0);
    EXPECT_EQ(up.escr_value, 0x09000034u);
    EXPECT_EQ(up.cccr_value, 0x00033000u);
    EXPECT_EQ(count.escr_value, 0x18000204u);
    EXPECT_EQ(count.cccr_value, 0x0003B000u);
    EXPECT_EQ(s.requests[0].tag_bit, 0);
    EXPECT_EQ(s.execution_tag_bits, 1);
}

// Thesis 9.4: first-level cache load misses retired through replay tagging, user and OS mode on logical
// processor 0: IA32_PEBS_ENABLE bits 0 and 24 (not 25, which would arm PEBS sampling), MATRIX_VERT bit 0, and
// replay_event (09H) NBOGUS with select 5.
TEST(ThesisExamples, FirstLevelLoadMissReplay) {
    const Schedule s = schedule_ok({"1stL_cache_load_miss_retired:u:k"}, ht(0));
    EXPECT_EQ(written(s, 0x3F1), 0x01000001u);
    EXPECT_EQ(written(s, 0x3F2), 0x1u);
    EXPECT_EQ(written(s, 0x3CC), 0x1200020Cu);
    EXPECT_EQ(written(s, 0x36C), 0x0003B000u);
    // The libpfm4 spelling PAPI's preset table uses gives the identical programming.
    const Schedule t = schedule_ok({"replay_event:NBOGUS:L1_LD_MISS:u:k"}, ht(0));
    EXPECT_EQ(start_writes(s), start_writes(t));
}

TEST(Allocator, WritesEscrsBeforeEnablingCounters) {
    const Schedule s = schedule_ok({"x87_FP_retired", "1stL_cache_load_miss_retired", "instr_retired:NBOGUSNTAG"});
    const auto writes = start_writes(s);
    std::size_t last_escr = 0, first_enable = writes.size();
    for (std::size_t i = 0; i < writes.size(); ++i) {
        MsrRef ref{};
        ASSERT_TRUE(lookup_msr(writes[i].msr, kDefaultModel, &ref));
        if (ref.kind == MsrKind::Escr || ref.kind == MsrKind::PebsEnable || ref.kind == MsrKind::PebsMatrixVert)
            last_escr = i;
        if (ref.kind == MsrKind::Cccr && first_enable == writes.size()) first_enable = i;
    }
    EXPECT_LT(last_escr, first_enable);
    for (const MsrWrite& w : stop_writes(s)) {
        if (w.msr == kMsrPebsEnable) {
            EXPECT_EQ(w.value, 0u) << "the replay metric must not stay latched";
        }
    }
}

TEST(Allocator, IdenticalEscrValuesShareOneEscr) {
    const Schedule s = schedule_ok({"branch_retired:MMTM", "branch_retired:MMTM:thr=1", "branch_retired:MMTM:e"});
    EXPECT_EQ(s.escrs, escr_bit(EscrId::CRU_ESCR2));
    EXPECT_EQ(s.counters, counter_bit(12) | counter_bit(13) | counter_bit(16));
}

TEST(Allocator, UsesTheWholePmuNotHalf) {
    // Eighteen events, one per counter: what Linux's halved tables cannot do.
    const Schedule s = schedule_ok({
        "BPU_fetch_request", "ITLB_reference:MISS", "page_walk_type:DTMISS", "MOB_load_replay:NO_STA",
        "tc_ms_xfer", "TC_misc", "retired_branch_type:CONDITIONAL", "retired_mispred_branch_type:CONDITIONAL",
        "x87_FP_uop", "packed_DP_uop", "memory_cancel:64K_CONF", "load_port_replay",
        "instr_retired:NBOGUSNTAG", "uops_retired:NBOGUS", "branch_retired:MMTM", "branch_retired:MMNM",
        "resource_stall", "instr_retired:NBOGUSNTAG:thr=1"});
    EXPECT_EQ(s.counters, kAllCounters);
}

TEST(Allocator, HyperThreadedSiblingsNeverShareCountersOrEscrs) {
    const std::vector<std::string> set = {"branch_retired:MMTM", "instr_retired:NBOGUSNTAG", "x87_FP_uop"};
    const Schedule t0 = schedule_ok(set, ht(0));
    AllocContext c1 = ht(1);
    c1.sibling = t0.as_occupancy();
    const Schedule t1 = schedule_ok(set, c1);
    EXPECT_EQ(t0.counters & t1.counters, 0u);
    EXPECT_EQ(t0.escrs & t1.escrs, 0u);
}

TEST(Allocator, ReplayMetricIsPackageWide) {
    const Schedule t0 = schedule_ok({"1stL_cache_load_miss_retired"}, ht(0));
    AllocContext c1 = ht(1);
    c1.sibling = t0.as_occupancy();
    schedule_ok({"1stL_cache_load_miss_retired:BOGUS"}, c1);
    const Error e = schedule_err({"2ndL_cache_load_miss_retired"}, c1);
    EXPECT_NE(e.message.find("other logical processor"), std::string::npos) << e.message;
}

TEST(Allocator, ChoosesDistinctTagBitsAndHonoursPinnedOnes) {
    const auto reqs = parse_all({"x87_FP_retired", "scalar_DP_retired:tag=0", "x87_FP_retired:thr=1"});
    auto s = schedule_events(reqs, {});
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->requests[1].tag_bit, 0);
    EXPECT_NE(s->requests[0].tag_bit, 0);
    EXPECT_EQ(s->requests[0].tag_bit, s->requests[2].tag_bit) << "one upstream configuration, one tag bit";
    EXPECT_EQ(checks::check_schedule(reqs, {}, *s), "");
}

TEST(Conflicts, FrontEndTagHasOneColour) {
    const Error e = schedule_err({"memory_loads", "memory_stores"});
    EXPECT_EQ(e.code, ErrorCode::Conflict);
    EXPECT_NE(e.message.find("front-end"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("memory_loads:NBOGUS and memory_stores:NBOGUS"), std::string::npos) << e.message;
}

TEST(Conflicts, OneReplayMetric) {
    const Error e = schedule_err({"branch_retired:MMTM", "1stL_cache_load_miss_retired", "2ndL_cache_load_miss_retired"});
    EXPECT_NE(e.message.find("IA32_PEBS_ENABLE"), std::string::npos) << e.message;
    EXPECT_EQ(e.message.find("branch_retired"), std::string::npos) << "not involved: " << e.message;
}

TEST(Conflicts, FourExecutionTagBits) {
    const Error e = schedule_err({"x87_FP_uop:ALL:TAG0:TAG1:TAG2:TAG3", "packed_SP_retired"});
    EXPECT_NE(e.message.find("tag bits"), std::string::npos) << e.message;
}

TEST(Conflicts, TwoFirmEscrsLimitDistinctUpstreamEvents) {
    // Every execution-tagging upstream event lives on FIRM_ESCR0/1, so two different ones fit and a third not.
    schedule_ok({"x87_FP_retired", "packed_SP_retired"});
    const Error e = schedule_err({"x87_FP_retired", "packed_SP_retired", "scalar_DP_retired"});
    EXPECT_NE(e.message.find("MSR_FIRM_ESCR0 and MSR_FIRM_ESCR1"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("MSR_CRU_ESCR2 and MSR_CRU_ESCR3"), std::string::npos) << e.message;
}

TEST(Conflicts, MetricTagBitIsExclusive) {
    const Error e = schedule_err({"x87_FP_uop:ALL:TAG0", "packed_SP_retired:tag=0"});
    EXPECT_NE(e.message.find("tag bit 0"), std::string::npos) << e.message;
}

// SDM 18.15.6.3: several upstream events may set the same tag bit, and execution_event then counts the
// combination. PAPI's FP presets rely on it.
TEST(Allocator, RawUpstreamEventsMayCombineOnOneTagBit) {
    const Schedule s = schedule_ok({"execution_event:NBOGUS0", "x87_FP_uop:ALL:TAG0", "scalar_DP_uop:ALL:TAG0"});
    EXPECT_EQ(s.execution_tag_bits, 1);
    EXPECT_EQ(s.escrs & (escr_bit(EscrId::FIRM_ESCR0) | escr_bit(EscrId::FIRM_ESCR1)),
              escr_bit(EscrId::FIRM_ESCR0) | escr_bit(EscrId::FIRM_ESCR1));
    // A metric choosing its own bit avoids the shared one.
    const auto reqs = parse_all({"x87_FP_uop:ALL:TAG0", "x87_FP_uop:ALL:TAG0:k", "x87_FP_retired:u"});
    auto t = schedule_events(reqs, {});
    EXPECT_FALSE(t.ok()) << "three FIRM configurations need three FIRM ESCRs";
}

TEST(Conflicts, EscrPairNamedWithTheEventsThatNeedIt) {
    const Error e = schedule_err({"branch_retired:MMTM", "branch_retired:MMNM", "machine_clear:CLEAR",
                                  "instr_retired:NBOGUSNTAG"});
    EXPECT_NE(e.message.find("MSR_CRU_ESCR2 and MSR_CRU_ESCR3"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("machine_clear"), std::string::npos) << e.message;
    EXPECT_EQ(e.message.find("instr_retired"), std::string::npos) << "not involved: " << e.message;
}

TEST(Conflicts, CounterBlockNamed) {
    const Error e = schedule_err({"instr_retired:NBOGUSNTAG", "instr_retired:NBOGUSNTAG:thr=1",
                                  "instr_retired:NBOGUSNTAG:thr=2", "uops_retired:NBOGUS", "uops_retired:NBOGUS:thr=1",
                                  "uops_retired:NBOGUS:thr=2", "branch_retired:MMTM"});
    EXPECT_NE(e.message.find("counter block IQ"), std::string::npos) << e.message;
}

TEST(Conflicts, BadContextIsBadInput) {
    AllocContext ctx;
    ctx.thread = 1;
    EXPECT_EQ(schedule_err({"branch_retired:MMTM"}, ctx).code, ErrorCode::BadInput);
    ctx = {};
    ctx.model = 5;
    EXPECT_EQ(schedule_events(parse_all({"branch_retired:MMTM"}), ctx).error().code, ErrorCode::BadInput);
}

// PEBS: the :precise event's count goes on IQ_COUNTER4 (IQ_COUNTER5 for logical processor 1), beside the set's
// other events, and the placement still passes the schedule checker.
TEST(Allocator, PreciseEventIsCountedOnThePebsCounter) {
    for (const std::vector<std::string>& names :
         std::vector<std::vector<std::string>>{{"1stL_cache_load_miss_retired:precise=1"},
                                               {"instr_retired:NBOGUSNTAG", "memory_loads:precise=1"},
                                               {"uops_retired:NBOGUS", "x87_FP_uop:ALL", "branch_retired:MMTP",
                                                "packed_DP_retired:precise=1"}}) {
        const auto reqs = parse_all(names);
        const std::size_t pebs = names.size() - 1;
        for (unsigned lp = 0; lp < 2; ++lp) {
            AllocContext ctx;
            ctx.hyper_threading = lp == 1;
            ctx.thread = lp;
            auto s = schedule_events(reqs, ctx);
            ASSERT_TRUE(s.ok()) << names.back() << ": " << s.error().message;
            EXPECT_EQ(s->requests[pebs].result_counter, static_cast<int>(pebs_counter(lp))) << names.back();
            EXPECT_EQ(checks::check_schedule(reqs, ctx, *s), "") << names.back();
        }
    }
    EXPECT_EQ(pebs_counter(0), 16u);
    EXPECT_EQ(pebs_counter(1), 17u);
}

// One PEBS counter per logical processor: two :precise events collide on it, and the explanation names it.
TEST(Allocator, TwoPreciseEventsCollideOnThePebsCounter) {
    const auto reqs = parse_all({"1stL_cache_load_miss_retired:precise=1", "memory_loads:precise=1"});
    auto s = schedule_events(reqs, AllocContext{});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::Conflict);
    EXPECT_NE(s.error().message.find("MSR_IQ_COUNTER4"), std::string::npos) << s.error().message;
    // Without :precise the two count together.
    EXPECT_TRUE(schedule_events(parse_all({"1stL_cache_load_miss_retired", "memory_loads"}), AllocContext{}).ok());
}

TEST(Allocator, PebsCounterTakenByOthersIsExplained) {
    const auto reqs = parse_all({"1stL_cache_load_miss_retired:precise=1"});
    AllocContext ctx;
    ctx.unavailable_counters = counter_bit(16);
    ctx.unavailable_reason = "the NMI watchdog holds it";
    auto s = schedule_events(reqs, ctx);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::Conflict);
    EXPECT_NE(s.error().message.find("MSR_IQ_COUNTER4"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("NMI watchdog"), std::string::npos) << s.error().message;
}

