// The three tagging mechanisms (SDM 18.15.6), each with the thesis' register values where it gives them, every
// replay metric of table/metrics.h tagging exactly the uops with its cause and kind, and their independence.
#include "table/metrics.h"
#include "tests/pmu/pmu_test_util.h"

namespace netburst::emu::test {
namespace {

UopRecord make_uop(UopKind kind, Cycle retire, bool bogus = false, bool last = true) {
    UopRecord u;
    u.kind = kind;
    u.retire = retire;
    u.bogus = bogus;
    u.last_of_instruction = last;
    return u;
}

Outcome with_uops(std::uint64_t pc, std::initializer_list<UopRecord> uops, unsigned thread = 0, unsigned cpl = 3) {
    Outcome o;
    o.thread = static_cast<std::uint8_t>(thread);
    o.cpl = static_cast<std::uint8_t>(cpl);
    o.pc = pc;
    for (const UopRecord& u : uops) {
        *o.add_uop() = u;
        if (u.retire > o.retire) o.retire = u.retire;
    }
    o.fetch = o.frontier = o.retire;
    return o;
}

class PmuTagging : public PmuTest {};

// Thesis 9.2: uop_type TAGLOADS on RAT_ESCR0 (user, both logical processors) and front_end_event NBOGUS.
TEST_F(PmuTagging, FrontEndThesisExampleCountsRetiredLoads) {
    wrmsr(escr_msr("RAT_ESCR0"), 0x04000405);
    wrmsr(cccr_msr(12), 0x00035000);
    wrmsr(escr_msr("CRU_ESCR2"), 0x10000205);
    wrmsr(cccr_msr(13), 0x0003B000);
    Cycle c = 1;
    for (UopKind k : {UopKind::Load, UopKind::Store, UopKind::Other, UopKind::Load, UopKind::Branch, UopKind::Load})
        feed(with_uops(0x100 + c, {make_uop(k, c)})), ++c;
    feed(with_uops(0x200, {make_uop(UopKind::Load, c++, /*bogus=*/true)}));  // wrong path: BOGUS, not NBOGUS
    feed(with_uops(0x201, {make_uop(UopKind::Load, c++)}, 0, /*cpl=*/0));    // kernel: not tagged (USR only)
    EXPECT_EQ(counter(13, c), 3u);
    EXPECT_EQ(counter(12, c), 0u);  // uop_type itself never counts
}

TEST_F(PmuTagging, FrontEndTagsStoresAndCountsBogusSeparately) {
    program(15, "RAT_ESCR1", "uops_type", {"TAGSTORES"}, T0_USR);  // the ESCR1 side feeds 14, 15, 17
    program(14, "CRU_ESCR3", "front_end_event", {"BOGUS"}, T0_USR);
    feed(with_uops(0x10, {make_uop(UopKind::Store, 1, true), make_uop(UopKind::Store, 1, false)}));
    feed(with_uops(0x11, {make_uop(UopKind::Load, 2, true)}));
    EXPECT_EQ(counter(14, 3), 1u);
}

TEST_F(PmuTagging, UpstreamEscrTagsOnlyWhileAnEnabledCccrSelectsIt) {
    wrmsr(escr_msr("RAT_ESCR0"), 0x04000405);  // programmed, but no CCCR selects it
    wrmsr(escr_msr("CRU_ESCR2"), 0x10000205);
    wrmsr(cccr_msr(13), 0x0003B000);
    feed(with_uops(0x10, {make_uop(UopKind::Load, 1)}));
    EXPECT_EQ(counter(13, 2), 0u);
    wrmsr(cccr_msr(12), 0x00035000, 2);
    feed(with_uops(0x11, {make_uop(UopKind::Load, 3)}));
    EXPECT_EQ(counter(13, 4), 1u);
}

TEST_F(PmuTagging, InstrRetiredSplitsByFrontEndTagAndBogus) {
    program(12, "RAT_ESCR0", "uops_type", {"TAGLOADS"}, T0_USR);
    const char* masks[] = {"NBOGUSNTAG", "NBOGUSTAG", "BOGUSNTAG", "BOGUSTAG"};
    const unsigned expected[] = {2, 1, 1, 1};
    for (unsigned m = 0; m < 4; ++m) {
        reset(test_config());
        program(12, "RAT_ESCR0", "uops_type", {"TAGLOADS"}, T0_USR);
        program(14, "CRU_ESCR1", "instr_retired", {masks[m]}, T0_USR);
        // A two-uop instruction whose first uop is a load: tagged. Two untagged ones. Bogus ones of each kind.
        feed(with_uops(0x10, {make_uop(UopKind::Load, 1, false, false), make_uop(UopKind::Other, 1, false, true)}));
        feed(with_uops(0x11, {make_uop(UopKind::Store, 2)}));
        feed(with_uops(0x12, {make_uop(UopKind::Other, 3)}));
        feed(with_uops(0x13, {make_uop(UopKind::Load, 4, true)}));
        feed(with_uops(0x14, {make_uop(UopKind::Other, 5, true)}));
        EXPECT_EQ(counter(14, 6), expected[m]) << masks[m];
    }
}

TEST_F(PmuTagging, UopsRetiredAndInstrCompletedCountFromUops) {
    PmuConfig prescott = test_config();
    prescott.machine.model = 3;
    reset(prescott);
    program(12, "CRU_ESCR0", "uops_retired", {"NBOGUS"}, T0_USR);
    program(14, "CRU_ESCR1", "instr_completed", {"BOGUS"}, T0_USR);
    feed(with_uops(0x10, {make_uop(UopKind::Load, 1, false, false), make_uop(UopKind::Other, 1, false, false),
                          make_uop(UopKind::Other, 2, false, true)}));
    feed(with_uops(0x11, {make_uop(UopKind::Other, 3, true, false), make_uop(UopKind::Other, 3, true, true)}));
    EXPECT_EQ(counter(12, 4), 3u);
    EXPECT_EQ(counter(14, 4), 1u);
}

// Without front-end tagging the PMU counts retirement per group of uops retiring in one cycle; every mask
// combination, with groups spanning cycles, both privilege levels and bogus instructions.
TEST_F(PmuTagging, RetirementCountsWithoutTagging) {
    struct Case {
        const char* event;
        std::initializer_list<const char*> masks;
        unsigned tbits;
        unsigned expected;
    };
    // The feed below: non-bogus 6 uops / 4 instructions (one of each in kernel mode), bogus 3 uops / 2 instructions.
    const Case cases[] = {
        {"uops_retired", {"NBOGUS"}, T0_ALL, 6},
        {"uops_retired", {"NBOGUS"}, T0_USR, 5},
        {"uops_retired", {"BOGUS"}, T0_ALL, 3},
        {"uops_retired", {"NBOGUS", "BOGUS"}, T0_ALL, 9},
        {"instr_retired", {"NBOGUSNTAG"}, T0_ALL, 4},
        {"instr_retired", {"NBOGUSNTAG"}, T0_OS, 1},
        {"instr_retired", {"BOGUSNTAG"}, T0_ALL, 2},
        {"instr_retired", {"NBOGUSTAG", "BOGUSTAG"}, T0_ALL, 0},
        {"instr_retired", {"NBOGUSNTAG", "BOGUSNTAG"}, T0_ALL, 6},
    };
    for (const Case& c : cases) {
        reset(test_config());
        program(14, "CRU_ESCR1", c.event, c.masks, c.tbits);
        feed(with_uops(0x10, {make_uop(UopKind::Load, 1, false, false), make_uop(UopKind::Other, 1, false, false),
                              make_uop(UopKind::Other, 2, false, true)}));
        feed(with_uops(0x11, {make_uop(UopKind::Other, 3)}, 0, /*cpl=*/0));
        feed(with_uops(0x12, {make_uop(UopKind::Store, 4)}));
        feed(with_uops(0x13, {make_uop(UopKind::Other, 5, true, false), make_uop(UopKind::Other, 5, true, true),
                              make_uop(UopKind::Other, 6, true, true)}));
        feed(with_uops(0x14, {make_uop(UopKind::Other, 7)}));
        EXPECT_EQ(counter(14, 10), c.expected) << c.event << " tbits " << c.tbits;
    }
}

UopRecord exec_uop(EventId event, unsigned bit, Cycle retire, bool bogus = false) {
    UopRecord u = make_uop(UopKind::Other, retire, bogus);
    u.has_exec_event = true;
    u.exec_event = event;
    u.exec_mask_bit = static_cast<std::uint8_t>(bit);
    u.exec_cycle = retire > 0 ? retire - 1 : 0;
    return u;
}

// Thesis 9.3: x87_FP_uop ALL with tag value 0001 on FIRM_ESCR0, execution_event NBOGUS0 on CRU_ESCR2.
TEST_F(PmuTagging, ExecutionThesisExampleCountsRetiredX87Uops) {
    wrmsr(escr_msr("FIRM_ESCR0"), 0x09000034);
    wrmsr(cccr_msr(8), 0x00033000);
    wrmsr(escr_msr("CRU_ESCR2"), 0x18000204);
    wrmsr(cccr_msr(12), 0x0003B000);
    const unsigned all = mask_bit("x87_FP_uop", "ALL");
    feed(with_uops(0x10, {exec_uop(EventId::X87FpUop, all, 1)}));
    feed(with_uops(0x11, {exec_uop(EventId::X87FpUop, all, 2), exec_uop(EventId::X87FpUop, all, 2)}));
    feed(with_uops(0x12, {exec_uop(EventId::PackedDpUop, all, 3)}));       // another upstream event
    feed(with_uops(0x13, {exec_uop(EventId::X87FpUop, all, 4, true)}));    // wrong path
    feed(with_uops(0x14, {make_uop(UopKind::Other, 5)}));
    EXPECT_EQ(counter(12, 6), 3u);
}

TEST_F(PmuTagging, ExecutionTagNeedsTagEnable) {
    program(8, "FIRM_ESCR0", "x87_FP_uop", {"ALL"}, T0_USR);  // no tag
    program(12, "CRU_ESCR2", "execution_event", {"NBOGUS0", "NBOGUS1", "NBOGUS2", "NBOGUS3"}, T0_USR);
    feed(with_uops(0x10, {exec_uop(EventId::X87FpUop, mask_bit("x87_FP_uop", "ALL"), 1)}));
    EXPECT_EQ(counter(12, 2), 0u);
}

// Four tag bits, counted separately; a uop with several selected tag bits counts once.
TEST_F(PmuTagging, FourExecutionTagBitsAreIndependent) {
    const unsigned all = mask_bit("x87_FP_uop", "ALL");
    const char* nbogus[] = {"NBOGUS0", "NBOGUS1", "NBOGUS2", "NBOGUS3"};
    for (unsigned bit = 0; bit < 4; ++bit) {
        reset(test_config());
        // x87 uops get tags 0 and 2; packed_SP uops tags 1 and 3.
        wrmsr(escr_msr("FIRM_ESCR0"), escr_value("x87_FP_uop", {"ALL"}, T0_USR, 0b0101));
        wrmsr(cccr_msr(8), cccr_value("x87_FP_uop"));
        wrmsr(escr_msr("FIRM_ESCR1"), escr_value("packed_SP_uop", {"ALL"}, T0_USR, 0b1010));
        wrmsr(cccr_msr(10), cccr_value("packed_SP_uop"));
        program(12, "CRU_ESCR2", "execution_event", {nbogus[bit]}, T0_USR);
        for (Cycle c = 1; c <= 3; ++c) feed(with_uops(0x10 + c, {exec_uop(EventId::X87FpUop, all, c)}));
        for (Cycle c = 4; c <= 8; ++c) feed(with_uops(0x10 + c, {exec_uop(EventId::PackedSpUop, all, c)}));
        EXPECT_EQ(counter(12, 9), (bit % 2 == 0) ? 3u : 5u) << nbogus[bit];
    }
    reset(test_config());
    wrmsr(escr_msr("FIRM_ESCR0"), escr_value("x87_FP_uop", {"ALL"}, T0_USR, 0b0101));
    wrmsr(cccr_msr(8), cccr_value("x87_FP_uop"));
    program(12, "CRU_ESCR2", "execution_event", {"NBOGUS0", "NBOGUS2"}, T0_USR);
    program(14, "CRU_ESCR3", "execution_event", {"BOGUS0", "BOGUS2"}, T0_USR);
    feed(with_uops(0x10, {exec_uop(EventId::X87FpUop, all, 1), exec_uop(EventId::X87FpUop, all, 1, true)}));
    EXPECT_EQ(counter(12, 2), 1u);
    EXPECT_EQ(counter(14, 2), 1u);
}

TEST_F(PmuTagging, ExecutionUpstreamIsThreadIndependent) {
    PmuConfig ht = test_config();
    ht.machine.hyper_threading = true;
    reset(ht);
    wrmsr(escr_msr("FIRM_ESCR0"), escr_value("x87_FP_uop", {"ALL"}, T0_USR, 1));  // TI: tags LP1's uops too
    wrmsr(cccr_msr(8), cccr_value("x87_FP_uop"));
    program(12, "CRU_ESCR2", "execution_event", {"NBOGUS0"}, T1_USR);
    feed(with_uops(0x10, {exec_uop(EventId::X87FpUop, mask_bit("x87_FP_uop", "ALL"), 1)}, 1));
    feed(with_uops(0x11, {exec_uop(EventId::X87FpUop, mask_bit("x87_FP_uop", "ALL"), 2)}, 0));
    EXPECT_EQ(counter(12, 3), 1u);  // execution_event is TS: only LP1's uop
}

// Replay tagging: every metric's IA32_PEBS_ENABLE / MATRIX_VERT (from the table), plus its extra select, tags
// exactly the retiring uops of its kind that met its cause.
struct ReplayCase {
    UopKind kind;
    std::uint16_t causes;
    std::uint16_t mob_mask;
};

class PmuReplay : public PmuTest {
protected:
    // Programs `metric` the way the recipe says and replay_event NBOGUS on counter 12 (thesis 9.4's CRU_ESCR2).
    void program_metric(const MetricDef& m) {
        reset(test_config());
        wrmsr(kMsrPebsEnable, m.pebs_enable);
        wrmsr(kMsrPebsMatrixVert, m.matrix_vert);
        if (m.has_upstream) {
            const EventDef& up = event_def(m.upstream_event);
            const EscrId escr = m.upstream_escr != EscrId::None ? m.upstream_escr : up.escrs[0];
            EscrFields f;
            f.t0_usr = f.t0_os = true;
            f.event_mask = m.upstream_mask;
            f.event_select = up.event_select;
            wrmsr(kEscrs[escr_index(escr)].msr, encode_escr(f));
            // A counter selecting the upstream ESCR: the first one its side feeds.
            const CounterMask counters = kEscrs[escr_index(escr)].counters;
            unsigned n = 0;
            while (!(counters & counter_bit(n))) ++n;
            CccrFields c;
            c.enable = true;
            c.escr_select = up.cccr_select;
            wrmsr(cccr_msr(n), encode_cccr(c));
        }
        wrmsr(escr_msr("CRU_ESCR2"), 0x1200020C);
        wrmsr(cccr_msr(12), 0x0003B000);
    }
};

bool expected_tag(MetricId id, const ReplayCase& u) {
    const unsigned partial = 1u << mask_bit("MOB_load_replay", "PARTIAL_DATA");
    const unsigned unaligned = 1u << mask_bit("MOB_load_replay", "UNALGN_ADDR");
    const bool load = u.kind == UopKind::Load, store = u.kind == UopKind::Store;
    switch (id) {
    case MetricId::L1LoadMissRetired: return load && (u.causes & kReplayL1LoadMiss);
    case MetricId::L2LoadMissRetired: return load && (u.causes & kReplayL2LoadMiss);
    case MetricId::DtlbLoadMissRetired: return load && (u.causes & kReplayDtlbMiss);
    case MetricId::DtlbStoreMissRetired: return store && (u.causes & kReplayDtlbMiss);
    case MetricId::DtlbAllMissRetired: return (load || store) && (u.causes & kReplayDtlbMiss);
    case MetricId::TaggedMispredBranch: return u.kind == UopKind::Branch && (u.causes & kReplayMispredBranch);
    case MetricId::MobLoadReplayRetired: return load && (u.causes & kReplayMob) && (u.mob_mask & (partial | unaligned));
    case MetricId::SplitLoadRetired: return load && (u.causes & kReplaySplit);
    case MetricId::SplitStoreRetired: return store && (u.causes & kReplaySplit);
    default: return false;
    }
}

TEST_F(PmuReplay, EachMetricTagsExactlyItsUops) {
    const std::uint16_t split = static_cast<std::uint16_t>(1u << mask_bit("load_port_replay", "SPLIT_LD"));
    const std::uint16_t no_sta = static_cast<std::uint16_t>(1u << mask_bit("MOB_load_replay", "NO_STA"));
    const std::uint16_t partial = static_cast<std::uint16_t>(1u << mask_bit("MOB_load_replay", "PARTIAL_DATA"));
    const std::uint16_t unaligned = static_cast<std::uint16_t>(1u << mask_bit("MOB_load_replay", "UNALGN_ADDR"));
    std::vector<ReplayCase> cases;
    for (UopKind kind : {UopKind::Load, UopKind::Store, UopKind::Branch, UopKind::Other}) {
        cases.push_back({kind, 0, 0});
        cases.push_back({kind, kReplayL1LoadMiss, 0});
        cases.push_back({kind, kReplayL1LoadMiss | kReplayL2LoadMiss, 0});
        cases.push_back({kind, kReplayDtlbMiss, 0});
        cases.push_back({kind, kReplayMispredBranch, 0});
        cases.push_back({kind, kReplayMob, no_sta});
        cases.push_back({kind, kReplayMob, partial});
        cases.push_back({kind, kReplayMob, unaligned});
        cases.push_back({kind, kReplaySplit, split});
        cases.push_back({kind, kReplayDtlbMiss | kReplaySplit, split});
    }
    unsigned metrics_checked = 0;
    for (const MetricDef& m : kMetrics) {
        if (m.mechanism != TagMechanism::Replay) continue;
        ++metrics_checked;
        program_metric(m);
        std::uint64_t expected = 0;
        Cycle c = 1;
        for (const ReplayCase& rc : cases) {
            for (bool bogus : {false, true}) {
                UopRecord u = make_uop(rc.kind, c, bogus);
                u.replay_causes = rc.causes;
                u.mob_mask = rc.mob_mask;
                feed(with_uops(0x1000 + c, {u}, 0, c % 2 ? 3 : 0));
                if (!bogus && expected_tag(m.id, rc)) ++expected;
                ASSERT_EQ(counter(12, c + 1), expected)
                    << m.name << ": kind " << static_cast<int>(rc.kind) << " causes " << rc.causes << " mob "
                    << rc.mob_mask << " bogus " << bogus;
                ++c;
            }
        }
        EXPECT_GT(expected, 0u) << m.name;
    }
    EXPECT_EQ(metrics_checked, 9u);
}

// Thesis 9.4 / doc/hardware-table.md: 1stL_cache_load_miss_retired with IA32_PEBS_ENABLE 0x01000001,
// MATRIX_VERT 0x1 and replay_event NBOGUS (T0_OS+T0_USR) on CRU_ESCR2 = 0x1200020C, CCCR 0x0003B000.
TEST_F(PmuReplay, ThesisL1LoadMissRegisterValues) {
    wrmsr(kMsrPebsEnable, 0x01000001);
    wrmsr(kMsrPebsMatrixVert, 0x1);
    wrmsr(escr_msr("CRU_ESCR2"), 0x1200020C);
    wrmsr(cccr_msr(12), 0x0003B000);
    Cycle c = 1;
    auto uop = [&](UopKind kind, std::uint16_t causes, bool bogus, unsigned cpl) {
        UopRecord u = make_uop(kind, c, bogus);
        u.replay_causes = causes;
        feed(with_uops(0x100 + c, {u}, 0, cpl));
        ++c;
    };
    uop(UopKind::Load, kReplayL1LoadMiss, false, 3);                      // counts
    uop(UopKind::Load, kReplayL1LoadMiss | kReplayL2LoadMiss, false, 0);  // counts (kernel, T0_OS)
    uop(UopKind::Load, kReplayL1LoadMiss, true, 3);                       // bogus
    uop(UopKind::Load, kReplayL2LoadMiss, false, 3);                      // only an L2 cause: not selected
    uop(UopKind::Store, kReplayL1LoadMiss, false, 3);                     // stores not in MATRIX_VERT
    uop(UopKind::Load, 0, false, 3);
    EXPECT_EQ(counter(12, c), 2u);
}

TEST_F(PmuReplay, NothingIsTaggedWithoutUopTag) {
    const MetricDef& m = metric_def(MetricId::L1LoadMissRetired);
    program_metric(m);
    wrmsr(kMsrPebsEnable, m.pebs_enable & ~(1u << kPebsEnableUopTagBit));
    UopRecord u = make_uop(UopKind::Load, 1);
    u.replay_causes = kReplayL1LoadMiss;
    feed(with_uops(0x10, {u}));
    EXPECT_EQ(counter(12, 2), 0u);
}

TEST_F(PmuReplay, MobAndSplitNeedTheirExtraSelect) {
    // MOB_load_replay_retired without the MOB_load_replay ESCR counting: nothing.
    const MetricDef& mob = metric_def(MetricId::MobLoadReplayRetired);
    program_metric(mob);
    for (unsigned n = 0; n < 4; ++n) wrmsr(cccr_msr(n), 0);
    UopRecord u = make_uop(UopKind::Load, 1);
    u.replay_causes = kReplayMob;
    u.mob_mask = static_cast<std::uint16_t>(1u << mask_bit("MOB_load_replay", "PARTIAL_DATA"));
    feed(with_uops(0x10, {u}));
    EXPECT_EQ(counter(12, 2), 0u);

    // split_store_retired with store_port_replay on SAAT_ESCR0: the event note requires ESCR1.
    const MetricDef& st = metric_def(MetricId::SplitStoreRetired);
    program_metric(st);
    wrmsr(escr_msr("SAAT_ESCR1"), 0);
    wrmsr(escr_msr("SAAT_ESCR0"), escr_value("store_port_replay", {"SPLIT_ST"}, T0_ALL));
    wrmsr(cccr_msr(8), cccr_value("store_port_replay"));
    UopRecord s = make_uop(UopKind::Store, 3);
    s.replay_causes = kReplaySplit;
    s.mob_mask = static_cast<std::uint16_t>(1u << mask_bit("store_port_replay", "SPLIT_ST"));
    feed(with_uops(0x11, {s}));
    EXPECT_EQ(counter(12, 4), 0u);
}

// The three colours at once: one uop can carry all of them, and each counter counts only its own.
TEST_F(PmuTagging, MechanismsAreIndependentColours) {
    const unsigned all = mask_bit("x87_FP_uop", "ALL");
    program(12, "RAT_ESCR0", "uops_type", {"TAGLOADS"}, T0_USR);
    program(13, "CRU_ESCR2", "front_end_event", {"NBOGUS"}, T0_USR);
    wrmsr(escr_msr("FIRM_ESCR0"), escr_value("x87_FP_uop", {"ALL"}, T0_USR, 1));
    wrmsr(cccr_msr(8), cccr_value("x87_FP_uop"));
    program(14, "CRU_ESCR3", "execution_event", {"NBOGUS0"}, T0_USR);
    wrmsr(kMsrPebsEnable, metric_def(MetricId::L1LoadMissRetired).pebs_enable);
    wrmsr(kMsrPebsMatrixVert, metric_def(MetricId::L1LoadMissRetired).matrix_vert);
    // The three downstream events all live on CRU_ESCR2/3, so replay tags are counted in a second pass after
    // CRU_ESCR2 switches from front_end_event to replay_event.
    UopRecord fld = exec_uop(EventId::X87FpUop, all, 1);  // an x87 load that missed L1: all three colours
    fld.kind = UopKind::Load;
    fld.replay_causes = kReplayL1LoadMiss;
    UopRecord plain_load = make_uop(UopKind::Load, 2);
    UopRecord fadd = exec_uop(EventId::X87FpUop, all, 3);
    UopRecord missing = make_uop(UopKind::Store, 4);
    missing.replay_causes = kReplayL1LoadMiss;  // stores are not selected by MATRIX_VERT 0x1
    for (const UopRecord& u : {fld, plain_load, fadd, missing}) feed(with_uops(0x100 + u.retire, {u}));
    EXPECT_EQ(counter(13, 5), 2u);  // loads: fld, plain_load
    EXPECT_EQ(counter(14, 5), 2u);  // x87: fld, fadd
    wrmsr(escr_msr("CRU_ESCR2"), escr_value("replay_event", {"NBOGUS"}, T0_USR), 5);
    wrmsr(counter_msr(13), 0, 5);
    for (const UopRecord& u : {fld, plain_load, fadd, missing}) {
        UopRecord later = u;
        later.retire += 10;
        feed(with_uops(0x200 + later.retire, {later}));
    }
    EXPECT_EQ(counter(13, 20), 1u);  // L1-missing loads: fld
    EXPECT_EQ(counter(14, 20), 4u);
}

// Without front-end tagging the PMU takes retirement counts per cycle and the execution and replay tags in the
// same pass; with a PMI armed it takes everything uop by uop (pmu_feed.cpp, Pmu::consume). Both give the same
// counts: replay_event (the L1 load-miss recipe), execution_event, uops_retired and instr_retired together, on
// outcomes of several uops over two cycles, bogus ones and kernel ones.
TEST_F(PmuTagging, BatchedAndUopByUopRetirementAgree) {
    const unsigned all = mask_bit("x87_FP_uop", "ALL");
    struct Counts {
        std::uint64_t replay, exec, uops, instrs;
    };
    auto run = [&](bool arm_pmi) {
        reset(test_config());
        wrmsr(kMsrPebsEnable, metric_def(MetricId::L1LoadMissRetired).pebs_enable);
        wrmsr(kMsrPebsMatrixVert, metric_def(MetricId::L1LoadMissRetired).matrix_vert);
        program(12, "CRU_ESCR2", "replay_event", {"NBOGUS"}, T0_ALL);
        wrmsr(escr_msr("FIRM_ESCR0"), escr_value("x87_FP_uop", {"ALL"}, T0_ALL, 1));
        wrmsr(cccr_msr(8), cccr_value("x87_FP_uop"));
        program(15, "CRU_ESCR3", "execution_event", {"NBOGUS0"}, T0_ALL);
        program(13, "CRU_ESCR0", "uops_retired", {"NBOGUS", "BOGUS"}, T0_ALL);
        program(14, "CRU_ESCR1", "instr_retired", {"NBOGUSNTAG", "BOGUSNTAG"}, T0_USR);
        if (arm_pmi) {
            CccrFields f;
            f.ovf_pmi_t0 = true;
            program(0, "FSB_ESCR0", "global_power_events", {"RUNNING"}, T0_ALL, f);
        }
        Cycle c = 1;
        for (unsigned i = 0; i < 40; ++i, c += 2) {
            UopRecord load = make_uop(UopKind::Load, c, false, false);
            load.replay_causes = i % 3 == 0 ? kReplayL1LoadMiss : 0;
            UopRecord fadd = exec_uop(EventId::X87FpUop, all, c + (i % 2), i % 5 == 4);
            fadd.last_of_instruction = true;
            feed(with_uops(0x100 + i, {load, fadd}, 0, i % 4 == 0 ? 0 : 3));
        }
        return Counts{counter(12, c), counter(15, c), counter(13, c), counter(14, c)};
    };
    const Counts batched = run(false), by_uop = run(true);
    EXPECT_EQ(batched.replay, 14u);  // i = 0, 3, ..., 39
    EXPECT_EQ(batched.exec, 32u);    // every fadd but the bogus ones (i = 4, 9, ..., 39)
    EXPECT_EQ(batched.uops, 80u);
    EXPECT_EQ(batched.instrs, 30u);  // user mode only: i not a multiple of 4
    EXPECT_EQ(by_uop.replay, batched.replay);
    EXPECT_EQ(by_uop.exec, batched.exec);
    EXPECT_EQ(by_uop.uops, batched.uops);
    EXPECT_EQ(by_uop.instrs, batched.instrs);
}

}  // namespace
}  // namespace netburst::emu::test
