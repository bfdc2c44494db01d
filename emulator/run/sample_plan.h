// `netburst-run record`'s event: the event string with its precise modifier, placed and encoded by the same parser,
// allocator and encoder as counting runs, then armed for sampling as a driver would arm it: for IEBS, the counter
// starts PERIOD events short of overflowing and its CCCR gets OVF_PMI_T0; for PEBS, the count goes on IQ_COUNTER4
// (the only counter that drives PEBS for logical processor 0), IA32_PEBS_ENABLE gets ENABLE_PEBS and IA32_DS_AREA
// points at the tool's private DS save area. A second emulated PMU counts the same event plainly, for the exact
// per-instruction counts.
#pragma once

#include <cstdint>
#include <string>

#include "emulator/run/event_plan.h"
#include "emulator/run/profile.h"
#include "emulator/valgrind/program_file.h"
#include "events/status.h"

namespace netburst::emu::run {

// `text` without its precise modifier, and the precise level: libpfm4's `:precise=N` (0-3) or perf's `:p`, `:pp`,
// `:ppp` (1-3). Level 0 (or none) samples by the overflow interrupt (IEBS); 1 and up by PEBS.
struct PreciseSplit {
    std::string event;
    unsigned level = 0;
};
Result<PreciseSplit> split_precise(const std::string& text);

struct SampleOptions {
    unsigned model = 2;
    FpVariant fp = FpVariant::Sse;
    std::uint64_t period = 0;
};

struct SamplePlan {
    SampledEvent event;        // what the writers say about it (exact_total filled in after the run)
    vg::EventProgram program;  // PMU 0: the sampling counter; PMU 1: the exact count (event 0 of the results)
    unsigned counter = 0;      // the sampling counter
};

// Errors: the parser's (unknown names get the nearest ones), a derived preset, a period out of range, a precise
// event that cannot drive PEBS (the message names those that can), or one the allocator cannot put on IQ_COUNTER4.
Result<SamplePlan> plan_sampling(const std::string& text, const SampleOptions& options);

// The event names that can drive PEBS (every at-retirement metric: each counts with front_end_event,
// execution_event or replay_event, the events Table 19-29 marks "can support PEBS").
std::vector<std::string> pebs_capable_names();

}  // namespace netburst::emu::run
