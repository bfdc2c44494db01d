#include "component/ds_area.h"

#include <atomic>
#include <cstring>

#include "encode/program.h"
#include "table/msr_map.h"

namespace netburst::component {

namespace {

// A PEBS sample's handler may interrupt this between its two reads, rewinding the buffer and counting what it
// held in pebs_records_before: the pair is read again until the handler did not run in between.
std::uint64_t pebs_records_written(const nb_event_set* set) {
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

}  // namespace

std::uint64_t ds_field(const nb_event_set* set, unsigned offset) {
    const volatile unsigned char* p = set->pebs_area + offset;
    std::uint64_t v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    return v;
}

void set_ds_field(nb_event_set* set, unsigned offset, std::uint64_t value) {
    volatile unsigned char* p = set->pebs_area + offset;
    for (unsigned i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(value >> (8 * i));
}

std::uint64_t ds_address(const nb_event_set* set) { return reinterpret_cast<std::uintptr_t>(set->pebs_area); }

void prepare_pebs_area(nb_event_set* set) {
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
    set_ds_field(set, kDsPebsCounterReset, f.counter_reset);
    for (unsigned i = 0; i < set->num_pebs_start_writes; ++i)
        if (set->pebs_start_writes[i].msr == kMsrDsArea) set->pebs_start_writes[i].value = arming.ds_area;
    set->pebs_records_before = 0;
    set->pebs_samples = 0;
}

void rewind_pebs_area(nb_event_set* set) {
    const std::uint64_t base = ds_address(set) + kDsManagementBytes;
    set_ds_field(set, kDsPebsIndex, base);
    set->pebs_records_before = 0;
}

bool pebs_counting(const nb_event_set* set, unsigned c) {
    return set->pebs_armed && nb_event_set_counter_is_pebs(set, static_cast<int>(c));
}

std::uint64_t pebs_total(const nb_event_set* set, std::uint64_t raw) {
    const std::uint64_t since_reload = (raw - pebs_start_value(set->pebs_period)) & kCounterValueMask;
    return pebs_records_written(set) * set->pebs_period + since_reload;
}

}  // namespace netburst::component
