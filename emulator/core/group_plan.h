// Runs of instructions that a front end always delivers together, in order (the Valgrind tool's group records:
// one record for an instruction and the ones after it that cannot fault or leave the run), for the functional tier.
//
// Per instruction, the functional tier pays for its retirement (an increment of its plan's pending count) and its
// delivery by the trace cache before the work that depends on its operands (a load, a branch). A GroupPlan pays
// those once per run: one pending count for the run, which Core::flush_functional() adds to each member's plan
// before it retires the plans, and the delivery of as many members as the line being delivered holds in one step
// (TraceCache::deliver_run). Everything else happens member by member in program order, exactly as one by one:
// delivery only moves the trace cache's cursor, which nothing else reads, so the members delivered together do
// their work afterwards in order; delivery that does more (the head of another line, a miss and build mode, which
// reads the ITLB and the L2) waits for the earlier members' work; and a member whose work may change the trace
// cache (Work::General, Work::Store: a store may hit code) is delivered and does its work before anything after
// it is delivered.
//
// When delivery of the whole run came from the trace cache and nothing before the last member can change the
// trace cache, what it did is kept (TraceCache::RunMemo): the next time the run starts from the same place in the
// same trace-cache epoch it is delivered again in one step, then the members do their work in order. Delivery
// only moves the cursor and the lines' LRU order, which the members' work does not read, so doing all delivery
// first is the same as interleaving it.
//
// Every member needs a stable plan (PlanStore). Group plans stay valid until Core::reset(). Freestanding:
// fixed-size arrays.
#pragma once

#include <cstdint>

#include "emulator/core/trace_cache.h"
#include "emulator/core/uop_decode.h"

namespace netburst::emu {

struct GroupPlan {
    static constexpr unsigned kMaxMembers = 16;  // at most 31 (GroupPlan::working)
    unsigned size;
    const UopPlan* plans[kMaxMembers];    // stable plans (PlanStore)
    std::uint64_t pc[kMaxMembers];
    // What the trace cache compares (TraceCache::deliver_run, which reads four entries at a time: zero padding).
    std::uint16_t pc_low[kMaxMembers + 4];
    // The members with work after delivery (FunctionalPlan::work is not None), one bit each, and how far
    // delivery may run ahead of the work from each member: to the first member with Work::General or
    // Work::Store, included.
    std::uint32_t working;
    std::uint8_t run_end[kMaxMembers];
    // The same members in order with their work (FunctionalPlan::Work as a byte), for replay.
    unsigned num_working;
    std::uint8_t work_member[kMaxMembers];
    std::uint8_t work_kind[kMaxMembers];
    // Executions not yet added to the members' plans, per qualifier (FunctionalSink), and the sink generation
    // they count for (the members' plans were prepared for it).
    mutable std::uint64_t pending[4];
    mutable std::uint64_t generation;
    // The run's delivery the last time it was recorded (see above).
    mutable TraceCache::RunMemo memo;
};

class GroupStore {
public:
    static constexpr unsigned kCapacity = 4096;

    void reset() {
        count_ = 0;
        for (std::uint16_t& s : slots_) s = 0;
    }
    // The group plan of the run (its members' stable plans and addresses), made on first use; nullptr when the
    // store is full. The caller has checked the members (see above) and signed their plans.
    const GroupPlan* get(const UopPlan* const* plans, const std::uint64_t* pcs, unsigned size) {
        if (size < 2 || size > GroupPlan::kMaxMembers) return nullptr;
        unsigned h = slot_of(pcs[0], size);
        for (;; h = (h + 1) & (kSlots - 1)) {
            if (slots_[h] == 0) break;
            if (same(groups_[slots_[h] - 1], plans, pcs, size)) return &groups_[slots_[h] - 1];
        }
        if (count_ == kCapacity) return nullptr;
        GroupPlan& g = groups_[count_];
        g.size = size;
        g.working = 0;
        g.num_working = 0;
        for (std::uint16_t& low : g.pc_low) low = 0;
        for (unsigned k = 0; k < size; ++k) {
            g.plans[k] = plans[k];
            g.pc[k] = pcs[k];
            g.pc_low[k] = static_cast<std::uint16_t>(pcs[k]);
            const FunctionalPlan::Work work = plans[k]->functional.work;
            if (work != FunctionalPlan::Work::None) {
                g.working |= 1u << k;
                g.work_member[g.num_working] = static_cast<std::uint8_t>(k);
                g.work_kind[g.num_working++] = static_cast<std::uint8_t>(work);
            }
        }
        for (unsigned k = size; k-- > 0;) {
            const FunctionalPlan::Work work = plans[k]->functional.work;
            const bool barrier = work == FunctionalPlan::Work::General || work == FunctionalPlan::Work::Store ||
                                 k + 1 == size;
            g.run_end[k] = static_cast<std::uint8_t>(barrier ? k + 1 : g.run_end[k + 1]);
        }
        for (std::uint64_t& n : g.pending) n = 0;
        g.generation = 0;
        g.memo = TraceCache::RunMemo{};
        slots_[h] = static_cast<std::uint16_t>(count_ + 1);
        return &groups_[count_++];
    }
    unsigned size() const { return count_; }
    const GroupPlan& operator[](unsigned i) const { return groups_[i]; }

private:
    static constexpr unsigned kSlotBits = 13;
    static constexpr unsigned kSlots = 1u << kSlotBits;  // twice the capacity: short probes
    static unsigned slot_of(std::uint64_t pc, unsigned size) {
        return static_cast<unsigned>(((pc ^ size) * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits));
    }
    static bool same(const GroupPlan& g, const UopPlan* const* plans, const std::uint64_t* pcs, unsigned size) {
        if (g.size != size) return false;
        for (unsigned k = 0; k < size; ++k)
            if (g.plans[k] != plans[k] || g.pc[k] != pcs[k]) return false;
        return true;
    }

    unsigned count_ = 0;
    std::uint16_t slots_[kSlots];  // group index + 1, 0 when empty
    GroupPlan groups_[kCapacity];
};

}  // namespace netburst::emu
