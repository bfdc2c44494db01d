#include "alloc/placement.h"

#include <algorithm>
#include <array>

namespace netburst {

namespace {

unsigned popcount(CounterMask m) { return static_cast<unsigned>(__builtin_popcount(m)); }

class BlockSearch {
public:
    BlockSearch(const std::vector<ConcreteUnit>& units, const std::vector<std::size_t>& members, Block block,
                const AllocContext& ctx)
        : units_(units), members_(members), ctx_(ctx) {
        const CounterMask usable = usable_counters(ctx);
        for (unsigned side = 0; side < 2; ++side) capacity_[side] = popcount(counters_of_side(block, side) & usable);
        // Units with a single possible ESCR first: they prune the most.
        std::stable_sort(members_.begin(), members_.end(), [&](std::size_t a, std::size_t b) {
            return choices(a) < choices(b);
        });
        escr_value_.fill(0);
        escr_users_.fill(0);
    }

    bool run(std::vector<UnitPlace>* places) {
        unsigned need = 0;
        for (std::size_t u : members_) need += units_[u].need->needs_counter ? 1 : 0;
        if (need > capacity_[0] + capacity_[1]) return false;
        chosen_.assign(units_.size(), EscrId::None);
        if (!dfs(0)) return false;
        assign_counters(places);
        return true;
    }

private:
    unsigned choices(std::size_t u) const {
        unsigned n = 0;
        for (EscrId e : units_[u].need->candidates)
            if (e != EscrId::None && escr_usable(e, ctx_)) ++n;
        return n;
    }

    bool dfs(std::size_t i) {
        if (i == members_.size()) return true;
        const std::size_t u = members_[i];
        const ConcreteUnit& unit = units_[u];
        for (EscrId e : unit.need->candidates) {
            if (e == EscrId::None || !escr_usable(e, ctx_)) continue;
            const unsigned idx = escr_index(e);
            if (escr_users_[idx] > 0 && escr_value_[idx] != unit.escr_value) continue;
            // :precise: the ESCR must feed the PEBS counter, which one unit at most can have.
            if (unit.need->pebs && (pebs_taken_ || !(kEscrs[idx].counters & pebs_bit()))) continue;
            const unsigned side = kEscrs[idx].side;
            const unsigned load = unit.need->needs_counter ? 1 : 0;
            if (load_[side] + load > capacity_[side]) continue;
            escr_value_[idx] = unit.escr_value;
            ++escr_users_[idx];
            load_[side] += load;
            chosen_[u] = e;
            pebs_taken_ = pebs_taken_ || unit.need->pebs;
            if (dfs(i + 1)) return true;
            if (unit.need->pebs) pebs_taken_ = false;
            --escr_users_[idx];
            load_[side] -= load;
            chosen_[u] = EscrId::None;
        }
        return false;
    }

    CounterMask pebs_bit() const { return usable_counters(ctx_) & counter_bit(pebs_counter(ctx_.thread)); }

    void assign_counters(std::vector<UnitPlace>* places) {
        // The PEBS counter is kept for the :precise unit; the others share the rest of its side.
        CounterMask taken = ~usable_counters(ctx_) | (pebs_taken_ ? pebs_bit() : 0);
        // Members in input order, so that the first requests get the lowest counters.
        std::vector<std::size_t> ordered(members_);
        std::sort(ordered.begin(), ordered.end());
        for (std::size_t u : ordered) {
            UnitPlace& place = (*places)[u];
            place.escr = chosen_[u];
            if (!units_[u].need->needs_counter) continue;
            if (units_[u].need->pebs) {
                place.counter = static_cast<int>(pebs_counter(ctx_.thread));
                continue;
            }
            const CounterMask options = kEscrs[escr_index(place.escr)].counters & ~taken;
            const int counter = __builtin_ctz(options);  // non-empty: dfs kept every side within capacity
            place.counter = counter;
            taken |= counter_bit(static_cast<unsigned>(counter));
        }
    }

    const std::vector<ConcreteUnit>& units_;
    std::vector<std::size_t> members_;
    const AllocContext& ctx_;
    unsigned capacity_[2] = {0, 0};
    unsigned load_[2] = {0, 0};
    std::array<std::uint64_t, kNumEscrs> escr_value_;
    std::array<unsigned, kNumEscrs> escr_users_;
    std::vector<EscrId> chosen_;
    bool pebs_taken_ = false;
};

}  // namespace

CounterMask usable_counters(const AllocContext& ctx) {
    return kAllCounters & ~ctx.unavailable_counters & ~ctx.sibling.counters;
}

bool escr_usable(EscrId escr, const AllocContext& ctx) {
    return model_in(kEscrs[escr_index(escr)].models, ctx.model) && !(ctx.sibling.escrs & escr_bit(escr)) &&
           !(ctx.unavailable_escrs & escr_bit(escr));
}

bool place_units(const std::vector<ConcreteUnit>& units, const AllocContext& ctx, std::vector<UnitPlace>* places) {
    places->assign(units.size(), UnitPlace{});
    std::vector<std::size_t> members[kNumBlocks];
    for (std::size_t u = 0; u < units.size(); ++u)
        members[static_cast<unsigned>(kEscrs[escr_index(units[u].need->candidates[0])].block)].push_back(u);
    for (unsigned b = 0; b < kNumBlocks; ++b) {
        if (members[b].empty()) continue;
        BlockSearch search(units, members[b], static_cast<Block>(b), ctx);
        if (!search.run(places)) return false;
    }
    return true;
}

}  // namespace netburst
