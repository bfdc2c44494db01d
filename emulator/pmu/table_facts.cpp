#include "emulator/pmu/table_facts.h"

#include "table/metrics.h"

namespace netburst::emu {

namespace {

std::uint8_t mask_bit(EventId event, const char* name) {
    std::size_t len = 0;
    while (name[len]) ++len;
    const MaskDef* m = find_mask(event_def(event), name, len);
    return m ? m->bit : 0;
}

// The PEBS_ENABLE bits of a replay metric that select its cause (UOP_TAG enables tagging as a whole).
std::uint64_t cause_bits(MetricId id) {
    return metric_def(id).pebs_enable & ~(std::uint64_t{1} << kPebsEnableUopTagBit);
}

}  // namespace

void TableFacts::load() {
    tag_loads_bit = mask_bit(EventId::UopType, "TAGLOADS");
    tag_stores_bit = mask_bit(EventId::UopType, "TAGSTORES");
    fe_nbogus = mask_bit(EventId::FrontEndEvent, "NBOGUS");
    fe_bogus = mask_bit(EventId::FrontEndEvent, "BOGUS");
    replay_nbogus = mask_bit(EventId::ReplayEvent, "NBOGUS");
    replay_bogus = mask_bit(EventId::ReplayEvent, "BOGUS");
    uops_nbogus = mask_bit(EventId::UopsRetired, "NBOGUS");
    uops_bogus = mask_bit(EventId::UopsRetired, "BOGUS");
    completed_nbogus = mask_bit(EventId::InstrCompleted, "NBOGUS");
    completed_bogus = mask_bit(EventId::InstrCompleted, "BOGUS");
    instr_retired_bit[0] = mask_bit(EventId::InstrRetired, "NBOGUSNTAG");
    instr_retired_bit[1] = mask_bit(EventId::InstrRetired, "NBOGUSTAG");
    instr_retired_bit[2] = mask_bit(EventId::InstrRetired, "BOGUSNTAG");
    instr_retired_bit[3] = mask_bit(EventId::InstrRetired, "BOGUSTAG");
    for (unsigned tags = 0; tags < 16; ++tags) {
        std::uint16_t nbogus = 0, bogus = 0;
        for (unsigned t = 0; t < kNumExecutionTagBits; ++t) {
            if (!((tags >> t) & 1u)) continue;
            nbogus = static_cast<std::uint16_t>(nbogus | execution_counting_mask(true, false, t));
            bogus = static_cast<std::uint16_t>(bogus | execution_counting_mask(false, true, t));
        }
        exec_nbogus_bits[tags] = nbogus;
        exec_bogus_bits[tags] = bogus;
    }

    mv_loads = metric_def(MetricId::L1LoadMissRetired).matrix_vert;
    mv_stores = metric_def(MetricId::DtlbStoreMissRetired).matrix_vert;
    mv_branches = metric_def(MetricId::TaggedMispredBranch).matrix_vert;
    const MetricId by_cause[kNumReplayCauses] = {MetricId::L1LoadMissRetired,   MetricId::L2LoadMissRetired,
                                                 MetricId::DtlbLoadMissRetired, MetricId::TaggedMispredBranch,
                                                 MetricId::MobLoadReplayRetired, MetricId::SplitLoadRetired};
    for (unsigned i = 0; i < kNumReplayCauses; ++i) cause_select[i] = cause_bits(by_cause[i]);

    const MetricDef& mob = metric_def(MetricId::MobLoadReplayRetired);
    mob_event = mob.upstream_event;
    mob_escr = mob.upstream_escr;
    const MetricDef& split_load = metric_def(MetricId::SplitLoadRetired);
    split_load_event = split_load.upstream_event;
    split_load_escr = split_load.upstream_escr;
    const MetricDef& split_store = metric_def(MetricId::SplitStoreRetired);
    split_store_event = split_store.upstream_event;
    split_store_escr = split_store.upstream_escr;
}

}  // namespace netburst::emu
