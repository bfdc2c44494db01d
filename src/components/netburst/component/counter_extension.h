// 64-bit counts from 40-bit counters. A NetBurst counter wraps after 2^40 events (about six minutes of cycles at
// 3 GHz), and its CCCR's OVF flag (bit 31) is set at the wrap and stays set until software clears it. Reading the
// counter and the flag together tells how many events passed since the previous read, as long as reads are less
// than 2^41 events apart.
#pragma once

#include <cstdint>

#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst::component {

// Events between a previous 40-bit value `last` and the current `raw`, given the CCCR's OVF flag.
//  - no wrap: raw - last;
//  - one wrap that ended below last: (raw - last) modulo 2^40, with or without the flag (a counter never runs
//    backwards, so raw < last means it wrapped even if someone cleared the flag);
//  - a wrap that ended at or above last: only the flag can tell, and it adds 2^40.
constexpr std::uint64_t counter_delta(std::uint64_t last, std::uint64_t raw, bool overflowed) {
    const std::uint64_t within = (raw - last) & kCounterValueMask;
    return (overflowed && raw >= last) ? within + (std::uint64_t{1} << kCounterWidthBits) : within;
}

constexpr bool cccr_overflowed(std::uint64_t cccr) { return (cccr >> kCccrOvfBit) & 1u; }

}  // namespace netburst::component
