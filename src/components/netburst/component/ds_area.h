// The event set's DS save area, kept as a driver keeps it for PEBS (the 64-bit layout, table/msr_map.h): set up
// before a start, rewound by a reset, and read for the PEBS counter's count and for its records. The PMU writes
// the area behind the compiler's back, so its fields are read and written as volatile.
#pragma once

#include <cstdint>

#include "component/glue_api.h"

namespace netburst::component {

std::uint64_t ds_address(const nb_event_set* set);
std::uint64_t ds_field(const nb_event_set* set, unsigned offset);
void set_ds_field(nb_event_set* set, unsigned offset, std::uint64_t value);

// The DS save area as a driver sets it up, at the set's address now (PAPI keeps the set where it is while it runs).
void prepare_pebs_area(nb_event_set* set);

// The buffer emptied, as after a reset: its records are of counts the reset drops.
void rewind_pebs_area(nb_event_set* set);

// The PEBS counter of an armed set: the counter reloads itself after every record, so its count is the records
// written (each stands for a period: period - 1 counted events and the sampled one) plus what it counted since
// the last reload.
bool pebs_counting(const nb_event_set* set, unsigned c);
std::uint64_t pebs_total(const nb_event_set* set, std::uint64_t raw);

}  // namespace netburst::component
