#include "emulator/run/event_plan.h"

#include "alloc/allocator.h"
#include "encode/program.h"
#include "events/parser.h"
#include "table/msr_map.h"

namespace netburst::emu::run {

namespace {

Error bad(std::string message) { return make_error(ErrorCode::BadInput, std::move(message)); }

// A PAPI_ name that is no preset here: say whether another configuration has it.
Error unknown_preset(const std::string& name, const PlanOptions& o) {
    for (const auto& [p, fp] : all_preset_variants()) {
        if (name != p.name) continue;
        if (p.needs_l3 && !o.with_l3) return bad(name + " needs a processor with an L3 cache (--l3)");
        return bad(name + " is not available with PAPI_NETBURST_FP=" + fp_variant_name(o.fp) + " (try " +
                   fp_variant_name(fp) + ")");
    }
    return bad(name + " is not a NetBurst preset (netburst-events --presets lists them)");
}

std::size_t add_request(EventPlan* plan, const EventRequest& r) {
    for (std::size_t i = 0; i < plan->requests.size(); ++i)
        if (plan->requests[i] == r) return i;  // one counter serves every event that names it
    plan->requests.push_back(r);
    return plan->requests.size() - 1;
}

}  // namespace

bool parse_fp_variant(const std::string& text, FpVariant* out) {
    for (unsigned v = 0; v < kNumFpVariants; ++v)
        if (text == fp_variant_name(static_cast<FpVariant>(v))) {
            *out = static_cast<FpVariant>(v);
            return true;
        }
    return false;
}

Result<EventPlan> plan_events(const std::vector<std::string>& names, const PlanOptions& o) {
    EventPlan plan;
    const std::vector<PresetDef> presets = presets_for(o.with_l3, o.fp);
    for (const std::string& name : names) {
        UserEvent u;
        u.name = name;
        std::vector<std::string> terms;
        if (name.rfind("PAPI_", 0) == 0) {
            const PresetDef* p = find_preset(presets, name);
            if (!p) return unknown_preset(name, o);
            u.is_preset = true;
            u.derivation = p->derivation;
            for (const char* t : p->terms) terms.emplace_back(t);
        } else {
            terms.push_back(name);
        }
        for (const std::string& t : terms) {
            auto r = parse_event(t, o.model);
            if (!r) return r.error();
            u.terms.push_back(add_request(&plan, *r));
            u.natives.push_back(canonical_name(*r));
        }
        plan.events.push_back(std::move(u));
    }

    AllocContext ctx;
    ctx.model = o.model;
    ctx.hyper_threading = o.hyper_threading;
    auto schedules = schedule_on_package(plan.requests, ctx);
    if (!schedules) return schedules.error();
    for (unsigned lp = 0; lp < schedules->size(); ++lp) {
        const Schedule* s = &(*schedules)[lp];
        for (const MsrWrite& w : start_writes(*s)) {
            if (plan.program.num_writes[lp] == vg::EventProgram::kMaxWrites) return bad("too many events");
            plan.program.writes[lp][plan.program.num_writes[lp]++] = vg::ProgramWrite{w.msr, w.value};
        }
        for (std::size_t i = 0; i < plan.requests.size(); ++i) {
            const ScheduledRequest& sr = s->requests[i];
            vg::ProgramEvent e;
            e.index = static_cast<std::uint32_t>(plan.program.num_events);
            e.lp = static_cast<std::uint8_t>(lp);
            e.counter = static_cast<std::uint8_t>(sr.result_counter);
            // A tagged metric's count means something only if its upstream (tagging) unit is modelled too.
            for (const PlacedUnit& unit : sr.units)
                if (unit.counter >= 0) e.check_mask |= counter_bit(static_cast<unsigned>(unit.counter));
            if (plan.program.num_events == vg::EventProgram::kMaxEvents) return bad("too many events");
            plan.program.events[plan.program.num_events++] = e;
            plan.program_request.push_back(i);
        }
        plan.schedules.push_back(*s);
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
