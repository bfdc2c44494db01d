// TEMPORARY LINK-TIME STAND-IN for the core and PMU models (branches emu-core and emu-pmu), so that the tool and
// its plumbing (decoder, feed, --record, client requests, threads, netburst-run) can be built and tested before
// the real model is merged. It models nothing: MSRs keep what is written, counters never count, and every
// counter reports "unsupported". emulator/valgrind/local.mk builds it only while emulator/core has no sources;
// delete it once the model has landed.
#include "emulator/core/core.h"
#include "emulator/pmu/pmu.h"

namespace netburst::emu {

namespace {
Cycle g_now = 0;
std::uint64_t g_instructions[2] = {0, 0};
std::uint64_t g_msr_keys[256];
std::uint64_t g_msr_values[256];
unsigned g_msr_count = 0;
}  // namespace

CoreConfig make_core_config(unsigned model, bool hyper_threading, bool with_l3) {
    CoreConfig c;
    c.model = model;
    c.hyper_threading = hyper_threading;
    c.has_l3 = with_l3;
    return c;
}

void Core::reset(const CoreConfig&) { g_now = 0; }
void Core::execute(const Instruction& insn, Outcome* out) {
    out->clear();
    out->thread = insn.thread;
    out->cpl = insn.cpl;
    out->pc = insn.pc;
    out->fetch = g_now;
    out->retire = ++g_now;
    out->frontier = g_now;
    ++g_instructions[insn.thread & 1];
}
unsigned Core::next_thread(bool thread0_has_more, bool) const { return thread0_has_more ? 0 : 1; }
void Core::stop_thread(unsigned, Outcome* out) { out->clear(); }
Cycle Core::now() const { return g_now; }
Core::Stats Core::stats(unsigned thread) const {
    Stats s;
    s.instructions = g_instructions[thread & 1];
    s.cycles = g_now;
    return s;
}

void Pmu::reset(const PmuConfig&) { g_msr_count = 0; }
MsrResult Pmu::write_msr(unsigned, std::uint32_t msr, std::uint64_t value, Cycle) {
    for (unsigned i = 0; i < g_msr_count; ++i)
        if (g_msr_keys[i] == msr) {
            g_msr_values[i] = value;
            return MsrResult::Ok;
        }
    if (g_msr_count == 256) return MsrResult::GeneralProtection;
    g_msr_keys[g_msr_count] = msr;
    g_msr_values[g_msr_count++] = value;
    return MsrResult::Ok;
}
MsrResult Pmu::read_msr(unsigned, std::uint32_t msr, std::uint64_t* value, Cycle) {
    *value = 0;
    for (unsigned i = 0; i < g_msr_count; ++i)
        if (g_msr_keys[i] == msr) *value = g_msr_values[i];
    return MsrResult::Ok;
}
MsrResult Pmu::read_pmc(unsigned, std::uint32_t, std::uint64_t* value, Cycle) {
    *value = 0;
    return MsrResult::Ok;
}
bool Pmu::counter_unsupported(unsigned) const { return true; }
void Pmu::consume(const Outcome&) {}
void Pmu::set_thread_active(unsigned, bool, Cycle) {}
void Pmu::close_until(Cycle) {}
void Pmu::set_guest_memory(const GuestMemory&) {}
unsigned Pmu::take_pmis(PmiRecord*, unsigned) { return 0; }
unsigned Pmu::take_pebs_records(PebsRecord*, unsigned) { return 0; }
std::uint64_t Pmu::lost_records() const { return 0; }

}  // namespace netburst::emu
