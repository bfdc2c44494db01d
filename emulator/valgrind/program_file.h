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
//
// Numbers are decimal or 0x-hexadecimal. Freestanding: the tool parses it; netburst-run writes it.
#pragma once

#include <cstddef>
#include <cstdint>

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

struct EventProgram {
    static constexpr unsigned kMaxPmus = 32;      // the program's PMU and Emulator::kMaxObservers more
    static constexpr unsigned kMaxWrites = 2048;  // per logical processor, over all PMUs
    static constexpr unsigned kMaxEvents = 256;
    unsigned num_pmus = 1;
    unsigned num_writes[2] = {0, 0};
    ProgramWrite writes[2][kMaxWrites];
    unsigned num_events = 0;
    ProgramEvent events[kMaxEvents];
};

// Parses text[0, length) into *out. Returns nullptr, or a static message naming what is wrong; *line receives
// the line number of the error.
const char* parse_event_program(const char* text, std::size_t length, EventProgram* out, unsigned* line);

// Writes the program into buffer (capacity bytes, NUL-terminated); returns the length, or 0 when it does not fit.
std::size_t format_event_program(const EventProgram& program, char* buffer, std::size_t capacity);

}  // namespace netburst::emu::vg
