// netburst-run's events: what the user asked for (presets, native events, at-retirement metrics), the native
// requests behind them, where the allocator placed them on each logical processor, and the event program the tool
// applies to every guest thread's PMU. The tool cannot run the parser, allocator or encoder (they need the C++
// library), so they run here and the tool receives their result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "alloc/schedule.h"
#include "emulator/valgrind/program_file.h"
#include "events/request.h"
#include "events/status.h"
#include "presets/preset_table.h"

namespace netburst::emu::run {

struct PlanOptions {
    unsigned model = 2;
    bool hyper_threading = false;
    bool with_l3 = false;
    FpVariant fp = FpVariant::Sse;  // which FP preset recipes (PAPI_NETBURST_FP)
};

// One thing the user asked for with -e.
struct UserEvent {
    std::string name;                   // as given (PAPI_TOT_INS, or the native/metric string)
    bool is_preset = false;
    PresetDerivation derivation = PresetDerivation::NotDerived;
    std::vector<std::string> natives;   // canonical native names of its terms
    std::vector<std::size_t> terms;     // indices into EventPlan::requests
};

struct EventPlan {
    std::vector<UserEvent> events;
    std::vector<EventRequest> requests;  // distinct native requests, in first-use order
    std::vector<Schedule> schedules;     // per logical processor
    vg::EventProgram program;
    // program.events[k] reads request program_request[k] on logical processor program.events[k].lp.
    std::vector<std::size_t> program_request;
};

// Parses, expands and schedules. Errors: BadInput or NotOnModel (with the parser's suggestions), Conflict (with
// the allocator's explanation).
Result<EventPlan> plan_events(const std::vector<std::string>& names, const PlanOptions& options);

// A user event's value from its terms' values (NotDerived and Cmpd: the first term; Add: the sum; Sub: the first
// minus the others).
std::int64_t combine_terms(const UserEvent& event, const std::vector<std::uint64_t>& term_values);

// "sse", "x87", "x87_sse_dp": the FP preset variant, as $PAPI_NETBURST_FP spells it. Returns false if unknown.
bool parse_fp_variant(const std::string& text, FpVariant* out);

}  // namespace netburst::emu::run
