#include "emulator/emulator.h"

namespace netburst::emu {

void Emulator::reset(const EmulatorConfig& config) {
    config_ = config;
    core_.reset(make_core_config(config.machine));
    pmu_.reset(config);
    pmu_active_ = &pmu_;
    num_observers_ = 0;
    outcome_.clear();
    counts_.reset();
    functional_ = false;
    interleaved_ = false;
    timed_ = 0;
    thread_started_[0] = thread_started_[1] = false;
    thread_stopped_[0] = thread_stopped_[1] = false;
    detail_ = false;
    total_ = 0;
    aux_ = SampleAux{};
    clock_.reset(core_.now());
    update_tier();
    if (schedules() && !functional_) timed_all(true);
}

void Emulator::start_thread(unsigned thread, Cycle cycle) {
    thread_started_[thread] = true;
    set_thread_active_all(thread, true, cycle);
}

void Emulator::execute_timed(const Instruction& insn, const UopPlan& plan) {
    const unsigned t = insn.thread & 1;
    // Records the core gathered under the previous privilege level go out in an Outcome of that level.
    while (core_.privilege_flush(insn, &outcome_)) consume_all(outcome_);
    if (__builtin_expect(probe_ != nullptr, 0)) {
        execute_probed(insn, plan);
    } else {
        core_.execute(insn, plan, &outcome_);
    }
    outcome_.instruction = &insn;
    ++timed_;
    if (!thread_started_[t]) start_thread(t, outcome_.fetch);
    consume_all(outcome_);
}

// execute_timed's core step with the memo probe watching (out of line: the common path stays as it was).
__attribute__((noinline)) void Emulator::execute_probed(const Instruction& insn, const UopPlan& plan) {
    probe_->before(insn.pc, [&] { return core_.timing_state(insn.thread & 1); });
    core_.execute(insn, plan, &outcome_);
    probe_->after(outcome_, is_branch(insn.cls) || insn.cls == InsnClass::Syscall);
}

void Emulator::stop_thread(unsigned thread) {
    const unsigned t = thread & 1;
    if (thread_stopped_[t]) return;
    sync();
    thread_stopped_[t] = true;
    while (core_.has_pending(t)) {  // everything it still owes reaches the PMU first
        core_.serialize(t, &outcome_);
        consume_all(outcome_);
    }
    core_.stop_thread(t, &outcome_);
    consume_all(outcome_);
    while (core_.has_pending(t)) {
        core_.serialize(t, &outcome_);
        consume_all(outcome_);
    }
    set_thread_active_all(t, false, core_.now());
}

unsigned Emulator::next_thread(bool thread0_has_more, bool thread1_has_more) {
    if (config_.machine.hyper_threading && thread0_has_more && thread1_has_more && !interleaved_) {
        interleaved_ = true;
        update_tier();
    }
    return core_.next_thread(thread0_has_more, thread1_has_more);
}

void Emulator::sync() {
    if (!functional_) return;
    core_.flush_functional(&counts_);
    for (unsigned t = 0; t < 2; ++t)
        if (!thread_started_[t] && core_.stats(t).instructions != 0) start_thread(t, core_.now());
    if (!counts_.counted()) return;
    pmu_active_->absorb(counts_);
    for (unsigned i = 0; i < num_observers_; ++i) observers_[i]->absorb(counts_);
    counts_.clear_counts();
}

void Emulator::attach_pmu(Pmu* pmu) {
    sync();
    Pmu* const next = pmu ? pmu : &pmu_;
    if (next != pmu_active_) {
        leave_sampling(*pmu_active_);
        join_sampling(*next);
    }
    pmu_active_ = next;
    update_tier();
}

void Emulator::attach_observers(Pmu* const* pmus, unsigned count) {
    sync();
    for (unsigned i = 0; i < num_observers_; ++i) leave_sampling(*observers_[i]);
    num_observers_ = count < kMaxObservers ? count : kMaxObservers;
    for (unsigned i = 0; i < num_observers_; ++i) {
        observers_[i] = pmus[i];
        join_sampling(*observers_[i]);
    }
    update_tier();
}

// --timing=sampled: a PMU that leaves keeps what it counted timed; one that comes starts its stretch here, and the
// instructions other threads ran meanwhile are not its own.
void Emulator::leave_sampling(Pmu& pmu) {
    if (config_.sampled_timing && !functional_) pmu.sampled_timed(false);
}

void Emulator::join_sampling(Pmu& pmu) {
    if (!config_.sampled_timing) return;
    pmu.sampled_resume(total_, aux_);
    if (!functional_) pmu.sampled_timed(true);
}

void Emulator::timed_all(bool begin) {
    if (config_.machine.emulated_clock) clock_.timed(begin, core_.now());
    if (!config_.sampled_timing) return;
    pmu_active_->sampled_timed(begin);
    for (unsigned i = 0; i < num_observers_; ++i) observers_[i]->sampled_timed(begin);
}

void Emulator::set_detail(bool detail) {
    detail_ = detail;
    update_tier();
}

void Emulator::unit(bool begin, std::uint64_t instructions, bool representative) {
    if (functional_) return;  // nothing needs cycles: there is nothing to measure
    if (config_.machine.emulated_clock) clock_.unit(begin, instructions, core_.now(), aux_);
    if (!config_.sampled_timing) return;
    // The counters' estimators take a unit as a sample of the program, so only units the schedule placed at random
    // positions: one placed where the program read its clock (the dynamic loader's rdtsc, a timed region's start)
    // is not, and its code is not the code around it. The dropped unit's events still count: its stretch ran timed.
    const std::uint64_t n = representative ? instructions : 0;
    pmu_active_->sampled_unit(begin, n, aux_);
    for (unsigned i = 0; i < num_observers_; ++i) observers_[i]->sampled_unit(begin, n, aux_);
}

void Emulator::settle(std::uint64_t total, std::uint64_t syscalls, std::uint64_t interrupts) {
    total_ = total;
    if (!schedules()) return;
    // Counted as they happen in both tiers (memory_system.cpp), so no sync() is needed to read them.
    const MemorySystem::Stats& m = core_.memory_stats();
    aux_.v[0] = m.l2_read_misses;
    aux_.v[1] = m.l2_write_misses;
    aux_.v[2] = m.l1_load_misses;
    aux_.v[3] = m.alias_conflicts;
    aux_.v[4] = syscalls;
    aux_.v[5] = interrupts;
    if (config_.machine.emulated_clock) clock_.settle(total, functional_, aux_);
    if (!config_.sampled_timing) return;
    pmu_active_->sampled_settle(total, functional_, aux_);
    for (unsigned i = 0; i < num_observers_; ++i) observers_[i]->sampled_settle(total, functional_, aux_);
}

bool Emulator::any_pmu(bool (Pmu::*question)() const) const {
    if ((pmu_active_->*question)()) return true;
    for (unsigned i = 0; i < num_observers_; ++i)
        if ((observers_[i]->*question)()) return true;
    return false;
}

bool Emulator::sampling_estimates() const { return config_.sampled_timing && any_pmu(&Pmu::has_estimates); }

bool Emulator::wants_unit() const {
    return (config_.machine.emulated_clock && clock_.wants_unit()) ||
           (config_.sampled_timing && any_pmu(&Pmu::sampled_wants_unit));
}

void Emulator::close_all(Cycle cycle) {
    pmu_active_->close_until(cycle);
    for (unsigned i = 0; i < num_observers_; ++i) observers_[i]->close_until(cycle);
}

void Emulator::set_thread_active_all(unsigned thread, bool active, Cycle cycle) {
    pmu_active_->set_thread_active(thread, active, cycle);
    for (unsigned i = 0; i < num_observers_; ++i) observers_[i]->set_thread_active(thread, active, cycle);
}

bool Emulator::any_needs_exact_timing() const { return any_pmu(&Pmu::needs_exact_timing); }

bool Emulator::any_needs_timing() const { return any_pmu(&Pmu::needs_timing); }

void Emulator::drain(unsigned thread) {
    do {
        core_.serialize(thread, &outcome_);
        consume_all(outcome_);
    } while (core_.has_pending(thread));
    close_all(outcome_.frontier);
}

void Emulator::update_tier() {
    // --timing=sampled runs what the PMUs can estimate in the functional tier outside the front end's windows;
    // the emulated clock needs the windows only.
    const bool needs = (any_needs_timing() && (!config_.sampled_timing || detail_ || any_needs_exact_timing())) ||
                       (config_.machine.emulated_clock && detail_);
    const bool functional = !config_.force_timing && !interleaved_ && !needs && !counts_.nearly_full();
    if (functional == functional_) return;
    if (functional) {
        // Time stops here: everything in flight retires and every record reaches the PMU, so the functional tier
        // starts (and the timing tier later resumes) from a drained machine, as after a serialising instruction.
        for (unsigned t = 0; t < 2; ++t)
            if (thread_started_[t] && !thread_stopped_[t]) drain(t);
        if (schedules()) timed_all(false);
    } else {
        sync();
        if (schedules()) timed_all(true);
    }
    functional_ = functional;
}

Cycle Emulator::serialize(unsigned thread) {
    const unsigned t = thread & 1;
    sync();
    if (functional_ || !thread_started_[t] || thread_stopped_[t]) {
        close_all(core_.now());
        return core_.now();
    }
    core_.serialize(t, &outcome_);
    consume_all(outcome_);
    close_all(outcome_.frontier);
    return outcome_.frontier;
}

MsrResult Emulator::write_msr(unsigned thread, std::uint32_t msr, std::uint64_t value) {
    const Cycle now = serialize(thread);
    const MsrResult r = pmu_active_->write_msr(thread, msr, value, now);
    update_tier();
    return r;
}

MsrResult Emulator::read_msr(unsigned thread, std::uint32_t msr, std::uint64_t* value) {
    const Cycle now = serialize(thread);
    return pmu_active_->read_msr(thread, msr, value, now);
}

MsrResult Emulator::read_pmc(unsigned thread, std::uint32_t ecx, std::uint64_t* value) {
    const Cycle now = serialize(thread);
    return pmu_active_->read_pmc(thread, ecx, value, now);
}

void Emulator::finish() {
    sync();
    for (unsigned t = 0; t < 2; ++t)
        if (thread_started_[t]) stop_thread(t);
    close_all(core_.now());
}

}  // namespace netburst::emu
