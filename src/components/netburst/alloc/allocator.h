// The allocator: given the events of one event set, the CPU model and the logical processor, choose counters,
// ESCRs, execution tag bits and the replay metric.
//
// It is complete: the search is exhaustive over everything that matters (execution tag bits for each upstream
// configuration, and each unit's ESCR within its counter block), and counters within one side of a block are
// interchangeable, so whenever an assignment exists it finds one. tests/alloc/allocator_bruteforce_test.cpp
// checks this against plain enumeration. When nothing fits, the error names the colliding resource and the
// smallest set of requests that collide.
#pragma once

#include <vector>

#include "alloc/context.h"
#include "alloc/plan.h"
#include "alloc/schedule.h"
#include "events/status.h"

namespace netburst {

// Schedules the set; on failure the error is Conflict (with the explanation) or BadInput (a bad context). A request
// with :precise is counted on the logical processor's PEBS counter (pebs_counter), and only one can be.
Result<Schedule> schedule_events(const std::vector<EventRequest>& requests, const AllocContext& ctx);

// Schedules the same event set on every logical processor of a package: logical processor 0 alone without
// Hyper-Threading; with it, 0 and then 1 around what 0 holds (the two never claim the same counter or ESCR, and
// share the replay metric). ctx.thread is ignored; a refusal names the logical processor.
Result<std::vector<Schedule>> schedule_on_package(const std::vector<EventRequest>& requests, AllocContext ctx);

// Feasibility without the explanation work: fills *out and returns true, or returns false.
bool try_schedule(const std::vector<EventRequest>& requests, const AllocContext& ctx, Schedule* out);

// For a set try_schedule refused: the resource that collides and the smallest subset of requests that collide.
Conflict diagnose_conflict(const std::vector<EventRequest>& requests, const AllocContext& ctx);

// The explanation as the user reads it.
std::string describe_conflict(const Conflict& conflict, const std::vector<EventRequest>& requests);

// Whether every execution group of the plan can get a tag bit at all (ignoring registers).
bool tag_bits_suffice(const Plan& plan);

// Checks the context itself: thread 0/1, Hyper-Threading, model. Returns an error message or "".
std::string validate_context(const AllocContext& ctx);

}  // namespace netburst
