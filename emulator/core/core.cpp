// Core: reset and the logical-processor bookkeeping. The stages live in core_frontend.cpp (delivery, trace cache,
// TC_deliver_mode), core_walker.h (allocation, execution, retirement; driven by core_backend.cpp), core_memory.h
// (loads, stores, branches), core_wrong_path.cpp (bogus uops) and core_cycles.cpp (cycle intervals and the
// frontier).
#include "emulator/core/core.h"

#include <cstring>

namespace netburst::emu {

void Core::reset(const CoreConfig& config) {
    cfg_ = config;
    if (cfg_.rob_entries > 128) cfg_.rob_entries = 128;
    if (cfg_.load_buffers > 64) cfg_.load_buffers = 64;
    if (cfg_.store_buffers > 64) cfg_.store_buffers = 64;
    if (cfg_.rob_entries < 2) cfg_.rob_entries = 2;
    if (cfg_.load_buffers < 2) cfg_.load_buffers = 2;
    if (cfg_.store_buffers < 2) cfg_.store_buffers = 2;
    if (cfg_.deliver_width == 0) cfg_.deliver_width = 1;
    if (cfg_.rom_width == 0) cfg_.rom_width = 1;
    if (cfg_.frontier_step == 0) cfg_.frontier_step = 1;
    if (cfg_.rom_record_cap < 2) cfg_.rom_record_cap = 2;
    if (cfg_.rom_record_cap > Outcome::kMaxUops / 2) cfg_.rom_record_cap = Outcome::kMaxUops / 2;
    if (cfg_.replay_cycles == 0) cfg_.replay_cycles = 1;
    // The queue and scheduler rings hold 64 entries (the fast-ALU pool is twice sched_entries).
    if (cfg_.mem_queue_entries > 64) cfg_.mem_queue_entries = 64;
    if (cfg_.gen_queue_entries > 64) cfg_.gen_queue_entries = 64;
    if (cfg_.sched_entries > 32) cfg_.sched_entries = 32;
    if (cfg_.fp_sched_entries > 64) cfg_.fp_sched_entries = 64;

    for (unsigned t = 0; t < 2; ++t) {
        Thread& th = threads_[t];
        th.active = t == 0 || cfg_.machine.hyper_threading;
        th.next_fetch = 0;
        th.last_decode = 0;
        th.fetch_mode = FrontMode::Deliver;
        th.code_block = ~std::uint64_t{0};
        th.modes = ModeLog{};
        th.modes.at_emitted = th.modes.current = th.active ? FrontMode::Deliver : FrontMode::Idle;
        std::memset(th.reg_ready, 0, sizeof th.reg_ready);
        std::memset(th.reg_spec, 0, sizeof th.reg_spec);
        for (Tick& late : th.reg_late) late = kOnTime;
        th.x87_top = 0;
        th.uop_seq = th.load_seq = th.store_seq = 0;
        std::memset(th.rob_free, 0, sizeof th.rob_free);
        std::memset(th.lb_free, 0, sizeof th.lb_free);
        std::memset(th.sb_free, 0, sizeof th.sb_free);
        std::memset(th.queue_seq, 0, sizeof th.queue_seq);
        std::memset(th.sched_seq, 0, sizeof th.sched_seq);
        std::memset(th.queue_free, 0, sizeof th.queue_free);
        std::memset(th.sched_free, 0, sizeof th.sched_free);
        std::memset(th.queue_last, 0, sizeof th.queue_last);
        th.stores.reset();
        th.last_alloc = th.last_retire = th.last_commit = 0;
        th.commit_slot = 0;
        th.load_barrier = 0;
        th.last_load_done = 0;
        th.recent_pos = th.recent_count = 0;
        th.running_emitted = 0;
        th.queue_cycle = 0;
        th.queue_bit = th.queue_count = 0;
        th.queue_cpl = 3;
        th.pending.reset();
        th.cpl = 3;
        th.stats = Stats{};
        th.detail = DetailStats{};
        itlb_[t].reset(cfg_.itlb_entries, cfg_.itlb_ways);
    }
    walk_ = WalkParams{cfg_.fetch_to_alloc, cfg_.alloc_to_exec, cfg_.retire_delay,
                       cfg_.fetch_to_alloc + cfg_.uop_queue_cycles, cfg_.rob_entries, cfg_.load_buffers,
                       cfg_.store_buffers,
                       {cfg_.mem_queue_entries, cfg_.gen_queue_entries},
                       {2u * cfg_.sched_entries, cfg_.fp_sched_entries, cfg_.fp_sched_entries, cfg_.sched_entries},
                       to_ticks(cfg_.replay_cycles), cfg_.frontier_step, cfg_.rom_record_cap};
    plans_.reset(&cfg_);
    stable_plans_.reset(&cfg_);
    groups_.reset();
    tc_.reset(cfg_.tc_lines, cfg_.tc_ways);
    bp_.reset(cfg_.btb_entries, cfg_.btb_ways, cfg_.rsb_entries);
    dtlb_.reset(cfg_.dtlb_entries);
    mem_.reset(cfg_);
    fetch_bw_.reset(cfg_.deliver_width, cfg_.deliver_period, cfg_.deliver_period_uops);
    alloc_bw_.reset(cfg_.alloc_width == 0 ? 1 : cfg_.alloc_width);
    retire_bw_.reset(cfg_.retire_width == 0 ? 1 : cfg_.retire_width);
    port0_.reset();
    port1_.reset();
    load_port_.reset();
    sta_port_.reset();
    fp_unit_.reset();
    mmx_shift_unit_.reset();
    mul_unit_.reset();
    slow_alu_.reset();
    divider_free_ = 0;
    busy_turn_ = 0;
    modes_emitted_ = 0;
    published_frontier_ = 0;
    std::memset(code_regions_, 0xFF, sizeof code_regions_);
    last_thread_ = 0;
    executed_ = 0;
    functional_who_ = kNobody;
    timing_stale_ = false;
    thread_mask_ = cfg_.machine.hyper_threading ? 1u : 0u;
    update_single_ok();
}

unsigned Core::next_thread(bool thread0_has_more, bool thread1_has_more) const {
    if (!cfg_.machine.hyper_threading || !thread1_has_more) return 0;
    if (!thread0_has_more) return 1;
    const Cycle f0 = threads_[0].next_fetch, f1 = threads_[1].next_fetch;
    if (f0 != f1) return f0 < f1 ? 0 : 1;
    return last_thread_ == 0 ? 1 : 0;  // a tie: take turns
}

void Core::open_outcome(unsigned t, Outcome* out, EventSink* sink) {
    Thread& th = threads_[t];
    out->clear();
    out->thread = static_cast<std::uint8_t>(t);
    out->cpl = th.cpl;
    out->pc = 0;
    sink->bind(out, &th.pending);
    th.pending.drain(out);
}

void Core::stop_thread(unsigned thread, Outcome* out) {
    const unsigned t = thread & 1u;
    Thread& th = threads_[t];
    EventSink sink;
    open_outcome(t, out, &sink);
    const Cycle stop = th.stats.instructions == 0 ? th.running_emitted : th.last_retire + 1;
    out->fetch = out->retire = stop;
    if (th.active) {
        // RUNNING up to the stop, then the logical processor is idle for TC_deliver_mode.
        if (stop > th.running_emitted) {
            sink.interval(th.running_emitted, stop, EventId::GlobalPowerEvents, 0);
            th.running_emitted = stop;
        }
        set_mode(th, FrontMode::Idle, stop > modes_emitted_ ? stop : modes_emitted_);
        th.active = false;
        update_single_ok();
    }
    publish(t, out, &sink, true);
    // Records that did not fit wait for the driver: serialize() drains them (has_pending()).
}

void Core::serialize(unsigned thread, Outcome* out) {
    const unsigned t = thread & 1u;
    Thread& th = threads_[t];
    EventSink sink;
    open_outcome(t, out, &sink);
    if (th.stats.instructions != 0 && th.next_fetch < th.last_retire + 1) th.next_fetch = th.last_retire + 1;
    out->fetch = out->retire = th.next_fetch;
    publish(t, out, &sink, true);
}

bool Core::privilege_flush_records(const Instruction& next, Outcome* out) {
    const unsigned t = next.thread & thread_mask_;
    Thread& th = threads_[t];
    // An Outcome without uops, of the old level, at the frontier already published (its records are all at or
    // after it: they were held back from it).
    EventSink sink;
    open_outcome(t, out, &sink);
    out->fetch = out->retire = th.next_fetch;
    if (th.pending.empty()) flush_queue_writes(th, &sink);
    out->frontier = published_frontier_;
    return true;
}

Cycle Core::now() const {
    const Cycle a = threads_[0].last_retire, b = threads_[1].last_retire;
    return a > b ? a : b;
}

Core::Stats Core::stats(unsigned thread) const {
    Stats s = threads_[thread & 1u].stats;
    // Executions the functional tier has not flushed yet (flush_functional).
    for (unsigned i = 0; i < stable_plans_.size(); ++i) {
        const UopPlan& plan = stable_plans_[i];
        for (unsigned q = (thread & 1u) * 2; q < (thread & 1u) * 2 + 2; ++q) {
            s.instructions += plan.functional.pending[q];
            s.uops_retired += plan.functional.pending[q] * plan.total_uops;
        }
    }
    return s;
}

void Core::advance_time() {
    // Every future reservation starts at or after the oldest active thread's allocation point.
    Cycle base = ~Cycle{0};
    for (const Thread& th : threads_)
        if (th.active && th.stats.instructions != 0 && th.last_alloc < base) base = th.last_alloc;
    if (base == ~Cycle{0}) return;
    const Tick tick = to_ticks(base);
    port0_.advance(tick);
    port1_.advance(tick);
    load_port_.advance(tick);
    sta_port_.advance(tick);
    fp_unit_.advance(tick);
    mmx_shift_unit_.advance(tick);
    mul_unit_.advance(tick);
    slow_alu_.advance(tick);
    mem_.advance(tick);
}

}  // namespace netburst::emu
