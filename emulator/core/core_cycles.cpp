// Cycle-based events and the frontier.
//
// global_power_events:RUNNING is emitted per logical processor as intervals, in that processor's own Outcomes
// (an interval belongs to the Outcome's thread), up to the retirement of its latest instruction: the processor
// is certainly running until then. TC_deliver_mode is emitted up to the earliest next delivery cycle of the
// active logical processors: before that cycle every processor's mode is known.
//
// The frontier is the earliest cycle a later Outcome can carry a record at: the least of the TC_deliver_mode
// emission point, each active processor's RUNNING emission point (its next interval starts there; both are at
// or below its next delivery cycle, where its next instruction's records start) and the oldest record still
// waiting in a processor's overflow queue. Each term only grows, so the frontier never decreases.
//
// CoreConfig::frontier_step: these intervals are emitted (and the frontier moved) only once they would extend by
// at least that many cycles, which keeps most Outcomes free of cycle records. Instructions that serialise
// (Microcode, Syscall) and stopping a logical processor always emit everything, so an MSR access sees every cycle
// before it.
#include "emulator/core/core.h"

namespace netburst::emu {

void Core::publish(unsigned t, Outcome* out, EventSink* sink, bool force) {
    Thread& th = threads_[t];
    const Cycle step = cfg_.frontier_step;
    // Common case first: neither this thread's RUNNING nor (since the earliest front end is at or before this
    // thread's) TC_deliver_mode has moved a step.
    if (!force && th.last_retire + 1 < th.running_emitted + step && th.next_fetch < modes_emitted_ + step) {
        out->frontier = published_frontier_;
        return;
    }
    // Between publications the frontier stays where it was (a lower bound is still true), which keeps the
    // common path to a few compares.
    Cycle until = ~Cycle{0};
    for (const Thread& other : threads_)
        if (other.active && other.next_fetch < until) until = other.next_fetch;
    const bool modes_due = until != ~Cycle{0} && until > modes_emitted_ && (force || until - modes_emitted_ >= step);
    const Cycle up_to = th.last_retire + 1;
    const bool running_due = th.active && th.stats.instructions != 0 && up_to > th.running_emitted &&
                             (force || up_to - th.running_emitted >= step);
    if (!modes_due && !running_due && !force) {
        out->frontier = published_frontier_;
        return;
    }
    // The gathered uop_queue_writes record must not fall behind the new frontier.
    flush_queue_writes(th, sink);
    if (running_due) {
        sink->interval(th.running_emitted, up_to, EventId::GlobalPowerEvents, 0);
        th.running_emitted = up_to;
    }
    if (modes_due) emit_modes(until, sink);
    published_frontier_ = frontier();
    out->frontier = published_frontier_;
}

Cycle Core::frontier() const {
    Cycle f = modes_emitted_;
    for (const Thread& th : threads_) {
        if (th.active && th.running_emitted < f) f = th.running_emitted;
        if (th.queue_count != 0 && th.queue_cycle < f) f = th.queue_cycle;
        f = th.pending.earliest(f);
    }
    return f;
}

}  // namespace netburst::emu
