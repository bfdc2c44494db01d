#include "emulator/emulator.h"

namespace netburst::emu {

void Emulator::reset(const EmulatorConfig& config) {
    config_ = config;
    core_.reset(make_core_config(config.model, config.hyper_threading, config.with_l3));
    PmuConfig p;
    p.model = config.model;
    p.hyper_threading = config.hyper_threading;
    p.pebs_available = config.pebs_available;
    p.long_mode = config.long_mode;
    p.pmi_skid_cycles = config.pmi_skid_cycles;
    pmu_.reset(p);
    pmu_active_ = &pmu_;
    outcome_.clear();
    counts_.reset();
    functional_ = false;
    interleaved_ = false;
    timed_ = 0;
    thread_started_[0] = thread_started_[1] = false;
    thread_stopped_[0] = thread_stopped_[1] = false;
    update_tier();
}

void Emulator::start_thread(unsigned thread, Cycle cycle) {
    thread_started_[thread] = true;
    pmu_active_->set_thread_active(thread, true, cycle);
}

void Emulator::execute_timed(const Instruction& insn, const UopPlan& plan) {
    const unsigned t = insn.thread & 1;
    // Records the core gathered under the previous privilege level go out in an Outcome of that level.
    while (core_.privilege_flush(insn, &outcome_)) pmu_active_->consume(outcome_);
    core_.execute(insn, plan, &outcome_);
    ++timed_;
    if (!thread_started_[t]) start_thread(t, outcome_.fetch);
    pmu_active_->consume(outcome_);
}

void Emulator::stop_thread(unsigned thread) {
    const unsigned t = thread & 1;
    if (thread_stopped_[t]) return;
    sync();
    thread_stopped_[t] = true;
    while (core_.has_pending(t)) {  // everything it still owes reaches the PMU first
        core_.serialize(t, &outcome_);
        pmu_active_->consume(outcome_);
    }
    core_.stop_thread(t, &outcome_);
    pmu_active_->consume(outcome_);
    while (core_.has_pending(t)) {
        core_.serialize(t, &outcome_);
        pmu_active_->consume(outcome_);
    }
    pmu_active_->set_thread_active(t, false, core_.now());
}

unsigned Emulator::next_thread(bool thread0_has_more, bool thread1_has_more) {
    if (config_.hyper_threading && thread0_has_more && thread1_has_more && !interleaved_) {
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
    counts_.clear_counts();
}

void Emulator::attach_pmu(Pmu* pmu) {
    sync();
    pmu_active_ = pmu ? pmu : &pmu_;
    update_tier();
}

void Emulator::drain(unsigned thread) {
    do {
        core_.serialize(thread, &outcome_);
        pmu_active_->consume(outcome_);
    } while (core_.has_pending(thread));
    pmu_active_->close_until(outcome_.frontier);
}

void Emulator::update_tier() {
    const bool functional =
        !config_.force_timing && !interleaved_ && !pmu_active_->needs_timing() && !counts_.nearly_full();
    if (functional == functional_) return;
    if (functional) {
        // Time stops here: everything in flight retires and every record reaches the PMU, so the functional tier
        // starts (and the timing tier later resumes) from a drained machine, as after a serialising instruction.
        for (unsigned t = 0; t < 2; ++t)
            if (thread_started_[t] && !thread_stopped_[t]) drain(t);
    } else {
        sync();
    }
    functional_ = functional;
}

Cycle Emulator::serialize(unsigned thread) {
    const unsigned t = thread & 1;
    sync();
    if (functional_ || !thread_started_[t] || thread_stopped_[t]) {
        pmu_active_->close_until(core_.now());
        return core_.now();
    }
    core_.serialize(t, &outcome_);
    pmu_active_->consume(outcome_);
    pmu_active_->close_until(outcome_.frontier);
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
    pmu_active_->close_until(core_.now());
}

}  // namespace netburst::emu
