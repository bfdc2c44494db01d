// The event set's DS save area, kept as a driver keeps it for PEBS (this build's layout, table/msr_map.h): set up
// before a start, rewound by a reset, and read for the PEBS counter's count and for its records. The PMU writes
// the area behind the compiler's back, so its fields are read and written as volatile.
//
// Inline, as the overflow reload's helpers: start, read and stop run them around the counted window, and calls
// there would add instructions to every count (PAPI's validation tests bound that overhead).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include "component/glue_api.h"
#include "encode/program.h"
#include "table/msr_map.h"

namespace netburst::component {

inline std::uint64_t ds_address(const nb_event_set* set) { return reinterpret_cast<std::uintptr_t>(set->pebs_area); }

// A field of `bytes` bytes (a pointer field or a record's field: kDsFieldBytes; the counter reset: 8).
inline std::uint64_t ds_field(const nb_event_set* set, unsigned offset, unsigned bytes = kDsFieldBytes) {
    const volatile unsigned char* p = set->pebs_area + offset;
    std::uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    return v;
}

inline void set_ds_field(nb_event_set* set, unsigned offset, std::uint64_t value, unsigned bytes = kDsFieldBytes) {
    volatile unsigned char* p = set->pebs_area + offset;
    for (unsigned i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(value >> (8 * i));
}

// The DS save area as a driver sets it up, at the set's address now (PAPI keeps the set where it is while it runs).
inline void prepare_pebs_area(nb_event_set* set) {
    std::memset(set->pebs_area, 0, sizeof set->pebs_area);
    PebsArming arming;
    arming.ds_area = ds_address(set);
    arming.records = NB_PEBS_RECORDS;
    arming.period = set->pebs_period;
    const DsAreaFields f = pebs_ds_fields(arming);
    set_ds_field(set, kDsPebsBase, f.base);
    set_ds_field(set, kDsPebsIndex, f.index);
    set_ds_field(set, kDsPebsMaximum, f.maximum);
    set_ds_field(set, kDsPebsThreshold, f.threshold);
    set_ds_field(set, kDsPebsCounterReset, f.counter_reset, 8);
    for (unsigned i = 0; i < set->num_pebs_start_writes; ++i)
        if (set->pebs_start_writes[i].msr == kMsrDsArea) set->pebs_start_writes[i].value = arming.ds_area;
    set->pebs_records_before = 0;
    set->pebs_samples = 0;
}

// The buffer emptied, as after a reset: its records are of counts a reset drops.
inline void rewind_pebs_area(nb_event_set* set) {
    const std::uint64_t base = ds_address(set) + kDsManagementBytes;
    set_ds_field(set, kDsPebsIndex, base);
    set->pebs_records_before = 0;
}

// A PEBS sample's handler may interrupt this between its two reads, rewinding the buffer and counting what it
// held in pebs_records_before: the pair is read again until the handler did not run in between.
inline std::uint64_t pebs_records_written(const nb_event_set* set) {
    const std::uint64_t base = ds_address(set) + kDsManagementBytes;
    for (;;) {
        const std::uint64_t before = set->pebs_records_before;
        std::atomic_signal_fence(std::memory_order_seq_cst);
        const std::uint64_t index = ds_field(set, kDsPebsIndex);
        std::atomic_signal_fence(std::memory_order_seq_cst);
        if (before == set->pebs_records_before)
            return before + (index > base ? (index - base) / kPebsRecordBytes : 0);
    }
}

// The PEBS counter of an armed set: the counter reloads itself after every record, so its count is the records
// written (each stands for a period: period - 1 counted events and the sampled one) plus what it counted since
// the last reload.
inline bool pebs_counting(const nb_event_set* set, unsigned c) {
    return set->pebs_armed && nb_event_set_counter_is_pebs(set, static_cast<int>(c));
}

inline std::uint64_t pebs_total(const nb_event_set* set, std::uint64_t raw) {
    const std::uint64_t since_reload = (raw - pebs_start_value(set->pebs_period)) & kCounterValueMask;
    return pebs_records_written(set) * set->pebs_period + since_reload;
}

}  // namespace netburst::component
