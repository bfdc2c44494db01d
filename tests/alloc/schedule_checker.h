// An independent check that a schedule obeys the hardware rules, written without the allocator's code so that
// the two can catch each other's mistakes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "alloc/context.h"
#include "alloc/schedule.h"
#include "events/request.h"
#include "table/metrics.h"
#include "table/registers.h"

namespace netburst::checks {

// Returns "" when legal, else the first rule broken.
inline std::string check_schedule(const std::vector<EventRequest>& requests, const AllocContext& ctx,
                                  const Schedule& s) {
    if (s.requests.size() != requests.size()) return "one scheduled entry per request";
    std::set<int> counters;
    std::map<EscrId, std::uint64_t> escr_values;
    std::map<int, std::set<std::pair<int, std::uint64_t>>> tag_owner;  // bit -> {(event, ESCR mask and T bits)}
    std::set<int> metric_bits;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const ScheduledRequest& r = s.requests[i];
        const EventRequest& req = requests[i];
        const std::size_t expected_units = req.is_metric() && req.metric->has_upstream ? 2 : 1;
        if (r.units.size() != expected_units) return "wrong number of units for " + canonical_name(req);
        bool has_result = false;
        for (const PlacedUnit& u : r.units) {
            const EventDef& ev = event_def(u.event);
            if (u.escr != ev.escrs[0] && u.escr != ev.escrs[1]) return std::string("ESCR not allowed for ") + ev.name;
            const EscrDef& escr = kEscrs[escr_index(u.escr)];
            if (!model_in(escr.models, ctx.model)) return "ESCR absent on this model";
            if (ctx.sibling.escrs & escr_bit(u.escr)) return "ESCR held by the other logical processor";
            if (u.counter < 0) return "every unit needs a counter";
            if (!(escr.counters & counter_bit(static_cast<unsigned>(u.counter)))) return "ESCR does not feed counter";
            if ((ctx.unavailable_counters | ctx.sibling.counters) & counter_bit(static_cast<unsigned>(u.counter)))
                return "counter not available";
            if (!counters.insert(u.counter).second) return "counter used twice: " + std::to_string(u.counter);
            auto [it, fresh] = escr_values.emplace(u.escr, u.escr_value);
            if (!fresh && it->second != u.escr_value) return std::string("ESCR shared with different values: ") + escr.name;
            const EscrFields f = decode_escr(u.escr_value);
            if (f.event_select != ev.event_select) return "ESCR event select wrong";
            const bool t0 = f.t0_os || f.t0_usr, t1 = f.t1_os || f.t1_usr;
            if (ctx.both_threads ? !(t0 && t1) : (ctx.thread == 0 ? (t1 || !t0) : (t0 || !t1)))
                return "T0/T1 bits do not match the logical processor";
            const CccrFields c = decode_cccr(u.cccr_value);
            if (!c.enable || c.escr_select != escr.select) return "CCCR does not select the ESCR";
            if (f.tag_enable)
                for (int b = 0; b < 4; ++b)
                    if (f.tag_value & (1 << b))
                        tag_owner[b].insert({static_cast<int>(u.event), (std::uint64_t{f.event_mask} << 4) |
                                                                            (u.escr_value & 0xF)});
            if (u.role == UnitRole::Count) {
                has_result = true;
                if (r.result_counter != u.counter) return "result counter is not the counting unit's";
                if (req.precise && u.counter != static_cast<int>(pebs_counter(ctx.thread)))
                    return ":precise event not on the PEBS counter";
            }
        }
        if (!has_result) return "no counting unit";
        if (req.is_metric() && req.metric->mechanism == TagMechanism::Execution) {
            if (r.tag_bit < 0) return "execution metric without a tag bit";
            metric_bits.insert(r.tag_bit);
            for (const PlacedUnit& u : r.units) {
                const EscrFields f = decode_escr(u.escr_value);
                if (u.role == UnitRole::Upstream && f.tag_value != (1 << r.tag_bit)) return "upstream tag value wrong";
                if (u.role == UnitRole::Count && !(f.event_mask & ((1 << r.tag_bit) | (1 << (r.tag_bit + 4)))))
                    return "execution_event mask does not follow the tag bit";
            }
            if (req.pinned_tag_bit >= 0 && req.pinned_tag_bit != r.tag_bit) return "pinned tag bit not honoured";
        }
        if (req.is_metric() && req.metric->mechanism == TagMechanism::Replay) {
            if (!s.replay_active || s.pebs_enable != req.metric->pebs_enable || s.matrix_vert != req.metric->matrix_vert)
                return "replay registers do not match " + canonical_name(req);
        }
    }
    for (const auto& [bit, owners] : tag_owner)
        if (owners.size() > 1 && metric_bits.count(bit))
            return "metric tag bit " + std::to_string(bit) + " also set by another upstream event";
    if (ctx.sibling.replay_in_use && s.replay_active &&
        (s.pebs_enable != ctx.sibling.pebs_enable || s.matrix_vert != ctx.sibling.matrix_vert))
        return "replay registers differ from the other logical processor's";
    return "";
}

}  // namespace netburst::checks
