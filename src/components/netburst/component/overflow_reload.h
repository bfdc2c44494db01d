// PAPI's hardware overflow on ordinary counters: an interrupting counter starts short of its wrap, and the
// handler (take_event_set_overflow, event_set.h) brings its count up to date and reloads it with the period minus
// the overrun (table/msr_map.h), at once or, when the interrupt came inside a call on the set, when that call ends.
// The helpers are inline: read and start run them around the counted window (ds_area.h says why that matters).
#pragma once

#include <atomic>

#include "backend/backend.h"
#include "component/glue_api.h"
#include "component/set_state.h"
#include "table/msr_map.h"

namespace netburst::component {

// Whether the set takes interrupts: ordinary overflow or PEBS.
inline bool interrupts(const nb_event_set* set) { return set->overflow_counters != 0 || set->pebs_armed; }

// The counters that start short of their wrap, with their start values (the start writes hold them too).
inline void start_overflow_counters(nb_event_set* set) {
    for (CounterMask left = set->overflow_counters; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        set->last_raw[c] = overflow_start_value(set->threshold[c]);
    }
    set->reload_owed = 0;
}

// The handler's work for an overflow of the counters in `mask`: their counts brought up to date, then each counter
// started again so that it wraps `threshold` events after the previous wrap, counting the events that came while
// the interrupt was on its way (what is left of the period, or a whole one when more than a period went by), and
// its OVF flag cleared. The few events between the read and the write (the handler's own instructions, for an
// instruction count) are not counted.
inline IoStatus reload(Backend& backend, nb_event_set* set, CounterMask mask) {
    std::uint64_t cccr[NB_NUM_COUNTERS] = {}, raw[NB_NUM_COUNTERS] = {};
    IoStatus s = backend.read_counters(mask, cccr, raw);
    if (s != IoStatus::Ok) return s;
    for (CounterMask left = mask; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        fold(set, c, cccr[c], raw[c]);
        const std::uint64_t start = overflow_reload_value(set->threshold[c], raw[c]);
        s = backend.write_msr(kCounters[c].counter_msr, start);
        if (s == IoStatus::Ok) s = backend.write_msr(kCounters[c].cccr_msr, set->cccr[c]);
        if (s != IoStatus::Ok) return s;
        set->last_raw[c] = start;
    }
    return IoStatus::Ok;
}

// Reloads that an interrupt left to the call it interrupted (take_event_set_overflow); a new interrupt during
// one adds to the mask, so the loop runs until it is empty.
inline void settle_reloads(Backend& backend, nb_event_set* set) {
    for (;;) {
        std::atomic_signal_fence(std::memory_order_seq_cst);
        const CounterMask owed = set->reload_owed;
        if (owed == 0) return;
        set->reload_owed = 0;
        std::atomic_signal_fence(std::memory_order_seq_cst);
        if (set->running) reload(backend, set, owed);
    }
}

}  // namespace netburst::component
