// From a schedule to the MSR writes that start and stop counting. Every backend (the kernel MSR device, the
// emulator channel) replays these lists; none of them computes register values itself.
#pragma once

#include <cstdint>
#include <vector>

#include "alloc/schedule.h"

namespace netburst {

struct MsrWrite {
    std::uint32_t msr = 0;
    std::uint64_t value = 0;
    bool operator==(const MsrWrite& o) const { return msr == o.msr && value == o.value; }
};

// Start: the package-wide tagging MSRs (when a replay metric is used), each ESCR once, each counter cleared,
// and only then the CCCR enables, so that no counter runs with a half-programmed ESCR.
std::vector<MsrWrite> start_writes(const Schedule& schedule);

// Stop: every CCCR disabled first, then the ESCRs and tagging MSRs cleared, so that no replay metric stays
// latched for the next user (Linux leaves them set).
std::vector<MsrWrite> stop_writes(const Schedule& schedule);

// A counter that interrupts after `threshold` events (PAPI's hardware overflow): its CCCR value with OVF_PMI_T0,
// or OVF_PMI_T1 for logical processor 1, set (interrupt) or both cleared, and the value it starts from, which
// wraps at the threshold-th event. On the emulator the wrap raises the PMI at the next event (SDM 18.15.5.8).
std::uint64_t cccr_with_overflow_interrupt(std::uint64_t cccr, bool interrupt, unsigned logical_processor);
std::uint64_t overflow_start_value(std::uint64_t threshold);

// The counters whose values belong to request i, in the order they are read. One today; a cascaded pair would
// add a second.
int result_counter(const Schedule& schedule, std::size_t request);

}  // namespace netburst
