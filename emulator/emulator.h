// The emulated Pentium 4 as software and front ends see it: a core model and a PMU model joined, reached only
// through instructions (execute) and MSR accesses (wrmsr, rdmsr, rdpmc). netburst-emu replays traces through
// it; the Valgrind tool feeds it the guest program and forwards the component's client requests to its MSRs.
//
// Two tiers (doc/emulator-model.md, "Tiers"). While no counter needs cycles (Pmu::needs_timing), instructions run
// in the core's functional tier, which updates the caches, TLBs, trace cache and predictors and counts the
// functional events into a FunctionalSink that the PMU absorbs at every MSR access; otherwise they run in the
// timing tier, which computes every cycle and feeds the PMU Outcomes. The choice is made again at every MSR write
// (and when another PMU is attached); software sees no difference but speed: functional counts are identical in
// both tiers, and MSR accesses are exact at instruction boundaries in both. Cycles advance only in the timing
// tier, so a counter that counts cycles has made the emulator simulate every cycle it was enabled for.
//
// Freestanding (the Valgrind tool links it): construct with new or placement new, then reset().
#pragma once

#include <cstdint>

#include "emulator/core/core.h"
#include "emulator/memo_probe.h"
#include "emulator/model/emulated_machine.h"
#include "emulator/pmu/pmu.h"
#include "emulator/sampled_clock.h"

namespace netburst::emu {


// The PMU's configuration (the machine, PEBS, the DS layout), which also sets up the core, and the tier choice.
struct EmulatorConfig : PmuConfig {
    // Every instruction in the timing tier, even while no counter needs it (comparisons, tests, cycle reports).
    // An emulated clock (EmulatedMachine::emulated_clock) reads cycles without it: while no counter needs the
    // timing tier it is estimated from the front end's sampled schedule (sampled_clock.h).
    bool force_timing = false;
    // --timing=sampled (PmuConfig::sampled_timing): while the attached PMUs need the timing tier only for what
    // they can estimate, instructions run in the functional tier except inside the windows the front end opens
    // (set_detail). Its schedule is the front end's (it counts the program's instructions).
};

class Emulator {
public:
    void reset(const EmulatorConfig& config);

    // One guest instruction (of logical processor insn.thread). In the functional tier a logical processor's start
    // (for the PMU's activity) is noted at the next sync().
    __attribute__((always_inline)) void execute(const Instruction& insn) {
        if (!functional_) {
            execute_timed(insn);
            return;
        }
        core_.execute_functional(insn, &counts_);
    }
    // The same with the plan stable_plan() gave for an instruction of this shape (nullptr: none).
    __attribute__((always_inline)) void execute(const Instruction& insn, const UopPlan* plan) {
        if (plan == nullptr) {
            execute(insn);
            return;
        }
        if (!functional_) {
            execute_timed(insn, *plan);
            return;
        }
        core_.execute_functional_prepared(insn, *plan, &counts_);
    }
    // The same when the plan is known to be there.
    __attribute__((always_inline)) void execute(const Instruction& insn, const UopPlan& plan) {
        if (functional_)
            core_.execute_functional_prepared(insn, plan, &counts_);
        else
            execute_timed(insn, plan);
    }
    // The same in the functional tier (the caller knows !timing()).
    __attribute__((always_inline)) void execute_functional(const Instruction& insn, const UopPlan& plan) {
        core_.execute_functional_prepared(insn, plan, &counts_);
    }
    // See Core::stable_group: runs of instructions with stable plans that a front end always executes together.
    const GroupPlan* stable_group(const UopPlan* const* plans, const std::uint64_t* pcs, unsigned size) {
        return core_.stable_group(plans, pcs, size, &counts_);
    }
    // A run's members in the functional tier (the caller knows !timing()): Core::execute_group_functional.
    template <class Members>
    __attribute__((always_inline)) void execute_group_functional(unsigned thread, unsigned cpl, const GroupPlan& group,
                                                                 Members members) {
        core_.execute_group_functional(thread, cpl, group, members, &counts_);
    }
    // See Core::stable_plan: for front ends that describe the same static instruction many times.
    const UopPlan* stable_plan(const Instruction& insn) {
        const UopPlan* plan = core_.stable_plan(insn);
        if (plan != nullptr) core_.prepare_functional(*plan, insn, &counts_);
        return plan;
    }
    // A logical processor has no more instructions.
    void stop_thread(unsigned thread);
    // With two logical processors, which one should run next. Asked while both have instructions, the answer
    // depends on their timing (the one whose front end is free first), so from then on every instruction runs in
    // the timing tier: the order of two threads' accesses to the shared caches is itself timing.
    unsigned next_thread(bool thread0_has_more, bool thread1_has_more);

    // Software's view, at the current instruction boundary of logical processor `thread`.
    MsrResult write_msr(unsigned thread, std::uint32_t msr, std::uint64_t value);
    MsrResult read_msr(unsigned thread, std::uint32_t msr, std::uint64_t* value);
    MsrResult read_pmc(unsigned thread, std::uint32_t ecx, std::uint64_t* value);
    bool counter_unsupported(unsigned counter) const { return pmu_active_->counter_unsupported(counter); }

    // The sampled schedule, which the front end runs for --timing=sampled and for an emulated clock (whenever the
    // functional tier runs, the clock is estimated from its units). set_detail: a window of the timing tier opens (warming, then a
    // unit) or closes; unit: the window's measured unit starts, or ends after `instructions`; settle: `total`
    // program instructions have run so far (before every MSR access, window change and PMU change, so that the
    // functional ones are estimated at the rates they ran with); wants_unit: a counter that is estimated has no
    // rate yet, so a window should open now.
    void set_detail(bool detail);
    // A unit that does not stand for a period's (representative false: a window the program's clock opened that
    // did not cover its period's own start) still times its stretch, but only the clock learns a rate from it.
    void unit(bool begin, std::uint64_t instructions, bool representative = true);
    // syscalls, interrupts: the synthetic kernel paths the front end has run so far.
    void settle(std::uint64_t total, std::uint64_t syscalls, std::uint64_t interrupts);
    bool wants_unit() const;
    // Whether an attached PMU has an estimated counter (its reads then bound PAPI's intervals).
    bool sampling_estimates() const;
    bool sampled() const { return config_.sampled_timing; }
    // Whether the front end must run the sampled schedule.
    bool schedules() const { return config_.sampled_timing || config_.machine.emulated_clock; }

    // Ends the run: closes every cycle so that the last reads are final.
    void finish();

    Cycle now() const { return core_.now(); }
    // The emulated clock (EmulatedMachine::emulated_clock): now() while every instruction is timed, else its
    // estimate (sampled_clock.h), as of the last settle(); and the half-width of its 99.7 % interval (0: exact).
    Cycle clock() const { return clock_.read(core_.now()); }
    // The program read the clock at the start of what may be a timed region (SampledClock::region).
    void clock_region() { clock_.region(); }
    std::uint64_t clock_half_width() const { return clock_.half_width(); }
    // Which tier runs the next instruction; how many instructions ran in the timing tier so far.
    bool timing() const { return !functional_; }
    std::uint64_t timed_instructions() const { return timed_; }
    Core::Stats stats(unsigned thread) const { return core_.stats(thread); }
    Pmu& pmu() { return *pmu_active_; }
    // Counts with a PMU the caller owns instead of the emulator's own (nullptr: its own again). The Valgrind tool
    // keeps one PMU per guest thread and attaches the running thread's: a thread switch then costs a pointer, not
    // a copy of the PMU (about half a megabyte). The core model, like the machine's caches, stays shared.
    void attach_pmu(Pmu* pmu);
    // Measures, for every timed instruction from now on, how often a timing memo would hit (memo_probe.h).
    void attach_memo_probe(MemoProbe* probe) { probe_ = probe; }
    const MemoProbe* memo_probe() const { return probe_; }
    // The attached PMU's registers were changed other than through write_msr (a PMU copied over it): the tier
    // follows the new programming. Counts of the functional tier not yet absorbed go to the PMU as it is now, so
    // call sync() before such a change.
    void pmu_reprogrammed() { update_tier(); }
    // More PMUs that watch the same core as the attached one: each is fed every Outcome (or functional count) the
    // attached one is, but software reaches only the attached one (write_msr, read_msr, read_pmc). netburst-run
    // counts event sets that do not fit one PMU's counters this way, each exact, while the program still sees
    // one Pentium 4 PMU. The caller owns them; nullptr and 0: none.
    static constexpr unsigned kMaxObservers = 31;
    void attach_observers(Pmu* const* pmus, unsigned count);
    // Hands what the functional tier counted so far to the attached PMU and the observers (every MSR access does it
    // first).
    void sync();
    const EmulatorConfig& config() const { return config_; }

    // Serialises logical processor `thread` as wrmsr and rdmsr do (every MSR access does it first): everything it
    // executed retires and every cycle up to then reaches the PMU, which closes them. Returns that cycle. Front ends
    // call it where the machine would serialise too, such as an operating system's context switch.
    Cycle serialize(unsigned thread);

private:
    void execute_timed(const Instruction& insn) { execute_timed(insn, core_.plan_of(insn)); }
    void execute_timed(const Instruction& insn, const UopPlan& plan);
    void execute_probed(const Instruction& insn, const UopPlan& plan);
    void start_thread(unsigned thread, Cycle cycle);
    // Chooses the tier for what the attached PMU needs; switching to the functional tier first drains the timing
    // tier (every logical processor serialised, every record delivered).
    void update_tier();
    void drain(unsigned thread);
    // The attached PMU and every observer get the same feed.
    void consume_all(const Outcome& outcome) {
        pmu_active_->consume(outcome);
        for (unsigned i = 0; i < num_observers_; ++i) observers_[i]->consume(outcome);
    }
    void close_all(Cycle cycle);
    void set_thread_active_all(unsigned thread, bool active, Cycle cycle);
    // Whether the attached PMU or an observer answers yes.
    bool any_pmu(bool (Pmu::*question)() const) const;
    bool any_needs_timing() const;
    bool any_needs_exact_timing() const;
    // The sampled schedule: the attached PMUs' timed stretches (--timing=sampled) and the clock's start or end with
    // the tier; a PMU attached or detached starts or ends its own.
    void timed_all(bool begin);
    void leave_sampling(Pmu& pmu);
    void join_sampling(Pmu& pmu);

    EmulatorConfig config_{};
    Core core_;
    MemoProbe* probe_ = nullptr;  // attach_memo_probe()
    Pmu pmu_;
    Pmu* pmu_active_ = &pmu_;
    SampledClock clock_;
    Pmu* observers_[kMaxObservers] = {};
    unsigned num_observers_ = 0;
    Outcome outcome_;
    FunctionalSink counts_;
    bool functional_ = false;
    bool detail_ = false;        // --timing=sampled: inside a window of the timing tier
    std::uint64_t total_ = 0;    // the front end's program instructions at the last settle()
    SampleAux aux_{};            // and the functional tier's exact counts then (unit_regression.h)
    bool interleaved_ = false;  // next_thread() chose between two instruction streams
    std::uint64_t timed_ = 0;
    bool thread_started_[2] = {false, false};
    bool thread_stopped_[2] = {false, false};
};

}  // namespace netburst::emu
