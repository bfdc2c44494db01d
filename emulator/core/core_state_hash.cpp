// Core::timing_state: every part of the timing state a later instruction can read, relative to the logical
// processor's next delivery cycle. The functional state (caches' lines, TLBs, predictors, trace cache) is not in it:
// a memo takes what those answer for each instruction as part of its key instead.
#include "emulator/core/core.h"
#include "emulator/core/state_hash.h"

namespace netburst::emu {

Core::TimingState Core::timing_state(unsigned thread) const {
    const unsigned t = thread & thread_mask_;
    const Thread& th = threads_[t];
    StateHash h(to_ticks(th.next_fetch));
    h.add(t);
    h.add(smt_shared());
    h.add(th.active);
    h.add(th.cpl);
    h.add_cycle(th.last_decode);
    h.add(static_cast<unsigned>(th.fetch_mode));
    h.add(static_cast<unsigned>(th.modes.current));
    h.add(static_cast<unsigned>(th.modes.at_emitted));
    for (unsigned n = th.modes.head; n != th.modes.tail; ++n) {  // head and tail count; the slot is n % kMax
        const unsigned i = n % ModeLog::kMax;
        h.add_cycle(th.modes.when[i]);
        h.add(static_cast<unsigned>(th.modes.mode[i]));
    }
    for (unsigned r = 0; r < 64; ++r) {
        h.add_tick(th.reg_ready[r]);
        h.add_tick(th.reg_spec[r]);
        if (th.reg_late[r] == kOnTime) h.add(kOnTime);  // not a time: the value is not late
        else h.add_tick(th.reg_late[r]);
    }
    h.add(th.x87_top);
    // The buffers' entries in the order the next uops reuse them.
    for (unsigned k = 0; k < 128; ++k) h.add_cycle(th.rob_free[(th.uop_seq + k) & 127]);
    for (unsigned k = 0; k < 64; ++k) h.add_cycle(th.lb_free[(th.load_seq + k) & 63]);
    for (unsigned k = 0; k < 64; ++k) h.add_cycle(th.sb_free[(th.store_seq + k) & 63]);
    for (unsigned q = 0; q < 2; ++q) {
        for (unsigned k = 0; k < 64; ++k) h.add_cycle(th.queue_free[q][(th.queue_seq[q] + k) & 63]);
        h.add_cycle(th.queue_last[q]);
    }
    for (unsigned s = 0; s < 4; ++s)
        for (unsigned k = 0; k < 64; ++k) h.add_cycle(th.sched_free[s][(th.sched_seq[s] + k) & 63]);
    th.stores.hash_future(&h);
    h.add_cycle(th.last_alloc);
    h.add_cycle(th.last_retire);
    h.add_cycle(th.last_commit);
    const std::uint64_t slot_now = th.next_fetch * cfg_.store_commit_stores;
    h.add(th.commit_slot > slot_now ? th.commit_slot - slot_now : 0);
    h.add_tick(th.load_barrier);
    h.add_tick(th.last_load_done);
    // The recent instructions' plans, the wrong path's patterns: by shape (a plan outside the stable store, for a
    // program with too many shapes, by address).
    for (unsigned k = 0; k < th.recent_count; ++k) {
        const UopPlan* plan = th.recent[(th.recent_pos + 15 - k) & 15];
        h.add(stable_plans_.holds(*plan) ? stable_plans_.shape_of(*plan) : reinterpret_cast<std::uintptr_t>(plan));
    }
    h.add_cycle(th.running_emitted);
    h.add_cycle(th.queue_cycle);
    h.add(th.queue_bit);
    h.add(th.queue_count);
    h.add(th.queue_cpl);
    h.add(th.pending.size());
    fetch_bw_.hash_cursor(t, &h);
    alloc_bw_.hash_cursor(t, &h);
    retire_bw_.hash_cursor(t, &h);
    const TickRing* const rings[] = {&port0_, &port1_, &load_port_, &sta_port_, &fp_unit_, &mul_unit_, &slow_alu_,
                                     &mmx_shift_unit_};
    // No reservation is made before the allocation point (advance_time); the bits before it are whatever the last
    // advance left, so they are not state.
    const Tick from = to_ticks(th.last_alloc);
    for (const TickRing* ring : rings) ring->hash_future(&h, from);
    h.add_tick(divider_free_);
    h.add(busy_turn_);
    h.add_cycle(modes_emitted_);
    h.add_cycle(published_frontier_);
    mem_.hash_future(&h, from);
    return {h.value(), h.reference()};
}

}  // namespace netburst::emu
