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
    bool counter_unsupported(unsigned counter) const { return pmu_active_->counter_unsupported(counter); }

    // Ends the run: closes every cycle so that the last reads are final.
    void finish();

    Cycle now() const { return core_.now(); }
    Core::Stats stats(unsigned thread) const { return core_.stats(thread); }
    Pmu& pmu() { return *pmu_active_; }
    // Counts with a PMU the caller owns instead of the emulator's own (nullptr: its own again). The Valgrind tool
    // keeps one PMU per guest thread and attaches the running thread's: a thread switch then costs a pointer, not
    // a copy of the PMU (about half a megabyte). The core model, like the machine's caches, stays shared.
    void attach_pmu(Pmu* pmu) { pmu_active_ = pmu ? pmu : &pmu_; }
    const EmulatorConfig& config() const { return config_; }

    // Serialises logical processor `thread` as wrmsr and rdmsr do (every MSR access does it first): everything it
    // executed retires and every cycle up to then reaches the PMU, which closes them. Returns that cycle. Front ends
    // call it where the machine would serialise too, such as an operating system's context switch.
    Cycle serialize(unsigned thread);

private:

    EmulatorConfig config_{};
    Core core_;
    Pmu pmu_;
    Pmu* pmu_active_ = &pmu_;
    Outcome outcome_;
    bool thread_started_[2] = {false, false};
    bool thread_stopped_[2] = {false, false};
};

}  // namespace netburst::emu
