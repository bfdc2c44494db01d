// PEBS on the set's :precise event: PAPI_overflow arms it (the encoder's writes, with the DS save area's address
// put in at start), and each record the backend notes becomes the set's current sample (papi_netburst.h).
#pragma once

#include <cstdint>

#include "backend/backend.h"
#include "component/glue_api.h"

namespace netburst::component {

// PAPI_overflow on the :precise event: PEBS every `threshold`-th event (0: no longer). The armed writes come from
// the encoder (encode/program.h); start puts the set's DS save area's address in them.
int set_pebs_overflow(nb_event_set* set, unsigned counter, long long threshold);

// A PEBS record the backend noted becomes the set's current sample, dispatched at its EIP to the :precise event
// (and any other spelling of it in the set). When the backend rewound the buffer after it, what the buffer held
// counts toward the event's total from now on.
void take_pebs_sample(nb_event_set* set, const PebsNote& note, std::uint64_t* address, std::uint64_t* event_mask);

}  // namespace netburst::component
