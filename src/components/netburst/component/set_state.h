// What the jobs of an event set share (event_set.cpp, overflow_reload.cpp, pebs_samples.cpp): its 64-bit counts
// brought up to date from a counter read, the busy mark against PAPI's signal handlers, and the conversions of MSR
// writes and backend statuses into the set's terms.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "backend/backend.h"
#include "component/counter_extension.h"
#include "component/ds_area.h"
#include "component/glue_api.h"
#include "encode/program.h"
#include "table/msr_map.h"

namespace netburst::component {

inline bool copy_writes(const std::vector<MsrWrite>& from, nb_msr_write* to, std::uint16_t* count) {
    if (from.size() > NB_MAX_WRITES) return false;
    for (std::size_t i = 0; i < from.size(); ++i) to[i] = nb_msr_write{from[i].msr, 0, from[i].value};
    *count = static_cast<std::uint16_t>(from.size());
    return true;
}

inline int io_status(IoStatus s) {
    switch (s) {
    case IoStatus::Ok: return NB_STATUS_OK;
    case IoStatus::Unsupported: return NB_STATUS_UNSUPPORTED;
    case IoStatus::Fault:
    case IoStatus::Unavailable: return NB_STATUS_SYSTEM;
    }
    return NB_STATUS_SYSTEM;
}

// One counter: the events since the previous read, then the OVF flag acknowledged (see counter_extension.h).
// The CCCR was read before the counter (Backend::read_counters): a wrap between the two reads shows as raw < last
// with the flag still clear, and is acknowledged here too, so the flag never reports a wrap that was already counted.
// Adds the events since the previous read to the 64-bit total; true when the CCCR's OVF flag needs acknowledging.
// A counter that interrupts (overflow_counters) is different: only the interrupt's handler acknowledges its OVF
// flag (clearing it cancels a PMI still owed, emulator/pmu), so its flag says nothing about what the previous
// read saw. It starts at most 2^31 events short of the wrap, so its one wrap per period always ends below last.
// Inline: read and stop run it for every counter, in the program's own instructions.
inline bool fold(nb_event_set* set, unsigned c, std::uint64_t cccr, std::uint64_t raw) {
    raw &= kCounterValueMask;
    if (pebs_counting(set, c)) {
        set->total[c] = pebs_total(set, raw);
        set->last_raw[c] = raw;
        return false;
    }
    if (set->overflow_counters & counter_bit(c)) {
        set->total[c] += counter_delta(set->last_raw[c], raw, false);
        set->last_raw[c] = raw;
        return false;
    }
    const bool overflowed = cccr_overflowed(cccr);
    set->total[c] += counter_delta(set->last_raw[c], raw, overflowed);
    const bool acknowledge = overflowed || raw < set->last_raw[c];
    set->last_raw[c] = raw;
    return acknowledge;
}

// PAPI's software overflow reads the running set from its timer's signal handler, and the signal can interrupt
// the thread inside another call on the same set: PAPI_stop reads and stops the set before it stops the timer, and
// PAPI_read, PAPI_reset and PAPI_write may run while the timer does. Sampling the half-updated state there would
// count events twice, or take a counter the stop has cleared for a 40-bit wrap (2^40 events). So these calls mark
// the set busy, and a read that finds it busy hands PAPI the values of the last completed read: real counts from
// a moment earlier, which the next tick brings up to date. (A read that interrupts publish_values sees each
// event's count from one of the two reads.) The handler runs to completion on the same thread before the
// interrupted call goes on, so a compiler fence orders the flag; no other thread touches the set.
class Busy {
public:
    explicit Busy(nb_event_set* set) : set_(set), was_(set->busy) {
        set_->busy = 1;
        std::atomic_signal_fence(std::memory_order_seq_cst);
    }
    ~Busy() {
        std::atomic_signal_fence(std::memory_order_seq_cst);
        set_->busy = was_;
    }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;

private:
    nb_event_set* set_;
    std::uint8_t was_;
};

}  // namespace netburst::component
