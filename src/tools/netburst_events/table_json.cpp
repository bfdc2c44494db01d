#include "table_json.h"

#include <cstdio>

namespace netburst::tools {

using json = nlohmann::ordered_json;

namespace {

json model_list(ModelSet set) {
    json out = json::array();
    for (unsigned m = 0; m < 8; ++m)
        if (model_in(set, m)) out.push_back(m);
    return out;
}

json counter_list(CounterMask mask) {
    json out = json::array();
    for (unsigned c = 0; c < kNumCounters; ++c)
        if (mask & counter_bit(c)) out.push_back(c);
    return out;
}

const char* scope_name(Scope s) { return s == Scope::ThreadIndependent ? "TI" : "TS"; }

const char* role_name(TagRole role) {
    switch (role) {
    case TagRole::None: return "none";
    case TagRole::FrontEndUpstream: return "front-end upstream";
    case TagRole::ExecutionUpstream: return "execution upstream";
    case TagRole::ReplayUpstream: return "replay upstream";
    case TagRole::FrontEndCounter: return "front-end counter";
    case TagRole::ExecutionCounter: return "execution counter";
    case TagRole::ReplayCounter: return "replay counter";
    }
    return "?";
}

json nullable(const char* s) { return s ? json(s) : json(nullptr); }

}  // namespace

json msrs_json() {
    json counters = json::array();
    for (unsigned i = 0; i < kNumCounters; ++i) {
        const CounterDef& c = kCounters[i];
        counters.push_back({{"index", i},
                            {"name", c.counter_name},
                            {"msr", hex(c.counter_msr)},
                            {"cccr", c.cccr_name},
                            {"cccr_msr", hex(c.cccr_msr)},
                            {"block", block_name(c.block)},
                            {"width_bits", kCounterWidthBits}});
    }
    json escrs = json::array();
    for (const EscrDef& e : kEscrs)
        escrs.push_back({{"name", e.name},
                         {"msr", hex(e.msr)},
                         {"block", block_name(e.block)},
                         {"escr_select", e.select},
                         {"counters", counter_list(e.counters)},
                         {"models", model_list(e.models)}});
    json other = json::array({
        {{"name", "IA32_MISC_ENABLE"}, {"msr", hex(kMsrMiscEnable)}, {"use", "bit 7 PMU available, bit 12 PEBS unavailable"}},
        {{"name", "MSR_TC_PRECISE_EVENT"}, {"msr", hex(kMsrTcPreciseEvent)}, {"use", "front-end tagging of trace-cache events"}},
        {{"name", "IA32_PEBS_ENABLE"}, {"msr", hex(kMsrPebsEnable)}, {"use", "replay-tag selects, UOP_TAG (24), PEBS enables (25, 26)"}, {"writable_mask", hex(kPebsEnableWritableMask)}},
        {{"name", "MSR_PEBS_MATRIX_VERT"}, {"msr", hex(kMsrPebsMatrixVert)}, {"use", "replay tagging of loads (0), stores (1), branches (4)"}, {"writable_mask", hex(kMatrixVertWritableMask)}},
        {{"name", "IA32_DS_AREA"}, {"msr", hex(kMsrDsArea)}, {"use", "linear address of the DS save area (PEBS buffer)"}},
    });
    return {{"counters", counters}, {"escrs", escrs}, {"other", other}};
}

json event_json(const EventDef& e) {
    json masks = json::array();
    for (unsigned i = 0; i < e.num_masks; ++i) {
        const MaskDef& m = e.masks[i];
        masks.push_back({{"name", m.name},
                         {"alias", nullable(m.alias)},
                         {"bit", m.bit},
                         {"escr_bit", 9 + m.bit},
                         {"default", (m.flags & kMaskDefault) != 0},
                         {"scope", (m.flags & kMaskThreadIndependent) ? "TI" : scope_name(e.scope)},
                         {"table_19_34_only", (m.flags & kMaskTsTiTableOnly) != 0},
                         {"needs_l3", (m.flags & kMaskNeedsL3) != 0},
                         {"models", model_list(m.models)},
                         {"description", m.description}});
    }
    json escrs = json::array();
    for (EscrId id : e.escrs)
        if (id != EscrId::None) escrs.push_back(kEscrs[escr_index(id)].name);
    return {{"name", e.name},
            {"alias", nullable(e.alias)},
            {"sdm_table", e.sdm_table},
            {"at_retirement", e.at_retirement},
            {"event_select", hex(e.event_select)},
            {"cccr_select", e.cccr_select},
            {"escrs", escrs},
            {"scope", scope_name(e.scope)},
            {"scope_verified", !scope_unverified(e.id)},
            {"models", model_list(e.models)},
            {"pebs", e.pebs},
            {"tagging_role", role_name(e.tag_role)},
            {"execution_tags", e.tag_role == TagRole::ExecutionUpstream},
            {"masks", masks},
            {"description", e.description},
            {"note", nullable(e.note)}};
}

json metric_json(const MetricDef& m) {
    json upstream = nullptr;
    if (m.has_upstream) {
        const EventDef& up = event_def(m.upstream_event);
        json masks = json::array();
        for (unsigned bit = 0; bit < 16; ++bit)
            if (m.upstream_mask & (1u << bit)) masks.push_back(mask_by_bit(up, bit)->name);
        upstream = {{"event", up.name},
                    {"masks", masks},
                    {"escr", m.upstream_escr == EscrId::None ? json(nullptr) : json(kEscrs[escr_index(m.upstream_escr)].name)},
                    {"tag", m.mechanism == TagMechanism::Execution ? "tag enable, tag value 1<<n for the chosen bit n"
                                                                  : m.mechanism == TagMechanism::FrontEnd ? "front-end tag" : "none"}};
    }
    const char* counting_mask = m.mechanism == TagMechanism::Execution ? "NBOGUSn (BOGUSn with :BOGUS) for tag bit n"
                                                                       : "NBOGUS (BOGUS with :BOGUS)";
    return {{"name", m.name},
            {"mechanism", tag_mechanism_name(m.mechanism)},
            {"sdm_table", m.sdm_table},
            {"upstream", upstream},
            {"counting_event", event_def(m.counting_event).name},
            {"counting_mask", counting_mask},
            {"pebs_enable", hex(m.pebs_enable)},
            {"pebs_matrix_vert", hex(m.matrix_vert)},
            {"tc_precise_event", hex(m.tc_precise_event)},
            {"replay_event_mask_alias", nullable(m.replay_mask)},
            {"description", m.description},
            {"note", nullable(m.note)}};
}

json table_json() {
    json events = json::array();
    for (const EventDef& e : kEvents) events.push_back(event_json(e));
    json metrics = json::array();
    for (const MetricDef& m : kMetrics) metrics.push_back(metric_json(m));
    return {{"format", "netburst-events/1"}, {"msrs", msrs_json()}, {"events", events}, {"metrics", metrics}};
}

json writes_json(const std::vector<MsrWrite>& writes) {
    json out = json::array();
    for (const MsrWrite& w : writes) {
        const char* name = msr_name(w.msr);
        out.push_back({{"msr", hex(w.msr)}, {"name", name ? name : "?"}, {"value", hex(w.value)}});
    }
    return out;
}

json schedule_json(const std::vector<EventRequest>& requests, const Schedule& s) {
    json events = json::array();
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const ScheduledRequest& r = s.requests[i];
        json units = json::array();
        for (const PlacedUnit& u : r.units) {
            json unit = {{"role", u.role == UnitRole::Count ? "count" : "upstream"},
                         {"event", event_def(u.event).name},
                         {"escr", kEscrs[escr_index(u.escr)].name},
                         {"escr_msr", hex(kEscrs[escr_index(u.escr)].msr)},
                         {"escr_value", hex(u.escr_value)}};
            if (u.counter >= 0) {
                unit["counter"] = u.counter;
                unit["counter_msr"] = hex(kCounters[u.counter].counter_msr);
                unit["cccr_msr"] = hex(kCounters[u.counter].cccr_msr);
                unit["cccr_value"] = hex(u.cccr_value);
            }
            units.push_back(unit);
        }
        json e = {{"event", canonical_name(requests[i])}, {"counter", r.result_counter}, {"units", units}};
        if (r.tag_bit >= 0) e["execution_tag_bit"] = r.tag_bit;
        events.push_back(e);
    }
    json out = {{"scheduled", true}, {"events", events}};
    out["replay"] = s.replay_active ? json{{"pebs_enable", hex(s.pebs_enable)}, {"pebs_matrix_vert", hex(s.matrix_vert)}}
                                    : json(nullptr);
    out["front_end_uop_type_mask"] = s.front_end_uop_mask ? json(hex(s.front_end_uop_mask)) : json(nullptr);
    out["execution_tag_bits"] = hex(s.execution_tag_bits);
    json counters = json::array();
    for (unsigned c = 0; c < kNumCounters; ++c)
        if (s.counters & counter_bit(c)) counters.push_back(c);
    out["counters_used"] = counters;
    out["start"] = writes_json(start_writes(s));
    out["stop"] = writes_json(stop_writes(s));
    return out;
}

}  // namespace netburst::tools
