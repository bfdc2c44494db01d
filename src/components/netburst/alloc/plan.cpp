#include "alloc/plan.h"

namespace netburst {

namespace {

class Planner {
public:
    Planner(const std::vector<EventRequest>& requests, const AllocContext& ctx) : requests_(requests), ctx_(ctx) {}

    Plan run() {
        for (std::size_t i = 0; i < requests_.size() && plan_.conflict.kind == ConflictKind::None; ++i) {
            const EventRequest& r = requests_[i];
            if (r.is_metric()) add_metric(i, r);
            else add_event(i, r);
        }
        return std::move(plan_);
    }

private:
    UnitNeed base_unit(std::size_t index, UnitRole role, EventId event) {
        UnitNeed u;
        u.request = index;
        u.role = role;
        u.content.event = event;
        u.content.privilege = effective_privilege(requests_[index], ctx_);
        const EventDef& def = event_def(event);
        u.candidates[0] = def.escrs[0];
        u.candidates[1] = def.escrs[1];
        u.needs_counter = role == UnitRole::Count || kUpstreamNeedsCounter;
        u.pebs = role == UnitRole::Count && requests_[index].precise != 0;
        return u;
    }

    static CounterFilter filter_of(const EventRequest& r) {
        return CounterFilter{r.compare(), r.complement, r.edge, r.threshold};
    }

    void add_event(std::size_t index, const EventRequest& r) {
        UnitNeed u = base_unit(index, UnitRole::Count, r.event->id);
        u.content.mask = r.mask;
        u.filter = filter_of(r);
        if (r.tag_value) {
            u.content.tag_enable = true;
            u.content.tag_value = r.tag_value;
            const TagConfig config{u.content.event, u.content.mask, u.content.privilege};
            for (unsigned bit = 0; bit < kNumExecutionTagBits; ++bit)
                if (r.tag_value & (1u << bit)) claim_raw_bit(bit, index, config);
        }
        if (r.event->tag_role == TagRole::FrontEndUpstream) claim_front_end(index, r.mask);
        plan_.units.push_back(u);
    }

    void add_metric(std::size_t index, const EventRequest& r) {
        const MetricDef& m = *r.metric;
        const Privilege privilege = effective_privilege(r, ctx_);
        int group = -1;
        if (m.mechanism == TagMechanism::Execution) group = exec_group_for(index, r, m, privilege);
        if (m.mechanism == TagMechanism::FrontEnd) claim_front_end(index, m.upstream_mask);
        if (m.mechanism == TagMechanism::Replay) claim_replay(index, m);

        if (m.has_upstream) {
            UnitNeed up = base_unit(index, UnitRole::Upstream, m.upstream_event);
            up.content.mask = m.upstream_mask;
            if (m.upstream_escr != EscrId::None) {
                up.candidates[0] = m.upstream_escr;
                up.candidates[1] = EscrId::None;
            }
            if (m.mechanism == TagMechanism::Execution) {
                up.content.tag_enable = true;
                up.exec_group = group;
            }
            plan_.units.push_back(up);
        }
        UnitNeed count = base_unit(index, UnitRole::Count, m.counting_event);
        count.filter = filter_of(r);
        count.nbogus = r.mask & 1;
        count.bogus = r.mask & 2;
        count.content.mask = metric_counting_mask(m, count.nbogus, count.bogus, 0);
        if (m.mechanism == TagMechanism::Execution) count.exec_group = group;
        plan_.units.push_back(count);
    }

    int exec_group_for(std::size_t index, const EventRequest& r, const MetricDef& m, Privilege privilege) {
        const TagConfig config{m.upstream_event, m.upstream_mask, privilege};
        if (r.pinned_tag_bit >= 0) claim_metric_bit(static_cast<unsigned>(r.pinned_tag_bit), index, config);
        for (std::size_t g = 0; g < plan_.exec_groups.size(); ++g) {
            ExecGroup& group = plan_.exec_groups[g];
            if (group.config == config && group.pinned_bit == r.pinned_tag_bit) {
                group.requests.push_back(index);
                return static_cast<int>(g);
            }
        }
        plan_.exec_groups.push_back(ExecGroup{config, r.pinned_tag_bit, {index}});
        return static_cast<int>(plan_.exec_groups.size() - 1);
    }

    // Request `index` collides with `users` on the resource `detail` names.
    void conflict(ConflictKind kind, const std::vector<std::size_t>& users, std::size_t index, std::string detail) {
        Conflict& k = plan_.conflict;
        k.kind = kind;
        k.requests = users;
        k.requests.push_back(index);
        k.detail = std::move(detail);
    }

    void tag_conflict(unsigned bit, const TagBitUse& use, std::size_t index) {
        conflict(ConflictKind::TagBit, use.requests, index,
                 "execution tag bit " + std::to_string(bit) +
                     ": a metric's tag bit must mark its own upstream event's uops and no other");
    }

    void claim_raw_bit(unsigned bit, std::size_t index, const TagConfig& config) {
        TagBitUse& use = plan_.fixed_uses[bit];
        if (use.metric && use.metric_config != config) return tag_conflict(bit, use, index);
        bool known = false;
        for (const TagConfig& c : use.raw) known = known || c == config;
        if (!known) use.raw.push_back(config);
        use.requests.push_back(index);
    }

    void claim_metric_bit(unsigned bit, std::size_t index, const TagConfig& config) {
        TagBitUse& use = plan_.fixed_uses[bit];
        if (!use.open_to_metric(config)) return tag_conflict(bit, use, index);
        use.metric = true;
        use.metric_config = config;
        use.requests.push_back(index);
    }

    void claim_front_end(std::size_t index, std::uint16_t uop_mask) {
        if (plan_.front_end_uop_mask == 0 || plan_.front_end_uop_mask == uop_mask) {
            plan_.front_end_uop_mask = uop_mask;
            front_end_users_.push_back(index);
            return;
        }
        conflict(ConflictKind::FrontEndTag, front_end_users_, index,
                 "front-end tagging marks uops with a single tag, so front_end_event cannot tell loads tagged for "
                 "one request from stores tagged for another");
    }

    void claim_replay(std::size_t index, const MetricDef& m) {
        if (!plan_.replay_active) {
            // The first replay metric of the set fixes the package-wide registers, unless the other logical
            // processor has fixed them already.
            plan_.pebs_enable = ctx_.sibling.replay_in_use ? ctx_.sibling.pebs_enable : m.pebs_enable;
            plan_.matrix_vert = ctx_.sibling.replay_in_use ? ctx_.sibling.matrix_vert : m.matrix_vert;
        }
        if (plan_.pebs_enable == m.pebs_enable && plan_.matrix_vert == m.matrix_vert) {
            plan_.replay_active = true;
            replay_users_.push_back(index);
            return;
        }
        std::string detail =
            "IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT are shared by the package and hold one replay metric";
        if (replay_users_.empty() && ctx_.sibling.replay_in_use)
            detail += "; the other logical processor already uses a different one";
        conflict(ConflictKind::ReplayMetric, replay_users_, index, std::move(detail));
    }

    const std::vector<EventRequest>& requests_;
    const AllocContext& ctx_;
    Plan plan_;
    std::vector<std::size_t> front_end_users_;
    std::vector<std::size_t> replay_users_;
};

}  // namespace

Privilege effective_privilege(const EventRequest& request, const AllocContext& ctx) {
    return request.privilege_explicit ? request.privilege : ctx.default_privilege;
}

Plan make_plan(const std::vector<EventRequest>& requests, const AllocContext& ctx) {
    return Planner(requests, ctx).run();
}

}  // namespace netburst
