// netburst-run's events: what the user asked for (presets, native events, at-retirement metrics), the native
// requests behind them, where the allocator placed them on each logical processor, and the event program the tool
// applies to every guest thread's PMU. The tool cannot run the parser, allocator or encoder (they need the C++
// library), so they run here and the tool receives their result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "alloc/schedule.h"
#include "emulator/model/emulated_machine.h"
#include "emulator/protocol/program_file.h"
#include "events/request.h"
#include "events/status.h"
#include "presets/preset_table.h"

namespace netburst::emu::run {

struct PlanOptions {
    EmulatedMachine machine;  // the model's events, both logical processors with Hyper-Threading, the L3 presets
    FpVariant fp = FpVariant::Sse;  // which FP preset recipes (PAPI_NETBURST_FP)
    Privilege default_privilege{};   // for events that name neither :u nor :k (default: both levels)
};

// One thing the user asked for with -e.
struct UserEvent {
    unsigned pmu = 0;                   // the emulated PMU that counts all its terms (0: the program's)
    std::string name;                   // as given (PAPI_TOT_INS, or the native/metric string)
    bool is_preset = false;
    PresetDerivation derivation = PresetDerivation::NotDerived;
    std::vector<std::string> natives;   // canonical native names of its terms
    std::vector<std::size_t> terms;     // indices into EventPlan::requests
};

struct EventPlan {
    std::vector<UserEvent> events;
    std::vector<EventRequest> requests;  // distinct native requests of each PMU, in first-use order
    std::vector<unsigned> request_pmu;   // the PMU of each request
    unsigned num_pmus = 1;
    std::vector<Schedule> schedules;     // per PMU, then per logical processor
    vg::EventProgram program;
    // program.events[k] reads request program_request[k] on logical processor program.events[k].lp.
    std::vector<std::size_t> program_request;
    // Events of "all" that cannot be counted in this configuration (each alone refused by the allocator).
    std::vector<std::string> left_out;
};

// Parses, expands and schedules. Events that cannot share one PMU's counters go on more PMUs watching the same core
// (vg::EventProgram::kMaxPmus at most), each placed by the allocator as a real PMU would be: an event goes on the
// first PMU that can take all its terms as well as what it already holds. "all" stands for every event the model
// drives and every at-retirement metric (all_events.h). Errors: BadInput or NotOnModel (with the parser's
// suggestions), Conflict (with the allocator's explanation, when an event does not fit even on a PMU of its own).
Result<EventPlan> plan_events(const std::vector<std::string>& names, const PlanOptions& options);

// A user event's value from its terms' values (NotDerived and Cmpd: the first term; Add: the sum; Sub: the first
// minus the others).
std::int64_t combine_terms(const UserEvent& event, const std::vector<std::uint64_t>& term_values);

// The variant $PAPI_NETBURST_FP asks for (`fallback` when it is unset or empty; parse_fp_variant's rule), or an
// error naming the choices.
Result<FpVariant> fp_variant_from_environment(FpVariant fallback);

}  // namespace netburst::emu::run
