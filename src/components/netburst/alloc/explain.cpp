// Why an event set does not fit: find the smallest colliding subset, then name the resource.
#include <map>
#include <set>

#include "alloc/allocator.h"
#include "alloc/placement.h"
#include "events/suggest.h"

namespace netburst {

namespace {

std::vector<EventRequest> subset(const std::vector<EventRequest>& all, const std::vector<std::size_t>& idx) {
    std::vector<EventRequest> out;
    for (std::size_t i : idx) out.push_back(all[i]);
    return out;
}

// Deletion filter: drop each request whose removal keeps the rest infeasible. What remains is irreducible:
// removing any one of its requests makes it fit.
std::vector<std::size_t> minimal_conflicting_subset(const std::vector<EventRequest>& requests,
                                                    const AllocContext& ctx) {
    std::vector<std::size_t> keep;
    for (std::size_t i = 0; i < requests.size(); ++i) keep.push_back(i);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        std::vector<std::size_t> trial;
        for (std::size_t k : keep)
            if (k != i) trial.push_back(k);
        if (!try_schedule(subset(requests, trial), ctx, nullptr)) keep = trial;
    }
    return keep;
}

std::string counter_list(CounterMask mask) {
    std::string out;
    for (unsigned c = 0; c < kNumCounters; ++c)
        if (mask & counter_bit(c)) {
            if (!out.empty()) out += ", ";
            out += std::to_string(c);
        }
    return out.empty() ? "none" : out;
}

std::string escr_pair_name(const UnitNeed& need) {
    std::string out = kEscrs[escr_index(need.candidates[0])].name;
    if (need.candidates[1] != EscrId::None) out += std::string(" and ") + kEscrs[escr_index(need.candidates[1])].name;
    return out;
}

// Names the placement resource that a minimal subset exhausts, looking at the units the plan gives it.
Conflict classify_placement(const std::vector<EventRequest>& requests, const std::vector<std::size_t>& idx,
                            const AllocContext& ctx) {
    const std::vector<EventRequest> sub = subset(requests, idx);
    const Plan plan = make_plan(sub, ctx);
    Conflict k;
    for (std::size_t i : idx) k.requests.push_back(i);
    const CounterMask usable = usable_counters(ctx);
    std::string held = ctx.hyper_threading ? " (counters and ESCRs the other logical processor holds are not free)" : "";
    if (!ctx.unavailable_reason.empty()) held += " (" + ctx.unavailable_reason + ")";

    // 1. A block with more units than free counters.
    unsigned need[kNumBlocks] = {0, 0, 0, 0};
    for (const UnitNeed& u : plan.units)
        if (u.needs_counter) ++need[static_cast<unsigned>(kEscrs[escr_index(u.candidates[0])].block)];
    for (unsigned b = 0; b < kNumBlocks; ++b) {
        const Block block = static_cast<Block>(b);
        const CounterMask free = (counters_of_side(block, 0) | counters_of_side(block, 1)) & usable;
        if (need[b] > static_cast<unsigned>(__builtin_popcount(free))) {
            k.kind = ConflictKind::Counters;
            k.detail = std::string("counter block ") + block_name(block) + ": these need " + std::to_string(need[b]) +
                       " counters and only " + counter_list(free) + " are free" + held;
            return k;
        }
    }
    // 2. An ESCR pair asked to hold more different values than it has ESCRs. Execution metrics' values depend
    //    on the tag bit; distinct upstream configurations always differ, so count configurations.
    std::map<std::string, std::set<std::string>> values;
    std::map<std::string, unsigned> escrs_free;
    for (const UnitNeed& u : plan.units) {
        const std::string pair = escr_pair_name(u);
        std::string key = std::to_string(escr_value(u.content, thread_select(ctx)));
        if (u.exec_group >= 0) key += "/group" + std::to_string(u.exec_group);
        values[pair].insert(key);
        unsigned n = 0;
        for (EscrId e : u.candidates)
            if (e != EscrId::None && escr_usable(e, ctx)) ++n;
        escrs_free[pair] = n;
    }
    std::vector<std::string> exhausted;
    for (const auto& [pair, vals] : values)
        if (vals.size() > escrs_free[pair])
            exhausted.push_back(pair + " can hold " + std::to_string(escrs_free[pair]) + " different settings and these need " +
                                std::to_string(vals.size()));
    if (!exhausted.empty()) {
        k.kind = ConflictKind::Escr;
        k.detail = "ESCR: " + join_all(exhausted) + " (events share an ESCR only when they need the identical value)" + held;
        return k;
    }
    // 3. Otherwise the ESCR choices force too many units onto one side of a block.
    std::string block_names;
    for (unsigned b = 0; b < kNumBlocks; ++b)
        if (need[b]) block_names += std::string(block_names.empty() ? "" : ", ") + block_name(static_cast<Block>(b));
    k.kind = ConflictKind::Counters;
    k.detail = "counters of block " + block_names + ": each ESCR feeds only the counters on its side of the block (" +
               "ESCRn0: the lower pair, ESCRn1: the upper pair, plus 16 or 17 in the IQ block), and the ESCRs these "
               "events can use leave too few counters on one side" + held;
    return k;
}

}  // namespace

Conflict diagnose_conflict(const std::vector<EventRequest>& requests, const AllocContext& ctx) {
    const Plan plan = make_plan(requests, ctx);
    if (plan.conflict.kind != ConflictKind::None) return plan.conflict;

    const std::vector<std::size_t> minimal = minimal_conflicting_subset(requests, ctx);
    const Plan sub_plan = make_plan(subset(requests, minimal), ctx);
    if (!tag_bits_suffice(sub_plan)) {
        Conflict k;
        k.kind = ConflictKind::TagBitsExhausted;
        k.requests = minimal;
        k.detail = "execution tag bits: there are four, each marks the uops of one upstream event, and these "
                   "upstream events cannot each get one";
        return k;
    }
    return classify_placement(requests, minimal, ctx);
}

std::string describe_conflict(const Conflict& conflict, const std::vector<EventRequest>& requests) {
    std::vector<std::string> names;
    for (std::size_t i : conflict.requests) names.push_back(canonical_name(requests[i]));
    std::string out = "cannot count these events together; resource in conflict: " + conflict.detail + ". ";
    out += names.size() == 1 ? "Event involved: " : "Events involved: ";
    out += join_all(names);
    out += ". Count them in separate event sets, or let PAPI multiplex them.";
    return out;
}

}  // namespace netburst
