// The emulated Pentium 4 as software and front ends see it: a core model and a PMU model joined, reached only
// through instructions (execute) and MSR accesses (wrmsr, rdmsr, rdpmc). netburst-emu replays traces through
// it; the Valgrind tool feeds it the guest program and forwards the component's client requests to its MSRs.
//
// Freestanding (the Valgrind tool links it): construct with new or placement new, then reset().
#pragma once

#include <cstdint>

#include "emulator/core/core.h"
#include "emulator/pmu/pmu.h"

namespace netburst::emu {

struct EmulatorConfig {
    unsigned model = 2;
    bool hyper_threading = false;
    bool with_l3 = false;
    bool long_mode = true;
    bool pebs_available = true;
    unsigned pmi_skid_cycles = 20;  // see doc/emulator-model.md: delivery latency of an imprecise PMI
};

class Emulator {
public:
    void reset(const EmulatorConfig& config);

    // One guest instruction (of logical processor insn.thread).
    void execute(const Instruction& insn);
    // A logical processor has no more instructions.
    void stop_thread(unsigned thread);
    // With two logical processors, which one should run next.
    unsigned next_thread(bool thread0_has_more, bool thread1_has_more) const {
        return core_.next_thread(thread0_has_more, thread1_has_more);
    }

    // Software's view, at the current instruction boundary of logical processor `thread`.
    MsrResult write_msr(unsigned thread, std::uint32_t msr, std::uint64_t value);
    MsrResult read_msr(unsigned thread, std::uint32_t msr, std::uint64_t* value);
    MsrResult read_pmc(unsigned thread, std::uint32_t ecx, std::uint64_t* value);
    bool counter_unsupported(unsigned counter) const { return pmu_.counter_unsupported(counter); }

    // Ends the run: closes every cycle so that the last reads are final.
    void finish();

    Cycle now() const { return core_.now(); }
    Core::Stats stats(unsigned thread) const { return core_.stats(thread); }
    Pmu& pmu() { return pmu_; }
    const EmulatorConfig& config() const { return config_; }

private:
    // An MSR access serialises the core first, as wrmsr and rdmsr do, so that it sees every earlier cycle.
    Cycle serialize(unsigned thread);

    EmulatorConfig config_{};
    Core core_;
    Pmu pmu_;
    Outcome outcome_;
    bool thread_started_[2] = {false, false};
    bool thread_stopped_[2] = {false, false};
};

}  // namespace netburst::emu
