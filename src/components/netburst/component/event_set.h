// An event set's life: scheduled when PAPI changes its events or domain, then started, read, reset, written and
// stopped through the backend. The set is the POD nb_event_set (glue_api.h); these functions are its methods.
//
// Scheduling (update) allocates; everything after it does not, and only touches the set and the backend.
//
// event_set.cpp holds the set's life; the DS save area (ds_area.h), the overflow reload (overflow_reload.h) and the
// PEBS samples (pebs_samples.h) have files of their own, and set_state.h what they share.
#pragma once

#include <string>

#include "backend/backend.h"
#include "component/component.h"
#include "component/glue_api.h"

namespace netburst::component {

void init_event_set(nb_event_set* set, int domain);

// Places `codes` (PAPI's native events, in order) on the PMU for logical processor `logical_processor` and keeps
// the resulting MSR writes. Duplicate codes share a counter. On failure the set is unchanged and *why says why:
// NB_STATUS_CONFLICT carries the allocator's explanation of the colliding resource, NB_STATUS_UNSUPPORTED names an
// event the emulator does not model. That is known only by programming the set, which happens when `may_program`
// (no other event set of the calling thread is running) and the backend is the emulator's per-thread PMU; the PMU
// is left disabled and cleared, as after a stop.
int update_event_set(ComponentState& component, nb_event_set* set, unsigned logical_processor, const unsigned* codes,
                     unsigned num_codes, bool may_program, std::string* why);

// Changes the domain and schedules the events again; on failure the old domain stays.
int set_event_set_domain(ComponentState& component, nb_event_set* set, unsigned logical_processor, int domain,
                         bool may_program, std::string* why);

// Programs the PMU and starts counting from zero. Fails (and leaves the PMU as it was) when the backend refuses a
// write or cannot measure a programmed counter; *why names the event.
int start_event_set(ComponentState& component, nb_event_set* set, std::string* why);

// Reads the final counts, then disables and clears every register the set programmed.
int stop_event_set(Backend& backend, nb_event_set* set);

// Brings set->total and set->values up to date (64-bit counts); a stopped set keeps its last values.
int read_event_set(Backend& backend, nb_event_set* set);

int reset_event_set(Backend& backend, nb_event_set* set);
// nb_event_set_intervals (glue_api.h): each event's half-width from its counter's.
int event_set_intervals(Backend& backend, const nb_event_set* set, long long* half_widths);

// Sets each event's count to values[i] (its counter gets the low 40 bits).
int write_event_set(Backend& backend, nb_event_set* set, const long long* values);

// PAPI's hardware overflow (glue_api.h, nb_event_set_set_overflow and nb_event_set_take_overflow).
int set_event_set_overflow(ComponentState& component, nb_event_set* set, unsigned event, long long threshold);
int take_event_set_overflow(Backend& backend, nb_event_set* set, std::uint64_t* address, std::uint64_t* event_mask);

}  // namespace netburst::component
