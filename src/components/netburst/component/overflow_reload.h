// PAPI's hardware overflow on ordinary counters: an interrupting counter starts short of its wrap, and the
// handler (take_event_set_overflow, event_set.h) brings its count up to date and reloads it with the period minus
// the overrun (table/msr_map.h), at once or, when the interrupt came inside a call on the set, when that call ends.
#pragma once

#include "backend/backend.h"
#include "component/glue_api.h"

namespace netburst::component {

// Whether the set takes interrupts: ordinary overflow or PEBS.
bool interrupts(const nb_event_set* set);

// The counters that start short of their wrap, with their start values (the start writes hold them too).
void start_overflow_counters(nb_event_set* set);

// Reloads that an interrupt left to the call it interrupted (take_event_set_overflow); a new interrupt during
// one adds to the mask, so the loop runs until it is empty.
void settle_reloads(Backend& backend, nb_event_set* set);

}  // namespace netburst::component
