// The event program netburst-run hands to the tool: the MSR writes that start counting on each logical processor
// (from the allocator and encoder, which the tool cannot run), and which counter holds each event's value.
//
//   netburst-program 1
//   wrmsr LP MSR VALUE          applied, in order, to every fresh PMU of a guest thread on logical processor LP
//   event INDEX LP COUNTER MASK event INDEX's value on LP is read from COUNTER; it is unsupported when any counter
//                               in MASK (a bitmask over counters 0-17) counts something the model does not drive
//   pmu N                       the lines that follow are for PMU N (0 before any such line). PMU 0 is the one
//                               the program sees; PMUs 1 and up watch the same core for events that do not fit
//                               on one PMU (Emulator::attach_observers)
//   sample KIND COUNTER PERIOD EXACT_PMU EXACT_COUNTER [callchain] [calledges]
//                               netburst-run record, one line per sampled event (event 0, 1, ... in line order, at
//                               most kMaxSampledEvents): COUNTER of PMU 0 on logical processor 0 samples every PERIOD
//                               events, by its overflow interrupt (KIND iebs) or by PEBS (KIND pebs; one such line at
//                               most); COUNTER of PMU EXACT_PMU (the same on every line) counts the same event
//                               without sampling (each instruction's exact count). The flags are the recording's,
//                               on any line: `callchain` (record -g): each sample carries its thread's shadow call
//                               stack; `calledges` (record --callgrind): the samples file gets the call edges
//
// Numbers are decimal or 0x-hexadecimal. Freestanding: the tool parses it; netburst-run writes it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table/msr_map.h"

namespace netburst::emu::vg {

struct ProgramWrite {
    std::uint32_t msr = 0;
    std::uint64_t value = 0;
    std::uint8_t pmu = 0;
};

struct ProgramEvent {
    std::uint32_t index = 0;  // the launcher's event number
    std::uint8_t lp = 0;
    std::uint8_t counter = 0;
    std::uint32_t check_mask = 0;
    std::uint8_t pmu = 0;
};

// How many events one recording samples at most: each has its own counter, and the tool's per-instruction and
// per-call tables keep a cost for each (pc_counts.h, call_edges.h), so the limit is their width.
constexpr unsigned kMaxSampledEvents = 8;

// One sampled event of a recording.
struct SampledCounter {
    bool pebs = false;              // PEBS (precise) instead of the counter's overflow interrupt
    std::uint8_t counter = 0;       // of PMU 0, logical processor 0
    std::uint64_t period = 0;       // events per sample
    std::uint8_t exact_counter = 0; // of SampleSpec::exact_pmu: the same event, counted exactly
};

// What `netburst-run record` asks the tool to sample (emulator/sampling/sampler.h does it).
struct SampleSpec {
    bool enabled = false;
    unsigned num_events = 0;
    SampledCounter events[kMaxSampledEvents];
    std::uint8_t exact_pmu = 0;     // the PMU that counts every sampled event exactly
    bool callchain = false;         // record -g: samples carry the call chain (shadow_stack.h)
    bool call_edges = false;        // record --callgrind: the call edges with their inclusive costs (call_edges.h)

    // The event that samples by PEBS, or -1 (there is one PEBS counter and one DS save area).
    int pebs_event() const {
        for (unsigned i = 0; i < num_events; ++i)
            if (events[i].pebs) return static_cast<int>(i);
        return -1;
    }
};

// The periods a sampling counter can take: it must overflow at least once per sample, and a PEBS counter's
// sampled event is the one after the overflow.
constexpr std::uint64_t kMaxSamplePeriod = std::uint64_t{1} << 39;
constexpr std::uint64_t min_sample_period(bool pebs) { return pebs ? 2 : 1; }
// The counter value that makes the PERIOD-th event from now the sampled one: IEBS overflows on it (the 40-bit
// counter wraps) and raises its interrupt; PEBS overflows one event earlier, since the record is written by the
// first event after the overflow (and that event is not counted: the counter reloads from the DS area instead).
constexpr std::uint64_t sample_start_value(std::uint64_t period, bool pebs) {
    return pebs ? pebs_start_value(period) : overflow_start_value(period);
}
// The linear address netburst-run writes into IA32_DS_AREA for PEBS sampling. The tool backs the DS save area and
// the PEBS buffer after it with private memory (sampler.h): the PMU's PEBS writes never reach the program's memory,
// whatever the program has mapped at this address.
constexpr std::uint64_t kSampleDsArea = 0x00007fff00000000ull;

struct EventProgram {
    static constexpr unsigned kMaxPmus = 32;      // the program's PMU and Emulator::kMaxObservers more
    static constexpr unsigned kMaxWrites = 2048;  // per logical processor, over all PMUs
    static constexpr unsigned kMaxEvents = 256;
    unsigned num_pmus = 1;
    unsigned num_writes[2] = {0, 0};
    ProgramWrite writes[2][kMaxWrites];
    unsigned num_events = 0;
    ProgramEvent events[kMaxEvents];
    SampleSpec sample;
};

// Parses text[0, length) into *out. Returns nullptr, or a static message naming what is wrong; *line receives
// the line number of the error.
const char* parse_event_program(const char* text, std::size_t length, EventProgram* out, unsigned* line);

// Writes the program into buffer (capacity bytes, NUL-terminated); returns the length, or 0 when it does not fit.
std::size_t format_event_program(const EventProgram& program, char* buffer, std::size_t capacity);

}  // namespace netburst::emu::vg
