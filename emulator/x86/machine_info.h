// The emulated machine as the guest may learn it: the model, its stepping, Hyper-Threading and the core model's
// caches and TLBs. One description, read by both things that tell the guest what it runs on: the MSR channel's
// query (which the PAPI component turns into PAPI's hardware information) and the guest's CPUID (guest_cpuid.h).
//
// Freestanding: the Valgrind tool links it.
#pragma once

#include "emulator/model/emulated_machine.h"
#include "emulator/protocol/netburst_client.h"

namespace netburst::emu::vg {

// Fills the static fields of *info (protocol version, model, stepping, hyper_threading, has_l3 and the caches and
// TLBs, from make_core_config: the parameters the emulator's core runs with). The per-call fields (logical
// processor, per_thread, kernel_model, misc_enable) are left zero.
void describe_machine(const EmulatedMachine& machine, nb_emulator_info* info);

}  // namespace netburst::emu::vg
