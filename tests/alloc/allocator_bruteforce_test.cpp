// Completeness: on thousands of random event sets, the allocator finds an assignment exactly when plain
// enumeration does. The enumeration below shares only the expansion of requests into units (make_plan) with the
// allocator; it tries every tag bit per execution group and every (ESCR, counter) pair per unit, checking the
// hardware rules directly, without the allocator's block decomposition or side-capacity reasoning.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "alloc/allocator.h"
#include "alloc/plan.h"
#include "events/parser.h"
#include "schedule_checker.h"

using namespace netburst;

namespace {

class BruteForce {
public:
    BruteForce(const std::vector<EventRequest>& requests, const AllocContext& ctx)
        : ctx_(ctx), plan_(make_plan(requests, ctx)) {}

    bool feasible() {
        if (plan_.conflict.kind != ConflictKind::None) return false;
        bits_.assign(plan_.exec_groups.size(), -1);
        return tags(0);
    }

private:
    // Every combination of tag bits, then check who marks uops with each bit.
    bool tags(std::size_t g) {
        if (g == plan_.exec_groups.size()) {
            if (!tag_owners_ok()) return false;
            values_.clear();
            for (const UnitNeed& need : plan_.units) values_.push_back(value_of(need));
            escr_value_.fill(0);
            escr_users_.fill(0);
            counter_used_ = 0;
            return place(0);
        }
        for (int bit = 0; bit < 4; ++bit) {
            bits_[g] = bit;
            if (tags(g + 1)) return true;
        }
        return false;
    }

    // Each bit: a metric's bit may be used by its own configuration only; raw TAGn events may share a bit.
    bool tag_owners_ok() const {
        for (int bit = 0; bit < 4; ++bit) {
            std::vector<TagConfig> metric_configs, raw_configs = plan_.fixed_uses[bit].raw;
            if (plan_.fixed_uses[bit].metric) metric_configs.push_back(plan_.fixed_uses[bit].metric_config);
            for (std::size_t g = 0; g < plan_.exec_groups.size(); ++g) {
                const ExecGroup& grp = plan_.exec_groups[g];
                if (grp.pinned_bit >= 0 && grp.pinned_bit != bits_[g]) return false;
                if (bits_[g] == bit) metric_configs.push_back(grp.config);
            }
            if (metric_configs.empty()) continue;
            for (const TagConfig& c : metric_configs)
                if (c != metric_configs[0]) return false;
            for (const TagConfig& c : raw_configs)
                if (c != metric_configs[0]) return false;
        }
        return true;
    }

    std::uint64_t value_of(const UnitNeed& need) const {
        EscrContent c = need.content;
        if (need.exec_group >= 0) {
            const unsigned bit = static_cast<unsigned>(bits_[static_cast<std::size_t>(need.exec_group)]);
            if (need.role == UnitRole::Upstream) c.tag_value = static_cast<std::uint8_t>(1u << bit);
            else c.mask = execution_counting_mask(need.nbogus, need.bogus, bit);
        }
        return escr_value(c, thread_select(ctx_));
    }

    bool place(std::size_t u) {
        if (u == plan_.units.size()) return true;
        const UnitNeed& need = plan_.units[u];
        for (EscrId e : need.candidates) {
            if (e == EscrId::None) continue;
            const unsigned idx = escr_index(e);
            if (!model_in(kEscrs[idx].models, ctx_.model) || (ctx_.sibling.escrs & escr_bit(e))) continue;
            if (escr_users_[idx] && escr_value_[idx] != values_[u]) continue;
            for (unsigned c = 0; c < kNumCounters; ++c) {
                const CounterMask bit = counter_bit(c);
                if (!(kEscrs[idx].counters & bit) || (counter_used_ & bit)) continue;
                if ((ctx_.unavailable_counters | ctx_.sibling.counters) & bit) continue;
                counter_used_ |= bit;
                escr_value_[idx] = values_[u];
                ++escr_users_[idx];
                if (place(u + 1)) return true;
                --escr_users_[idx];
                counter_used_ &= ~bit;
            }
        }
        return false;
    }

    const AllocContext& ctx_;
    Plan plan_;
    std::vector<int> bits_;
    std::vector<std::uint64_t> values_;
    std::array<std::uint64_t, kNumEscrs> escr_value_{};
    std::array<unsigned, kNumEscrs> escr_users_{};
    CounterMask counter_used_ = 0;
};

// A pool weighted towards the crowded IQ block and the tagging recipes, where conflicts live.
const std::vector<std::string> kPool = {
    "branch_retired:MMTM", "branch_retired:MMNM:MMTM", "branch_retired:MMTM:thr=1", "branch_retired:MMTP:u",
    "instr_retired:NBOGUSNTAG", "instr_retired:NBOGUSNTAG:e", "instr_retired:NBOGUSNTAG:NBOGUSTAG",
    "uops_retired:NBOGUS", "mispred_branch_retired", "x87_assist:FPSU", "machine_clear:CLEAR",
    "front_end_event:NBOGUS", "execution_event:NBOGUS0", "execution_event:NBOGUS1:BOGUS1", "replay_event:NBOGUS",
    "resource_stall", "uops_type:TAGLOADS",
    "memory_loads", "memory_stores", "memory_loads:BOGUS",
    "x87_FP_retired", "x87_FP_retired:u", "packed_SP_retired", "scalar_DP_retired", "128bit_MMX_retired",
    "x87_FP_retired:tag=1", "packed_DP_retired:tag=0", "x87_FP_uop:ALL:TAG2", "scalar_SP_uop:ALL:TAG0",
    "x87_FP_uop", "SSE_input_assist", "x87_SIMD_memory_moves_retired",
    "1stL_cache_load_miss_retired", "2ndL_cache_load_miss_retired", "split_load_retired", "split_store_retired",
    "MOB_load_replay_retired", "DTLB_all_miss_retired", "load_port_replay", "MOB_load_replay:NO_STA",
    "BSQ_cache_reference:RD_2ndL_MISS", "BSQ_allocation:REQ_TYPE0", "BSQ_active_entries:REQ_TYPE0",
    "IOQ_allocation:ALL_READ", "IOQ_active_entries:ALL_READ", "global_power_events", "FSB_data_activity:DRDY_OWN",
    "tc_ms_xfer", "uop_queue_writes:FROM_ROM", "retired_branch_type:CONDITIONAL", "TC_misc",
};

}  // namespace

TEST(AllocatorCompleteness, AgreesWithBruteForceOnRandomSets) {
    std::mt19937 rng(20261121);
    std::vector<EventRequest> pool;
    for (const auto& name : kPool) {
        auto r = parse_event(name, kDefaultModel);
        ASSERT_TRUE(r.ok()) << name << ": " << r.error().message;
        pool.push_back(*r);
    }
    unsigned feasible = 0, infeasible = 0;
    const unsigned kSets = 4000;
    for (unsigned trial = 0; trial < kSets; ++trial) {
        AllocContext ctx;
        const unsigned mode = rng() % 4;
        if (mode >= 2) {
            ctx.hyper_threading = true;
            ctx.thread = rng() % 2;
        }
        if (mode == 3) {  // the other logical processor holds a few random counters and ESCRs
            ctx.sibling.counters = static_cast<CounterMask>(rng()) & static_cast<CounterMask>(rng()) & kAllCounters;
            ctx.sibling.escrs = (static_cast<EscrMask>(rng()) << 32 | rng()) & (static_cast<EscrMask>(rng()) << 32 | rng()) &
                                ((EscrMask{1} << kNumEscrs) - 1);
        }
        if (rng() % 8 == 0) ctx.unavailable_counters = counter_bit(1);
        std::vector<EventRequest> set;
        const unsigned n = 1 + rng() % 7;
        for (unsigned i = 0; i < n; ++i) set.push_back(pool[rng() % pool.size()]);

        Schedule s;
        const bool ours = try_schedule(set, ctx, &s);
        const bool brute = BruteForce(set, ctx).feasible();
        std::string names;
        for (const auto& r : set) names += canonical_name(r) + " ";
        ASSERT_EQ(ours, brute) << "set: " << names << " thread " << ctx.thread;
        if (ours) {
            ++feasible;
            ASSERT_EQ(checks::check_schedule(set, ctx, s), "") << names;
        } else {
            ++infeasible;
            const Conflict k = diagnose_conflict(set, ctx);
            ASSERT_NE(k.kind, ConflictKind::None) << names;
            ASSERT_FALSE(k.requests.empty()) << names;
        }
    }
    // Both outcomes must be well represented for the comparison to mean something.
    EXPECT_GT(feasible, kSets / 5);
    EXPECT_GT(infeasible, kSets / 5);
    RecordProperty("feasible", static_cast<int>(feasible));
    RecordProperty("infeasible", static_cast<int>(infeasible));
}
