// netburst-run's report: the tool's per-process results summed, turned back into the user's events, and printed
// like `perf stat` (text) or as JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emulator/model/emulated_machine.h"
#include "emulator/run/event_plan.h"

namespace netburst::emu::run {

// What every process image of the run reported, summed.
struct RunTotals {
    unsigned processes = 0;   // distinct pids
    unsigned images = 0;      // results files (an exec'd program writes a second one under the same pid)
    std::uint64_t threads = 0;
    std::uint64_t instructions = 0;
    std::uint64_t syscalls = 0;
    std::uint64_t timer_interrupts = 0;
    std::vector<std::uint64_t> values;  // per program event (EventPlan::program.events)
    std::vector<bool> unsupported;
    // --timing=sampled: whether some process's value is an estimate, and the half-width of the sum's 99.7 %
    // confidence interval (the processes' half-widths in quadrature: each process samples its own units).
    std::vector<bool> estimated;
    std::vector<std::uint64_t> half_widths;
    bool pmu_taken = false;   // a process wrote the events' registers itself (vg::ProcessResults::pmu_taken)
    // Instructions of extensions the emulated model does not have, over every process; the first is that of the
    // process with the lowest pid that ran one (vg::MissingInstructions).
    std::uint64_t missing = 0;
    std::uint64_t missing_first_pc = 0;
    std::uint64_t missing_first_pid = 0;
    std::string missing_first_extension;
    std::string missing_first_symbol;
};

// Reads every results file in `dir`. Errors name the file.
Result<RunTotals> read_results(const std::string& dir, std::size_t program_events);

// The half-width of a sum of independent estimates: the square root of the sum of their half-widths' squares,
// rounded up.
std::uint64_t combine_in_quadrature(const std::vector<std::uint64_t>& half_widths);

struct EventValue {
    std::string name;
    std::vector<std::string> natives;
    bool unsupported = false;
    bool not_counted = false;                  // the program took PMU 0 over (RunTotals::pmu_taken)
    unsigned pmu = 0;                          // the emulated PMU that counted it (UserEvent::pmu)
    std::int64_t value = 0;                    // over all logical processors
    std::vector<std::int64_t> per_processor;   // with --ht: logical processor 0 and 1
    // --timing=sampled: a term is an estimate; `value` then lies within +- half_width with 99.7 % confidence.
    bool estimated = false;
    std::uint64_t half_width = 0;
};
std::vector<EventValue> event_values(const EventPlan& plan, const RunTotals& totals, unsigned logical_processors);

// 1234567 -> "1,234,567", as perf stat prints counts.
std::string with_commas(std::int64_t value);

struct RunDescription {
    std::vector<std::string> command;
    EmulatedMachine machine;
    bool cpu_wide = false;
    bool kernel_model = true;
    std::uint64_t timer_tick = 0;  // instructions between timer interrupts; 0: none
    bool sampled_timing = false;   // --timing=sampled: cycle-driven events are estimates
    long rank = -1;                // the MPI rank from the environment (output_pattern.h); -1: none
    std::string host;
    // How the program ended: exit status, or the signal that killed it.
    bool signaled = false;
    int status = 0;
};

// One line (without the newline) on the instructions the model does not have that ran (RunTotals::missing > 0).
std::string describe_missing(unsigned model, const RunTotals& totals);
// An estimate's interval as the text report prints it after the count: "+- 21,050 (0.1 %, 99.7 %)", with the
// plus-minus sign U+00B1 in UTF-8 for "+-"; without the relative width when the value is 0.
std::string format_interval(std::int64_t value, std::uint64_t half_width);
std::string format_text(const RunDescription& run, const std::vector<EventValue>& events, const RunTotals& totals);
std::string format_json(const RunDescription& run, const std::vector<EventValue>& events, const RunTotals& totals);

}  // namespace netburst::emu::run
