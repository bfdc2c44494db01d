// `netburst-run record`'s events: each event string with its precise modifier, parsed by the same parser as counting
// runs, all placed together on one PMU by the same allocator (as a PAPI event set would be; what does not fit gets
// the allocator's explanation) and encoded by the same encoder, then each armed for sampling as a driver would arm
// it: for IEBS, its counter starts PERIOD events short of overflowing and its CCCR gets OVF_PMI_T0; for PEBS (one
// event at most), the count goes on IQ_COUNTER4 (the only counter that drives PEBS for logical processor 0),
// IA32_PEBS_ENABLE gets ENABLE_PEBS and IA32_DS_AREA points at the tool's private DS save area. A second emulated
// PMU counts the same events on the same counters plainly, for the exact per-instruction counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emulator/protocol/program_file.h"
#include "emulator/run/event_plan.h"
#include "emulator/run/profile.h"
#include "events/status.h"

namespace netburst::emu::run {

// How often to sample when neither -c nor -F is given: a cycle event at perf record's default frequency, any other
// event every kDefaultPeriod events.
constexpr std::uint64_t kDefaultPeriod = 100000;
constexpr std::uint64_t kDefaultFrequency = 4000;

struct SampleOptions {
    EmulatedMachine machine;  // its model; its clock rate turns -F into a period
    FpVariant fp = FpVariant::Sse;
    // One sample every `period` events (-c), or `frequency` samples a second of the emulated clock (-F), which
    // only an event that counts every cycle turns into a period; neither: the defaults above.
    std::uint64_t period = 0;
    std::uint64_t frequency = 0;
    bool callchain = false;  // -g: samples carry their call chain (the tool's shadow call stack)
    bool call_edges = false; // --callgrind: the tool reports the call edges with their inclusive costs
};

struct SamplePlan {
    std::vector<SampledEvent> events;  // what the writers say about them, in -e order (exact_total filled in later)
    vg::EventProgram program;  // PMU 0: the sampling counters; PMU 1: the exact counts (event i of the results)
    std::vector<unsigned> counters;  // each event's sampling counter
};

// Errors: the parser's (unknown names get the nearest ones; a precise event that cannot drive PEBS gets the ones
// that can), a derived preset, a period out of range (-F for an event that does not count cycles), more events than
// kMaxSampledEvents, or the allocator's (events that cannot share the PMU: the colliding counter or ESCR; a second
// :precise event, or one it cannot put on IQ_COUNTER4).
Result<SamplePlan> plan_sampling(const std::vector<std::string>& texts, const SampleOptions& options);
// One event.
Result<SamplePlan> plan_sampling(const std::string& text, const SampleOptions& options);

}  // namespace netburst::emu::run
