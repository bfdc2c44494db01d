// Register values for one ESCR/counter pair. The allocator needs ESCR values to decide which events may share an
// ESCR; the program builder writes them. Both use these two functions so they cannot disagree.
#pragma once

#include <cstdint>

#include "events/request.h"
#include "table/events.h"

namespace netburst {

struct EscrContent {
    EventId event{};
    std::uint16_t mask = 0;
    bool tag_enable = false;
    std::uint8_t tag_value = 0;
    Privilege privilege{};
};

struct CounterFilter {
    bool compare = false;
    bool complement = false;
    bool edge = false;
    std::uint8_t threshold = 0;
};

// Which logical processors an ESCR's T0/T1 bits select.
enum class ThreadSelect : std::uint8_t { Thread0, Thread1, Both };

// The ESCR value: the T0 and/or T1 USR/OS bits from the privilege. A thread-independent event counts for the
// whole package whichever bits are set; we still set only the requested thread's bits.
std::uint64_t escr_value(const EscrContent& content, ThreadSelect threads);

// The enabled CCCR value selecting ESCR number `escr_select`. Active thread is always ANY (11b): the SDM requires it
// on processors without Hyper-Threading, and with Hyper-Threading the T0/T1 ESCR bits already choose the thread.
std::uint64_t cccr_value(std::uint8_t escr_select, const CounterFilter& filter);

}  // namespace netburst
