// The NetBurst core model: front end (trace cache, ITLB, branch prediction), uop decomposition, out-of-order
// engine, memory hierarchy and SMT, producing for each executed instruction the Outcome the PMU consumes.
//
// Freestanding: no allocation, no exceptions, no C library. Large tables are fixed-size members sized for the
// largest configuration, so the object is big: create it with new (or VG_(malloc) + placement new), then
// reset().
#pragma once

#include <cstdint>

#include "emulator/model/outcome.h"

namespace netburst::emu {

// Parameters of one processor. make_core_config() fills them for a model; doc/emulator-model.md gives the values
// and their sources.
struct CoreConfig {
    unsigned model = 2;
    bool hyper_threading = false;
    bool has_l3 = false;  // Xeon MP (Gallatin, Potomac)
    // Micro-architecture parameters (cache geometry, latencies, widths...) follow.
};

// Willamette/Northwood (models 0-2), Prescott (3, 4, 6); with_l3 gives the Xeon MP of that generation.
CoreConfig make_core_config(unsigned model, bool hyper_threading, bool with_l3);

class Core {
public:
    void reset(const CoreConfig& config);

    // Runs one instruction of logical processor insn.thread and describes it in *out (which it clears first).
    void execute(const Instruction& insn, Outcome* out);

    // With two logical processors: which one should supply the next instruction, given which still have
    // instructions (the one whose front end is free earliest, so that time advances evenly).
    unsigned next_thread(bool thread0_has_more, bool thread1_has_more) const;

    // The logical processor has no more instructions: it stops competing for the core. *out receives any final
    // events (it is cleared first).
    void stop_thread(unsigned thread, Outcome* out);

    // The cycle by which everything executed so far has retired.
    Cycle now() const;

    struct Stats {
        std::uint64_t instructions = 0;
        std::uint64_t uops_retired = 0;   // non-bogus
        std::uint64_t bogus_uops = 0;
        Cycle cycles = 0;
    };
    Stats stats(unsigned thread) const;

private:
    // All state is fixed-size members (no allocation).
};

}  // namespace netburst::emu
