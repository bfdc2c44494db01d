#include "alloc/allocator.h"

#include "alloc/placement.h"
#include "table/metrics.h"

namespace netburst {

namespace {

struct TagChoice {
    TagBitUse uses[kNumExecutionTagBits];
    std::vector<int> group_bit;  // per exec group
};

std::vector<ConcreteUnit> materialize(const Plan& plan, const TagChoice& tags, ThreadSelect threads) {
    std::vector<ConcreteUnit> units;
    units.reserve(plan.units.size());
    for (const UnitNeed& need : plan.units) {
        EscrContent content = need.content;
        if (need.exec_group >= 0) {
            const unsigned bit = static_cast<unsigned>(tags.group_bit[static_cast<std::size_t>(need.exec_group)]);
            if (need.role == UnitRole::Upstream) {
                content.tag_value = static_cast<std::uint8_t>(1u << bit);
            } else {
                content.mask = execution_counting_mask(need.nbogus, need.bogus, bit);
            }
        }
        units.push_back(ConcreteUnit{&need, escr_value(content, threads)});
    }
    return units;
}

Schedule build_schedule(const Plan& plan, const TagChoice& tags, const std::vector<ConcreteUnit>& units,
                        const std::vector<UnitPlace>& places, std::size_t num_requests) {
    Schedule s;
    s.requests.resize(num_requests);
    for (std::size_t u = 0; u < units.size(); ++u) {
        const UnitNeed& need = *units[u].need;
        PlacedUnit p;
        p.role = need.role;
        p.event = need.content.event;
        p.escr = places[u].escr;
        p.counter = places[u].counter;
        p.escr_value = units[u].escr_value;
        const CounterFilter none{};
        if (p.counter >= 0)
            p.cccr_value = cccr_value(kEscrs[escr_index(p.escr)].select, need.role == UnitRole::Count ? need.filter : none);
        ScheduledRequest& r = s.requests[need.request];
        if (need.role == UnitRole::Count) r.result_counter = p.counter;
        if (need.exec_group >= 0) r.tag_bit = tags.group_bit[static_cast<std::size_t>(need.exec_group)];
        r.units.push_back(p);
        if (p.counter >= 0) s.counters |= counter_bit(static_cast<unsigned>(p.counter));
        s.escrs |= escr_bit(p.escr);
    }
    s.replay_active = plan.replay_active;
    s.pebs_enable = plan.replay_active ? plan.pebs_enable : 0;
    s.matrix_vert = plan.replay_active ? plan.matrix_vert : 0;
    s.front_end_uop_mask = plan.front_end_uop_mask;
    for (unsigned bit = 0; bit < kNumExecutionTagBits; ++bit)
        if (tags.uses[bit].used()) s.execution_tag_bits = static_cast<std::uint8_t>(s.execution_tag_bits | (1u << bit));
    return s;
}

// Depth-first over the tag bit of each execution group: a group may take a bit nobody uses or one only its own
// configuration uses. Each complete choice is tried for placement.
class TagSearch {
public:
    TagSearch(const Plan& plan, const AllocContext& ctx, std::size_t num_requests)
        : plan_(plan), ctx_(ctx), num_requests_(num_requests) {
        for (unsigned bit = 0; bit < kNumExecutionTagBits; ++bit) choice_.uses[bit] = plan.fixed_uses[bit];
        choice_.group_bit.assign(plan.exec_groups.size(), -1);
    }

    bool run(Schedule* out) { return dfs(0, out); }
    // Runs only the tag choice: is there any assignment of bits at all?
    bool any_tag_choice() {
        tags_only_ = true;
        dfs(0, nullptr);
        return reached_leaf_;
    }

private:
    bool dfs(std::size_t g, Schedule* out) {
        if (g == plan_.exec_groups.size()) return try_place(out);
        const ExecGroup& group = plan_.exec_groups[g];
        for (unsigned bit = 0; bit < kNumExecutionTagBits; ++bit) {
            if (group.pinned_bit >= 0 && bit != static_cast<unsigned>(group.pinned_bit)) continue;
            TagBitUse& use = choice_.uses[bit];
            if (!use.open_to_metric(group.config)) continue;
            const bool was_metric = use.metric;
            use.metric = true;
            use.metric_config = group.config;
            choice_.group_bit[g] = static_cast<int>(bit);
            if (dfs(g + 1, out)) return true;
            use.metric = was_metric;
        }
        return false;
    }

    bool try_place(Schedule* out) {
        reached_leaf_ = true;
        if (tags_only_) return true;
        const std::vector<ConcreteUnit> units = materialize(plan_, choice_, thread_select(ctx_));
        std::vector<UnitPlace> places;
        if (!place_units(units, ctx_, &places)) return false;
        if (out) *out = build_schedule(plan_, choice_, units, places, num_requests_);
        return true;
    }

    const Plan& plan_;
    const AllocContext& ctx_;
    std::size_t num_requests_;
    TagChoice choice_;
    bool reached_leaf_ = false;
    bool tags_only_ = false;
};

}  // namespace

bool tag_bits_suffice(const Plan& plan) {
    AllocContext unused;
    return TagSearch(plan, unused, 0).any_tag_choice();
}

std::string validate_context(const AllocContext& ctx) {
    if (!model_exists(ctx.model))
        return "model " + std::to_string(ctx.model) + " is not a NetBurst model (family 0FH models are 0-4 and 6)";
    if (ctx.thread > 1) return "a NetBurst package has logical processors 0 and 1, not " + std::to_string(ctx.thread);
    if (ctx.thread == 1 && !ctx.hyper_threading)
        return "logical processor 1 exists only with Hyper-Threading; without it use thread 0";
    if (ctx.both_threads && !ctx.hyper_threading)
        return "counting both logical processors needs Hyper-Threading";
    return "";
}

bool try_schedule(const std::vector<EventRequest>& requests, const AllocContext& ctx, Schedule* out) {
    const Plan plan = make_plan(requests, ctx);
    if (plan.conflict.kind != ConflictKind::None) return false;
    TagSearch search(plan, ctx, requests.size());
    return search.run(out);
}

Result<Schedule> schedule_events(const std::vector<EventRequest>& requests, const AllocContext& ctx) {
    if (std::string bad = validate_context(ctx); !bad.empty()) return make_error(ErrorCode::BadInput, bad);
    for (const EventRequest& r : requests)
        if (r.event && !event_on_model(*r.event, ctx.model))
            return make_error(ErrorCode::NotOnModel, std::string(r.event->name) + " does not exist on model " +
                                                         std::to_string(ctx.model));
    Schedule s;
    if (try_schedule(requests, ctx, &s)) return s;
    std::string why = describe_conflict(diagnose_conflict(requests, ctx), requests);
    for (const EventRequest& r : requests)
        if (r.precise) {
            why += std::string(" An event with :precise counts on ") +
                   kCounters[pebs_counter(ctx.thread)].counter_name + ", the only counter that drives PEBS for logical processor " + std::to_string(ctx.thread) +
                   ", and only one can.";
            break;
        }
    return make_error(ErrorCode::Conflict, why);
}

}  // namespace netburst

namespace netburst {

Result<std::vector<Schedule>> schedule_on_package(const std::vector<EventRequest>& requests, AllocContext ctx) {
    std::vector<Schedule> out;
    ctx.sibling = Occupancy{};
    for (unsigned lp = 0; lp < (ctx.hyper_threading ? 2u : 1u); ++lp) {
        ctx.thread = lp;
        auto s = schedule_events(requests, ctx);
        if (!s) {
            Error e = s.error();
            if (ctx.hyper_threading) e.message = "logical processor " + std::to_string(lp) + ": " + e.message;
            return e;
        }
        ctx.sibling = s->as_occupancy();
        out.push_back(*s);
    }
    return out;
}

}  // namespace netburst

