#include "emulator/run/event_plan.h"

#include <cstdlib>

#include "alloc/allocator.h"
#include "emulator/run/all_events.h"
#include "encode/program.h"
#include "events/parser.h"
#include "events/suggest.h"
#include "table/msr_map.h"

namespace netburst::emu::run {

namespace {

Error bad(std::string message) { return make_error(ErrorCode::BadInput, std::move(message)); }

// A PAPI_ name that is no preset here: say whether another configuration has it, else suggest the nearest names.
Error unknown_preset(const std::string& name, const std::vector<PresetDef>& presets, const PlanOptions& o) {
    for (const auto& [p, fp] : all_preset_variants()) {
        if (name != p.name) continue;
        if (p.needs_l3 && !o.machine.has_l3) return bad(name + " needs a processor with an L3 cache (--l3)");
        return bad(name + " is not available with PAPI_NETBURST_FP=" + fp_variant_name(o.fp) + " (try " +
                   fp_variant_name(fp) + ")");
    }
    std::vector<std::string> names;
    for (const PresetDef& p : presets) names.emplace_back(p.name);
    return bad(name + " is not a NetBurst preset" + did_you_mean(name, names) +
               " (netburst-events --presets lists them)");
}

// A user event's native requests and the PMU-independent facts, before placement.
struct Parsed {
    UserEvent event;
    std::vector<EventRequest> terms;
};

Result<Parsed> parse_user_event(const std::string& name, const std::vector<PresetDef>& presets, const PlanOptions& o) {
    Parsed p;
    p.event.name = name;
    std::vector<std::string> terms;
    if (name.rfind("PAPI_", 0) == 0) {
        const PresetDef* preset = find_preset(presets, name);
        if (!preset) return unknown_preset(name, presets, o);
        p.event.is_preset = true;
        p.event.derivation = preset->derivation;
        for (const char* t : preset->terms) terms.emplace_back(t);
    } else {
        terms.push_back(name);
    }
    for (const std::string& t : terms) {
        auto r = parse_event(t, o.machine.model);
        if (!r) return r.error();
        p.terms.push_back(*r);
        p.event.natives.push_back(canonical_name(*r));
    }
    return p;
}

void add_distinct(std::vector<EventRequest>* set, const EventRequest& r) {
    for (const EventRequest& have : *set)
        if (have == r) return;  // one counter serves every event of the PMU that names it
    set->push_back(r);
}

bool fits(const std::vector<EventRequest>& set, const AllocContext& ctx) {
    if (!ctx.hyper_threading) {
        Schedule ignored;
        return try_schedule(set, ctx, &ignored);
    }
    return schedule_on_package(set, ctx).ok();
}

}  // namespace

Result<FpVariant> fp_variant_from_environment(FpVariant fallback) {
    const char* text = std::getenv("PAPI_NETBURST_FP");
    if (!text || !*text) return fallback;
    FpVariant v;
    if (!parse_fp_variant(text, &v))
        return make_error(ErrorCode::BadInput, std::string("PAPI_NETBURST_FP=") + text + ": expected sse, x87 or x87_sse_dp");
    return v;
}

Result<EventPlan> plan_events(const std::vector<std::string>& requested, const PlanOptions& o) {
    AllocContext ctx;
    ctx.model = o.machine.model;
    ctx.default_privilege = o.default_privilege;
    ctx.hyper_threading = o.machine.hyper_threading;
    EventPlan plan;
    std::vector<std::string> names;
    for (const std::string& n : requested) {
        if (n != kAllEventsName) {
            names.push_back(n);
            continue;
        }
        // "all" is what this configuration can count: an event no PMU can hold on every logical processor (a
        // shared one, with Hyper-Threading) is left out and named.
        for (const std::string& e : all_modelled_events(o.machine.model)) {
            auto r = parse_event(e, o.machine.model);
            if (r && schedule_on_package({*r}, ctx).ok()) names.push_back(e);
            else plan.left_out.push_back(e);
        }
    }

    const std::vector<PresetDef> presets = presets_for(o.machine.has_l3, o.fp);
    std::vector<std::vector<EventRequest>> on_pmu;  // what each PMU holds so far
    std::vector<std::vector<EventRequest>> terms_of;  // each user event's terms
    for (const std::string& name : names) {
        auto result = parse_user_event(name, presets, o);
        if (!result) return result.error();
        Parsed* parsed = &result.value();
        // First fit: all of an event's terms on one PMU, so that a tagged or derived event is counted as on
        // hardware.
        unsigned pmu = 0;
        for (; pmu < on_pmu.size(); ++pmu) {
            std::vector<EventRequest> candidate = on_pmu[pmu];
            for (const EventRequest& r : parsed->terms) add_distinct(&candidate, r);
            if (fits(candidate, ctx)) break;
        }
        if (pmu == on_pmu.size()) {
            std::vector<EventRequest> alone;
            for (const EventRequest& r : parsed->terms) add_distinct(&alone, r);
            if (auto s = schedule_on_package(alone, ctx); !s) return s.error();  // the allocator's explanation
            if (on_pmu.size() == vg::EventProgram::kMaxPmus)
                return make_error(ErrorCode::Conflict, "these events need more than " +
                                                           std::to_string(vg::EventProgram::kMaxPmus) +
                                                           " emulated PMUs; count them in two runs");
            on_pmu.emplace_back();
        }
        for (const EventRequest& r : parsed->terms) add_distinct(&on_pmu[pmu], r);
        parsed->event.pmu = pmu;
        plan.events.push_back(std::move(parsed->event));
        terms_of.push_back(std::move(parsed->terms));
    }
    plan.num_pmus = on_pmu.empty() ? 1 : static_cast<unsigned>(on_pmu.size());
    plan.program.num_pmus = plan.num_pmus;

    // The flat request list: PMU by PMU, in the order each PMU's requests were added.
    std::vector<std::size_t> first_of_pmu;
    for (unsigned pmu = 0; pmu < on_pmu.size(); ++pmu) {
        first_of_pmu.push_back(plan.requests.size());
        for (const EventRequest& r : on_pmu[pmu]) {
            plan.requests.push_back(r);
            plan.request_pmu.push_back(pmu);
        }
    }
    for (std::size_t u = 0; u < plan.events.size(); ++u) {
        UserEvent& e = plan.events[u];
        for (const EventRequest& r : terms_of[u])
            for (std::size_t i = first_of_pmu[e.pmu]; i < first_of_pmu[e.pmu] + on_pmu[e.pmu].size(); ++i)
                if (plan.requests[i] == r) {
                    e.terms.push_back(i);
                    break;
                }
    }

    for (unsigned pmu = 0; pmu < on_pmu.size(); ++pmu) {
        auto schedules = schedule_on_package(on_pmu[pmu], ctx);
        if (!schedules) return schedules.error();
        for (unsigned lp = 0; lp < schedules->size(); ++lp) {
            const Schedule* s = &(*schedules)[lp];
            for (const MsrWrite& w : start_writes(*s)) {
                if (plan.program.num_writes[lp] == vg::EventProgram::kMaxWrites) return bad("too many events");
                plan.program.writes[lp][plan.program.num_writes[lp]++] =
                    vg::ProgramWrite{w.msr, w.value, static_cast<std::uint8_t>(pmu)};
            }
            for (std::size_t i = 0; i < on_pmu[pmu].size(); ++i) {
                const ScheduledRequest& sr = s->requests[i];
                vg::ProgramEvent e;
                e.index = static_cast<std::uint32_t>(plan.program.num_events);
                e.lp = static_cast<std::uint8_t>(lp);
                e.counter = static_cast<std::uint8_t>(sr.result_counter);
                e.pmu = static_cast<std::uint8_t>(pmu);
                // A tagged metric's count means something only if its upstream (tagging) unit is modelled too.
                for (const PlacedUnit& unit : sr.units)
                    if (unit.counter >= 0) e.check_mask |= counter_bit(static_cast<unsigned>(unit.counter));
                if (plan.program.num_events == vg::EventProgram::kMaxEvents) return bad("too many events");
                plan.program.events[plan.program.num_events++] = e;
                plan.program_request.push_back(first_of_pmu[pmu] + i);
            }
            plan.schedules.push_back(*s);
        }
    }
    return plan;
}

std::int64_t combine_terms(const UserEvent& event, const std::vector<std::uint64_t>& v) {
    if (v.empty()) return 0;
    std::int64_t total = static_cast<std::int64_t>(v[0]);
    if (event.derivation == PresetDerivation::Add)
        for (std::size_t i = 1; i < v.size(); ++i) total += static_cast<std::int64_t>(v[i]);
    if (event.derivation == PresetDerivation::Sub)
        for (std::size_t i = 1; i < v.size(); ++i) total -= static_cast<std::int64_t>(v[i]);
    return total;
}

}  // namespace netburst::emu::run
