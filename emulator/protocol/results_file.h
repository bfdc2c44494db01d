// What the tool reports to netburst-run when a process image ends (or execs): for each event of the launcher's
// program, its value summed over every guest thread of the process, or "unsupported".
//
//   netburst-results 1
//   pid PID
//   final 0|1                   0: written before an exec; 1: at the end of the process
//   threads N                   guest threads that ran
//   instructions N              guest (user-mode) instructions fed to the emulator
//   syscalls N                  system calls (each ran the synthetic kernel path when it is enabled)
//   timer_interrupts N          timer interrupts taken (each ran the synthetic timer-interrupt path)
//   pmu_taken 0|1               1: the program wrote registers of the event program itself (optional, default 0)
//   missing N                   instructions the emulated model does not have that ran (optional, default 0)
//   missing_first PC EXT [SYM]  the first of them: its address, extension (guest_isa.h) and function, when known
//   event INDEX VALUE 0|1       1: unsupported (VALUE is then meaningless)
//   estimate INDEX HALF_WIDTH   (optional, after its event line) VALUE is --timing=sampled's estimate, and the
//                               exact count lies within VALUE +- HALF_WIDTH with 99.7 % confidence;
//                               kUnboundedHalfWidth: the sample does not bound it
//
// Freestanding: the tool writes it, netburst-run reads it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace netburst::emu::vg {

// The half-width of an estimate the sample cannot bound (too few events in its units: sampled_counters.h).
constexpr std::uint64_t kUnboundedHalfWidth = ~std::uint64_t{0};

struct EventResult {
    std::uint32_t index = 0;
    std::uint64_t value = 0;
    bool unsupported = false;
    // --timing=sampled: value is an estimate (a cycle-driven event), with the half-width of its 99.7 % confidence
    // interval.
    bool estimated = false;
    std::uint64_t half_width = 0;
};

// Instructions of an extension the emulated model does not have (SSSE3, AVX...; guest_isa.h) that the program
// ran: executed and counted like any other, and reported, since a Pentium 4 could not have run them.
struct MissingInstructions {
    std::uint64_t count = 0;
    std::uint64_t first_pc = 0;
    char first_extension[24] = {};  // its name, e.g. "SSSE3"
    char first_symbol[160] = {};    // the function it is in, "" when unknown
};

struct ProcessResults {
    static constexpr unsigned kMaxEvents = 256;  // EventProgram::kMaxEvents
    std::uint64_t pid = 0;
    bool final_run = false;
    std::uint64_t threads = 0;
    std::uint64_t instructions = 0;
    std::uint64_t syscalls = 0;
    std::uint64_t timer_interrupts = 0;
    // The program wrote (wrmsr through the tool) an MSR of netburst-run's event program, or the counter of one of
    // its events: it counts with the PMU itself (PAPI), and the events' counters hold its counts, not theirs.
    bool pmu_taken = false;
    MissingInstructions missing;
    unsigned num_events = 0;
    EventResult events[kMaxEvents];
};

std::size_t format_results(const ProcessResults& results, char* buffer, std::size_t capacity);
// Returns nullptr, or a message; *line receives the line of the error.
const char* parse_results(const char* text, std::size_t length, ProcessResults* out, unsigned* line);

}  // namespace netburst::emu::vg
