// Processor errata the kernel MSR backend works around, by CPUID model and stepping. doc/real-pentium4.md lists
// them with their sources. (The emulator models the documented behaviour, not the errata, so only real hardware
// needs these.)
//
// - BPU counter 1: the Enable bit of MSR_BPU_CCCR1 does not work. Linux's P4 driver never schedules counter 1
//   (its comment: "counter 1 is broken (erratum)") on any model, and we follow it: counter 1 is an unavailable
//   counter for the allocator, so BPU events use counters 0, 2 and 3.
// - N15 (Pentium 4 specification update, Intel document 249199): a write to a performance counter may not take
//   effect. Linux and OProfile write each counter twice, the published workaround having not worked for them;
//   the backend writes every counter MSR twice.
#pragma once

#include <string>

#include "table/msr_map.h"

namespace netburst::component {

struct Errata {
    CounterMask unavailable_counters = 0;
    std::string reason;  // why those counters are unavailable, for conflict messages
    bool write_counters_twice = false;
};

// The errata that apply to family 0FH model `model`, stepping `stepping`.
Errata errata_for(unsigned model, unsigned stepping);

}  // namespace netburst::component
