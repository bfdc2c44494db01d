// netburst-emu replay: run one trace (or two, on the two logical processors of a Hyper-Threaded core) through
// the emulator, with events programmed the way the PAPI component programs them, and collect what a user reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emulator/emulator.h"
#include "events/status.h"

namespace netburst::emu {

struct ReplayOptions {
    std::vector<std::string> traces;  // one, or two for logical processors 0 and 1
    // The machine (two traces imply Hyper-Threading), PEBS, and force_timing: every instruction in the timing tier
    // (else only while a counter needs cycles).
    EmulatorConfig emulator;
    std::vector<std::string> events;  // event strings, programmed through the allocator and encoder
    std::string msr_file;             // raw writes applied before the trace
};

struct EventValue {
    std::string event;  // canonical name
    unsigned thread = 0;
    int counter = -1;
    std::uint64_t value = 0;
    bool unsupported = false;
};

struct CounterValue {  // for --msr runs: every counter software enabled
    unsigned counter = 0;
    std::uint64_t cccr = 0;
    std::uint64_t value = 0;
    bool unsupported = false;
};

struct ThreadStats {
    std::uint64_t instructions = 0;
    std::uint64_t uops_retired = 0;
    std::uint64_t bogus_uops = 0;
};

struct ReplayResult {
    Cycle cycles = 0;                      // simulated while the timing tier ran
    std::uint64_t timed_instructions = 0;  // instructions the timing tier ran (the rest took no cycles)
    unsigned logical_processors = 1;
    ThreadStats threads[2];
    std::vector<EventValue> events;
    std::vector<CounterValue> counters;
    std::vector<PmiRecord> pmis;
    std::vector<PebsRecord> pebs;
    std::uint64_t lost_records = 0;
};

// Runs the replay. Errors: BadInput (unreadable trace, bad event, bad --msr line, a #GP from a raw write),
// Conflict (the events do not fit together).
Result<ReplayResult> run_replay(const ReplayOptions& options);

}  // namespace netburst::emu
