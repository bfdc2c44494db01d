#include "emulator/pmu/tagging.h"

namespace netburst::emu {

namespace {

constexpr std::uint8_t kind_bit(UopKind kind) { return static_cast<std::uint8_t>(1u << static_cast<unsigned>(kind)); }

// Adds, for every qualifier index the ESCR accepts for that bit, the ESCR's mask bits to `per_index`.
void add_by_index(std::uint16_t mask, const Qualifier& q, std::uint16_t per_index[4]) {
    for (unsigned bit = 0; bit < 16; ++bit) {
        if (!((mask >> bit) & 1u)) continue;
        for (unsigned index = 0; index < 4; ++index)
            if (q.accepts(bit, index)) per_index[index] = static_cast<std::uint16_t>(per_index[index] | (1u << bit));
    }
}

std::uint8_t accept_bits(const Qualifier& q, unsigned bit) {
    std::uint8_t accept = 0;
    for (unsigned index = 0; index < 4; ++index)
        if (q.accepts(bit, index)) accept = static_cast<std::uint8_t>(accept | (1u << index));
    return accept;
}

}  // namespace

std::uint8_t TagConfig::execution_tags(const UopRecord& uop, unsigned q) const {
    if (!uop.has_exec_event) return 0;
    std::uint8_t tags = 0;
    for (unsigned i = 0; i < num_exec; ++i) {
        const ExecTagger& t = exec[i];
        if (t.event == uop.exec_event && ((t.mask >> uop.exec_mask_bit) & 1u) && t.qualifier.accepts(uop.exec_mask_bit, q))
            tags = static_cast<std::uint8_t>(tags | t.tag_value);
    }
    return tags;
}

bool TagConfig::replay_tag(const UopRecord& uop, unsigned q) const {
    if (!replay || !(replay_kinds & kind_bit(uop.kind))) return false;
    std::uint16_t causes = static_cast<std::uint16_t>(uop.replay_causes & replay_causes);
    if ((causes & kReplayMob) && !(uop.mob_mask & mob_mask[q])) causes = static_cast<std::uint16_t>(causes & ~kReplayMob);
    if (causes & kReplaySplit) {
        const std::uint16_t qualifying = uop.kind == UopKind::Load    ? split_load_mask[q]
                                         : uop.kind == UopKind::Store ? split_store_mask[q]
                                                                      : 0;
        if (!(uop.mob_mask & qualifying)) causes = static_cast<std::uint16_t>(causes & ~kReplaySplit);
    }
    return causes != 0;
}

void build_tag_config(const RegisterFile& regs, const bool in_use[kNumEscrs], unsigned model, const TableFacts& facts,
                      TagConfig* out) {
    TagConfig& c = *out;
    c.fe_loads = c.fe_stores = 0;
    c.num_exec = 0;
    for (unsigned i = 0; i < 4; ++i) c.mob_mask[i] = c.split_load_mask[i] = c.split_store_mask[i] = 0;

    for (unsigned i = 0; i < kNumEscrs; ++i) {
        if (!in_use[i]) continue;
        const EscrId id = static_cast<EscrId>(i);
        const EscrFields f = decode_escr(regs.escr(i));
        const EventDef* ev = event_for_escr(id, f.event_select);
        if (!ev || !event_on_model(*ev, model)) continue;
        const std::uint16_t mask = effective_mask(*ev, f.event_mask, model);
        if (mask == 0) continue;
        const Qualifier q = make_qualifier(*ev, f);
        switch (ev->tag_role) {
        case TagRole::FrontEndUpstream:
            if ((mask >> facts.tag_loads_bit) & 1u) c.fe_loads |= accept_bits(q, facts.tag_loads_bit);
            if ((mask >> facts.tag_stores_bit) & 1u) c.fe_stores |= accept_bits(q, facts.tag_stores_bit);
            break;
        case TagRole::ExecutionUpstream:
            // SDM 18.15.6.3: the upstream ESCR needs Tag Enable and a tag value; the value's bits are the tags.
            if (f.tag_enable && f.tag_value != 0) c.exec[c.num_exec++] = TagConfig::ExecTagger{ev->id, mask, f.tag_value, q};
            break;
        case TagRole::ReplayUpstream:
            if (ev->id == facts.mob_event && (facts.mob_escr == EscrId::None || facts.mob_escr == id))
                add_by_index(mask, q, c.mob_mask);
            if (ev->id == facts.split_load_event && (facts.split_load_escr == EscrId::None || facts.split_load_escr == id))
                add_by_index(mask, q, c.split_load_mask);
            if (ev->id == facts.split_store_event &&
                (facts.split_store_escr == EscrId::None || facts.split_store_escr == id))
                add_by_index(mask, q, c.split_store_mask);
            break;
        default: break;
        }
    }

    const std::uint64_t pebs = regs.pebs_enable_shared();
    const std::uint64_t mv = regs.matrix_vert();
    c.replay = (pebs >> kPebsEnableUopTagBit) & 1u;
    c.replay_kinds = 0;
    if (facts.mv_loads && (mv & facts.mv_loads) == facts.mv_loads) c.replay_kinds |= kind_bit(UopKind::Load);
    if (facts.mv_stores && (mv & facts.mv_stores) == facts.mv_stores) c.replay_kinds |= kind_bit(UopKind::Store);
    if (facts.mv_branches && (mv & facts.mv_branches) == facts.mv_branches) c.replay_kinds |= kind_bit(UopKind::Branch);
    c.replay_causes = 0;
    for (unsigned i = 0; i < kNumReplayCauses; ++i)
        if (facts.cause_select[i] && (pebs & facts.cause_select[i]) == facts.cause_select[i])
            c.replay_causes = static_cast<std::uint16_t>(c.replay_causes | kReplayCauseBits[i]);
}

}  // namespace netburst::emu
