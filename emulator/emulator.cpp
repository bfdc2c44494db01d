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
    thread_started_[0] = thread_started_[1] = false;
    thread_stopped_[0] = thread_stopped_[1] = false;
}

void Emulator::execute(const Instruction& insn) {
    const unsigned t = insn.thread & 1;
    core_.execute(insn, &outcome_);
    if (!thread_started_[t]) {
        thread_started_[t] = true;
        pmu_active_->set_thread_active(t, true, outcome_.fetch);
    }
    pmu_active_->consume(outcome_);
}

void Emulator::stop_thread(unsigned thread) {
    const unsigned t = thread & 1;
    if (thread_stopped_[t]) return;
    thread_stopped_[t] = true;
    core_.stop_thread(t, &outcome_);
    pmu_active_->consume(outcome_);
    pmu_active_->set_thread_active(t, false, core_.now());
}

Cycle Emulator::serialize(unsigned thread) {
    const unsigned t = thread & 1;
    if (!thread_started_[t] || thread_stopped_[t]) {
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
    return pmu_active_->write_msr(thread, msr, value, now);
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
    for (unsigned t = 0; t < 2; ++t)
        if (thread_started_[t]) stop_thread(t);
    pmu_active_->close_until(core_.now());
}

}  // namespace netburst::emu
