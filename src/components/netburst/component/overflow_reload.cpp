#include "component/overflow_reload.h"

#include <atomic>

#include "component/event_set.h"
#include "component/pebs_samples.h"
#include "component/set_state.h"
#include "table/msr_map.h"

namespace netburst::component {

int set_event_set_overflow(ComponentState& component, nb_event_set* set, unsigned event, long long threshold) {
    if (event >= set->num_events || threshold < 0 || threshold > (1ll << 31) || set->running) return NB_STATUS_INVALID;
    if (component.backend().interrupt_signal() == 0 || !component.cpu().per_thread_pmu) return NB_STATUS_UNSUPPORTED;
    const unsigned c = static_cast<unsigned>(set->counter_of[event]);
    if (nb_event_set_counter_is_pebs(set, static_cast<int>(c)))
        return set_pebs_overflow(set, c, threshold);
    const bool interrupt = threshold > 0;
    const std::uint64_t cccr = cccr_with_overflow_interrupt(set->cccr[c], interrupt, set->logical_processor);
    const std::uint64_t start = interrupt ? overflow_start_value(static_cast<std::uint64_t>(threshold)) : 0;
    // The start writes come from the encoder in the order it chose (counter value before CCCR enable); only the
    // two values of this counter change, in the PEBS-armed copy too.
    for (unsigned i = 0; i < set->num_start_writes; ++i) {
        if (set->start_writes[i].msr == kCounters[c].counter_msr) set->start_writes[i].value = start;
        if (set->start_writes[i].msr == kCounters[c].cccr_msr) set->start_writes[i].value = cccr;
    }
    for (unsigned i = 0; i < set->num_pebs_start_writes; ++i) {
        if (set->pebs_start_writes[i].msr == kCounters[c].counter_msr) set->pebs_start_writes[i].value = start;
        if (set->pebs_start_writes[i].msr == kCounters[c].cccr_msr) set->pebs_start_writes[i].value = cccr;
    }
    set->cccr[c] = cccr;
    set->threshold[c] = interrupt ? static_cast<std::uint64_t>(threshold) : 0;
    if (interrupt) set->overflow_counters |= counter_bit(c);
    else set->overflow_counters &= ~counter_bit(c);
    return NB_STATUS_OK;
}

int take_event_set_overflow(Backend& backend, nb_event_set* set, std::uint64_t* address, std::uint64_t* event_mask) {
    *event_mask = 0;
    // PEBS records first, one per call, whichever interrupt announced them: a buffer-threshold interrupt may have
    // been merged with another on the interrupt line, and a record may be written before its own interrupt.
    PebsNote note;
    if (set->running && set->pebs_armed && backend.take_pebs_record(&note) == IoStatus::Ok) {
        *address = 0;
        take_pebs_sample(set, note, address, event_mask);
        return NB_STATUS_OK;
    }
    Interrupt in;
    if (backend.take_interrupt(&in) != IoStatus::Ok) return NB_STATUS_NO_EVENT;
    *address = in.eip;
    CounterMask overflowed = in.overflowed;
    overflowed &= set->overflow_counters;
    if (!set->running || overflowed == 0) return NB_STATUS_OK;
    // The interrupt names every counter whose OVF flag was set when it was raised, and the flag stays set until a
    // handler reloads the counter. The signal comes late, so a counter that overflowed once can be named by the
    // interrupts of others raised meanwhile, after an earlier one reloaded it: only a counter that has wrapped since
    // its reload (its value below half the range: it started in the upper half) overflowed, as an x86 PMI
    // handler tells by the counter's top bit.
    std::uint64_t cccr[NB_NUM_COUNTERS] = {}, raw[NB_NUM_COUNTERS] = {};
    const IoStatus read = backend.read_counters(overflowed, cccr, raw);
    if (read != IoStatus::Ok) return io_status(read);
    for (CounterMask left = overflowed; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        if (!wrapped_since_start(raw[c])) overflowed &= ~counter_bit(c);
    }
    if (overflowed == 0) return NB_STATUS_OK;
    std::uint64_t events = 0;
    for (unsigned i = 0; i < set->num_events; ++i)
        if (overflowed & counter_bit(static_cast<unsigned>(set->counter_of[i]))) events |= std::uint64_t{1} << i;
    // Inside read, stop, reset or write on this set, the counts are half updated: the interrupted call reloads.
    if (set->busy) {
        set->reload_owed |= overflowed;
        std::atomic_signal_fence(std::memory_order_seq_cst);
    } else {
        const Busy busy(set);
        const IoStatus s = reload(backend, set, overflowed);
        if (s != IoStatus::Ok) return io_status(s);
    }
    *event_mask = events;
    return NB_STATUS_OK;
}

}  // namespace netburst::component
