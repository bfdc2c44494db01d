// From a schedule to the MSR writes that start and stop counting. Every backend (the kernel MSR device, the
// emulator channel) replays these lists; none of them computes register values itself.
#pragma once

#include <cstdint>
#include <vector>

#include "alloc/schedule.h"
#include "table/msr_map.h"

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
// overflow_start_value and pebs_start_value: table/msr_map.h (the emulator's sampler uses them too).

// PEBS, precise sampling (SDM 18.15.7): the PEBS counter (alloc: pebs_counter) counts up to its overflow, and the
// next event it counts writes a record (EFLAGS, EIP and the general registers at that instruction's start) into
// the PEBS buffer of the DS save area instead of being counted; the counter reloads from the area's "PEBS counter
// reset", and a buffer reaching its interrupt threshold raises a PMI. The DS save area is in the 64-bit layout
// (IA-32e mode, table/msr_map.h).

struct PebsArming {
    std::uint64_t ds_area = 0;  // the DS save area's linear address; the buffer follows its management fields
    unsigned records = 0;       // buffer capacity in records
    std::uint64_t period = 0;   // every period-th event is a sample: 2 to 2^31
};

// The DS management fields for `arming`: base, index (empty), absolute maximum, a threshold of one record (an
// interrupt per sample, as PAPI calls the handler once per overflow), and the counter reset.
struct DsAreaFields {
    std::uint64_t base = 0, index = 0, maximum = 0, threshold = 0, counter_reset = 0;
};
DsAreaFields pebs_ds_fields(const PebsArming& arming);
// The set's start writes armed for PEBS on `counter`: IA32_DS_AREA first, IA32_PEBS_ENABLE with ENABLE_PEBS (bit
// 25, "my thread" with Hyper-Threading) beside the set's replay-tagging bits, the counter's start value, and its CCCR
// without OVF_PMI (the buffer's threshold interrupts, not the counter).
std::vector<MsrWrite> pebs_start_writes(const std::vector<MsrWrite>& start, unsigned counter,
                                        const PebsArming& arming);
// The set's stop writes, which also clear IA32_PEBS_ENABLE and IA32_DS_AREA.
std::vector<MsrWrite> pebs_stop_writes(const std::vector<MsrWrite>& stop);

// The counters whose values belong to request i, in the order they are read. One today; a cascaded pair would
// add a second.
int result_counter(const Schedule& schedule, std::size_t request);

}  // namespace netburst
