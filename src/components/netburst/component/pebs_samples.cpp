#include "component/pebs_samples.h"

#include <atomic>
#include <vector>

#include "component/ds_area.h"
#include "component/set_state.h"
#include "encode/program.h"
#include "table/msr_map.h"

namespace netburst::component {

int set_pebs_overflow(nb_event_set* set, unsigned counter, long long threshold) {
    if (threshold == 0) {
        set->pebs_armed = 0;
        return NB_STATUS_OK;
    }
    if (threshold < 2) return NB_STATUS_INVALID;  // the sampled event is the one after the overflow
    PebsArming arming;
    arming.records = NB_PEBS_RECORDS;
    arming.period = static_cast<std::uint64_t>(threshold);
    std::vector<MsrWrite> start, stop;
    for (unsigned i = 0; i < set->num_start_writes; ++i)
        start.push_back({set->start_writes[i].msr, set->start_writes[i].value});
    for (unsigned i = 0; i < set->num_stop_writes; ++i)
        stop.push_back({set->stop_writes[i].msr, set->stop_writes[i].value});
    if (!copy_writes(pebs_start_writes(start, counter, arming), set->pebs_start_writes, &set->num_pebs_start_writes) ||
        !copy_writes(pebs_stop_writes(stop), set->pebs_stop_writes, &set->num_pebs_stop_writes))
        return NB_STATUS_INVALID;
    set->pebs_period = arming.period;
    set->pebs_armed = 1;
    return NB_STATUS_OK;
}

void take_pebs_sample(nb_event_set* set, const PebsNote& note, std::uint64_t* address, std::uint64_t* event_mask) {
    const std::uint64_t base = ds_address(set) + kDsManagementBytes;
    const std::uint64_t end = base + std::uint64_t{NB_PEBS_RECORDS} * kPebsRecordBytes;
    if (note.record < base || note.record + kPebsRecordBytes > end || (note.record - base) % kPebsRecordBytes != 0)
        return;  // not this set's buffer
    papi_netburst_pebs_sample sample{};
    const unsigned offset = static_cast<unsigned>(note.record - ds_address(set));
    for (unsigned f = 0; f < kPebsRecordFields; ++f) sample.field[f] = ds_field(set, offset + kDsFieldBytes * f);
    sample.valid = note.valid;
    sample.has_data_address = note.data_address != 0;
    sample.data_address = note.data_address;
    sample.sequence = ++set->pebs_samples;
    set->pebs_last = sample;
    set->pebs_records_before += note.rewound;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    *address = sample.field[PAPI_NETBURST_EIP];
    for (unsigned i = 0; i < set->num_events; ++i)
        if (set->counter_of[i] == set->counter_of[set->pebs_event]) *event_mask |= std::uint64_t{1} << i;
}

}  // namespace netburst::component
