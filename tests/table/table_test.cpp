// Consistency of the hardware table with itself and with SDM Table 18-63.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "table/events.h"
#include "table/metrics.h"
#include "table/msr_map.h"

using namespace netburst;

TEST(MsrMap, EighteenCountersWithCccrsAt0x360) {
    for (unsigned i = 0; i < kNumCounters; ++i) {
        EXPECT_EQ(kCounters[i].counter_msr, 0x300u + i);
        EXPECT_EQ(kCounters[i].cccr_msr, 0x360u + i);
    }
    EXPECT_STREQ(kCounters[16].counter_name, "MSR_IQ_COUNTER4");
    EXPECT_EQ(kCounters[16].side, 0);
    EXPECT_EQ(kCounters[17].side, 1);
}

TEST(MsrMap, FortyFiveEscrsWithDistinctAddressesInAddressOrder) {
    std::set<std::uint32_t> addresses;
    std::set<std::string> names;
    for (unsigned i = 0; i < kNumEscrs; ++i) {
        addresses.insert(kEscrs[i].msr);
        names.insert(kEscrs[i].name);
        if (i > 0) {
            EXPECT_LT(kEscrs[i - 1].msr, kEscrs[i].msr) << kEscrs[i].name;
        }
        EXPECT_GE(kEscrs[i].msr, 0x3A0u);
        EXPECT_LE(kEscrs[i].msr, 0x3E1u);
    }
    EXPECT_EQ(addresses.size(), 45u);
    EXPECT_EQ(names.size(), 45u);
}

TEST(MsrMap, EscrSidesFeedTheDocumentedCounters) {
    auto escr = [](EscrId id) { return kEscrs[escr_index(id)]; };
    EXPECT_EQ(escr(EscrId::CRU_ESCR2).counters, counter_bit(12) | counter_bit(13) | counter_bit(16));
    EXPECT_EQ(escr(EscrId::CRU_ESCR3).counters, counter_bit(14) | counter_bit(15) | counter_bit(17));
    EXPECT_EQ(escr(EscrId::CRU_ESCR2).select, 5);
    EXPECT_EQ(escr(EscrId::BSU_ESCR0).counters, counter_bit(0) | counter_bit(1));
    EXPECT_EQ(escr(EscrId::BSU_ESCR1).counters, counter_bit(2) | counter_bit(3));
    EXPECT_EQ(escr(EscrId::TC_ESCR1).counters, counter_bit(6) | counter_bit(7));
    EXPECT_EQ(escr(EscrId::FIRM_ESCR0).counters, counter_bit(8) | counter_bit(9));
    EXPECT_EQ(escr(EscrId::SSU_ESCR0).select, 3);
    EXPECT_EQ(escr(EscrId::DAC_ESCR1).select, 5);
    // Every ESCR's counters are in its block and on its side.
    for (const EscrDef& e : kEscrs)
        for (unsigned c = 0; c < kNumCounters; ++c)
            if (e.counters & counter_bit(c)) {
                EXPECT_EQ(kCounters[c].block, e.block) << e.name;
                EXPECT_EQ(kCounters[c].side, e.side) << e.name;
            }
}

TEST(MsrMap, EscrSelectNumbersAreUniquePerBlockSide) {
    for (unsigned model : {0u, 2u, 3u}) {
        for (unsigned c = 0; c < kNumCounters; ++c) {
            std::set<EscrId> seen;
            for (unsigned sel = 0; sel < 8; ++sel) {
                const EscrId id = escr_for_cccr_select(c, sel, model);
                if (id == EscrId::None) continue;
                EXPECT_TRUE(seen.insert(id).second);
                EXPECT_EQ(kEscrs[escr_index(id)].select, sel);
                EXPECT_TRUE(kEscrs[escr_index(id)].counters & counter_bit(c));
            }
        }
    }
}

TEST(MsrMap, IqEscrsOnlyOnEarlyModels) {
    EXPECT_EQ(escr_for_cccr_select(12, 0, 2), EscrId::IQ_ESCR0);
    EXPECT_EQ(escr_for_cccr_select(12, 0, 3), EscrId::None);
    MsrRef ref{};
    EXPECT_TRUE(lookup_msr(0x3BA, 1, &ref));
    EXPECT_FALSE(lookup_msr(0x3BA, 4, &ref));
    EXPECT_FALSE(lookup_msr(0x3BF, 2, &ref)) << "SSU_ESCR1 is not in the SDM";
}

TEST(MsrMap, LookupAndNames) {
    MsrRef ref{};
    ASSERT_TRUE(lookup_msr(0x3CC, 2, &ref));
    EXPECT_EQ(ref.kind, MsrKind::Escr);
    EXPECT_EQ(ref.index, escr_index(EscrId::CRU_ESCR2));
    ASSERT_TRUE(lookup_msr(0x371, 2, &ref));
    EXPECT_EQ(ref.kind, MsrKind::Cccr);
    EXPECT_EQ(ref.index, 17);
    ASSERT_TRUE(lookup_msr(0x3F1, 2, &ref));
    EXPECT_EQ(ref.kind, MsrKind::PebsEnable);
    EXPECT_STREQ(msr_name(0x3F2), "MSR_PEBS_MATRIX_VERT");
    EXPECT_STREQ(msr_name(0x600), "IA32_DS_AREA");
    EXPECT_EQ(msr_name(0x10), nullptr);
    EXPECT_EQ(find_escr("cru_escr3"), EscrId::CRU_ESCR3);
    EXPECT_EQ(find_escr("MSR_CRU_ESCR3"), EscrId::CRU_ESCR3);
    EXPECT_EQ(find_escr("CRU_ESCR9"), EscrId::None);
}

TEST(Events, EveryEventIsConsistentWithTheRegisterMap) {
    for (unsigned i = 0; i < kNumEvents; ++i) {
        const EventDef& e = kEvents[i];
        SCOPED_TRACE(e.name);
        EXPECT_EQ(static_cast<unsigned>(e.id), i);
        EXPECT_LT(e.event_select, 64);
        ASSERT_NE(e.escrs[0], EscrId::None);
        for (EscrId id : e.escrs) {
            if (id == EscrId::None) continue;
            EXPECT_EQ(kEscrs[escr_index(id)].select, e.cccr_select);
        }
        if (e.escrs[1] != EscrId::None) {
            EXPECT_EQ(kEscrs[escr_index(e.escrs[0])].block, kEscrs[escr_index(e.escrs[1])].block);
            EXPECT_NE(kEscrs[escr_index(e.escrs[0])].side, kEscrs[escr_index(e.escrs[1])].side);
        }
        std::set<std::string> names;
        std::set<unsigned> bits;
        EXPECT_GT(e.num_masks, 0);
        for (unsigned k = 0; k < e.num_masks; ++k) {
            EXPECT_TRUE(names.insert(e.masks[k].name).second) << e.masks[k].name;
            EXPECT_TRUE(bits.insert(e.masks[k].bit).second) << e.masks[k].name;
            EXPECT_LT(e.masks[k].bit, 16);
            EXPECT_NE(e.masks[k].description, nullptr);
        }
        EXPECT_NE(e.description, nullptr);
        EXPECT_EQ(event_for_escr(e.escrs[0], e.event_select), &e) << "event select must be unique per ESCR";
        if (e.pebs) {
            EXPECT_TRUE(e.at_retirement);
        }
    }
}

TEST(Events, LookupIsCaseInsensitiveAndKnowsSdmAliases) {
    EXPECT_EQ(find_event("UOP_TYPE", 8), &event_def(EventId::UopType));
    EXPECT_EQ(find_event("uops_type", 9), &event_def(EventId::UopType));
    EXPECT_EQ(find_event("INSTR_RETIRED", 13), &event_def(EventId::InstrRetired));
    const EventDef& mispred = event_def(EventId::MispredBranchRetired);
    EXPECT_EQ(find_mask(mispred, "NBOGUS", 6), find_mask(mispred, "BOGUS", 5));
}

TEST(Events, ModelRestrictions) {
    const EventDef& completed = event_def(EventId::InstrCompleted);
    EXPECT_FALSE(event_on_model(completed, 2));
    for (unsigned m : {3u, 4u, 6u}) EXPECT_TRUE(event_on_model(completed, m));
    EXPECT_TRUE(event_on_model(event_def(EventId::BranchRetired), 0));
}

TEST(Events, SdmFactsWhereSourcesDisagree) {
    const EventDef& clear = event_def(EventId::MachineClear);
    EXPECT_EQ(find_mask(clear, "MOCLEAR", 7)->bit, 2);
    EXPECT_EQ(find_mask(clear, "SMCLEAR", 7)->bit, 6);
    const EventDef& completed = event_def(EventId::InstrCompleted);
    EXPECT_EQ(completed.escrs[0], EscrId::CRU_ESCR0);
    EXPECT_EQ(completed.escrs[1], EscrId::CRU_ESCR1);
    EXPECT_EQ(completed.cccr_select, 4);
    EXPECT_EQ(event_def(EventId::RetiredMispredBranchType).escrs[0], EscrId::TBPU_ESCR0);
    EXPECT_EQ(event_def(EventId::RetiredMispredBranchType).escrs[1], EscrId::TBPU_ESCR1);
    EXPECT_EQ(event_def(EventId::B2bCycles).cccr_select, 6);
    EXPECT_NE(find_mask(event_def(EventId::TcDeliverMode), "IB", 2), nullptr);
}

TEST(Events, ThreadIndependentEventsOfTable19_34) {
    for (EventId id : {EventId::TcDeliverMode, EventId::PageWalkType, EventId::FsbDataActivity, EventId::WcBuffer,
                       EventId::SseInputAssist, EventId::X87FpUop, EventId::X87SimdMovesUop})
        EXPECT_EQ(event_def(id).scope, Scope::ThreadIndependent) << event_def(id).name;
    EXPECT_EQ(event_def(EventId::BranchRetired).scope, Scope::ThreadSpecific);
}

TEST(Metrics, NineteenRecipesCoverTheThreeMechanisms) {
    unsigned fe = 0, ex = 0, rp = 0;
    for (unsigned i = 0; i < kNumMetrics; ++i) {
        const MetricDef& metric = kMetrics[i];
        SCOPED_TRACE(metric.name);
        EXPECT_EQ(static_cast<unsigned>(metric.id), i);
        switch (metric.mechanism) {
        case TagMechanism::FrontEnd:
            ++fe;
            EXPECT_EQ(metric.counting_event, EventId::FrontEndEvent);
            EXPECT_EQ(metric.upstream_event, EventId::UopType);
            break;
        case TagMechanism::Execution:
            ++ex;
            EXPECT_EQ(metric.counting_event, EventId::ExecutionEvent);
            EXPECT_EQ(event_def(metric.upstream_event).tag_role, TagRole::ExecutionUpstream);
            break;
        case TagMechanism::Replay:
            ++rp;
            EXPECT_EQ(metric.counting_event, EventId::ReplayEvent);
            EXPECT_TRUE(metric.pebs_enable & (1u << kPebsEnableUopTagBit));
            EXPECT_EQ(metric.pebs_enable & ~kPebsEnableWritableMask, 0u);
            EXPECT_EQ(metric.matrix_vert & ~kMatrixVertWritableMask, 0u);
            EXPECT_NE(metric.replay_mask, nullptr);
            break;
        }
        if (metric.has_upstream) {
            const EventDef& up = event_def(metric.upstream_event);
            EXPECT_EQ(metric.upstream_mask & ~valid_mask_bits(up), 0) << "upstream mask bits must be documented";
            if (metric.upstream_escr != EscrId::None) {
                EXPECT_TRUE(up.escrs[0] == metric.upstream_escr || up.escrs[1] == metric.upstream_escr);
            }
        }
    }
    EXPECT_EQ(fe, 2u);
    EXPECT_EQ(ex, 8u);
    EXPECT_EQ(rp, 9u);
}

TEST(Metrics, ReplayRegisterValuesOfTable19_33) {
    const MetricDef& l1 = metric_def(MetricId::L1LoadMissRetired);
    EXPECT_EQ(l1.pebs_enable, 0x01000001u);
    EXPECT_EQ(l1.matrix_vert, 0x1u);
    EXPECT_EQ(metric_def(MetricId::L2LoadMissRetired).pebs_enable, 0x01000002u);
    EXPECT_EQ(metric_def(MetricId::DtlbAllMissRetired).matrix_vert, 0x3u);
    EXPECT_EQ(metric_def(MetricId::TaggedMispredBranch).pebs_enable, 0x01018000u);
    EXPECT_EQ(metric_def(MetricId::TaggedMispredBranch).matrix_vert, 0x10u);
    EXPECT_EQ(metric_def(MetricId::MobLoadReplayRetired).pebs_enable, 0x01000200u);
    EXPECT_EQ(metric_def(MetricId::SplitStoreRetired).pebs_enable, 0x01000400u);
    EXPECT_EQ(metric_def(MetricId::SplitStoreRetired).matrix_vert, 0x2u);
    EXPECT_EQ(find_metric_by_replay_mask("l2_ld_miss", 10), &metric_def(MetricId::L2LoadMissRetired));
}
