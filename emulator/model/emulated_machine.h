// The emulated machine as every front end chooses it: which Pentium 4, how many logical processors, whether it has
// an L3, which clock the guest reads and how late an imprecise PMI is taken. One description, handed by reference
// (or held as one member) to the core, the PMU, the emulator, netburst-emu, netburst-run and the component's view of
// the emulator; everything else about the core (cache sizes, latencies) follows from it (make_core_config).
//
// Freestanding (the Valgrind tool links the emulator).
#pragma once

#include "emulator/pmi_skid.h"
#include "table/cpu_model.h"

namespace netburst::emu {

struct EmulatedMachine {
    unsigned model = kDefaultModel;  // CPUID family 0FH model (table/cpu_model.h says why Northwood by default)
    bool hyper_threading = false;    // two logical processors; without it only logical processor 0 exists
    bool has_l3 = false;             // the Xeon MP of the model's generation (Gallatin, Potomac)
    // The guest's clocks, rdtsc and CPU-time timers read the emulated core's cycles (--clock=emulated), at the
    // model's nominal frequency as its brand string states it (the guest's CPUID identity); by default they are
    // the host's.
    bool emulated_clock = false;
    // Cycles from a counter's overflow to its imprecise PMI being taken: the default is fitted to Sprunt's Figure 5
    // (emulator/pmi_skid.h).
    unsigned pmi_skid_cycles = NB_DEFAULT_PMI_SKID_CYCLES;

    constexpr unsigned logical_processors() const { return hyper_threading ? 2u : 1u; }

    // For call sites that change one field of the default machine: EmulatedMachine{}.with_model(4).with_ht().
    constexpr EmulatedMachine with_model(unsigned m) const {
        EmulatedMachine copy = *this;
        copy.model = m;
        return copy;
    }
    constexpr EmulatedMachine with_ht(bool on = true) const {
        EmulatedMachine copy = *this;
        copy.hyper_threading = on;
        return copy;
    }
    constexpr EmulatedMachine with_l3(bool on = true) const {
        EmulatedMachine copy = *this;
        copy.has_l3 = on;
        return copy;
    }
};

}  // namespace netburst::emu
