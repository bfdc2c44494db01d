#include "emulator/x86/machine_info.h"

#include "emulator/core/core_config.h"
#include "emulator/core/trace_cache.h"
#include "emulator/x86/guest_cpuid.h"

namespace netburst::emu::vg {

void describe_machine(const EmulatedMachine& machine, nb_emulator_info* info) {
    *info = nb_emulator_info{};
    info->protocol_version = NB_CLIENT_PROTOCOL_VERSION;
    info->model = machine.model;
    // The stepping CPUID reports (the part guest_cpuid.cpp describes); the model has no stepping-specific behaviour.
    const GuestCpuIdentity* id = guest_cpu_identity(machine.model);
    info->stepping = id ? id->stepping : 0;
    info->hyper_threading = machine.hyper_threading ? 1 : 0;
    info->has_l3 = machine.has_l3 ? 1 : 0;
    const CoreConfig core = make_core_config(machine);
    // The L2's lines (and the L3's, which the memory system gives the L2's size) are two sectors; a Pentium 4's
    // CPUID reports the sector as the line.
    const unsigned sector = core.l2_line / 2;
    info->l1d_size = core.l1_size;
    info->l1d_ways = core.l1_ways;
    info->l1d_line = core.l1_line;
    info->trace_cache_uops = core.tc_lines * TraceCache::kLineSlots;
    info->trace_cache_ways = core.tc_ways;
    info->l2_size = core.l2_size;
    info->l2_ways = core.l2_ways;
    info->l2_sector = sector;
    info->l3_size = machine.has_l3 ? core.l3_size : 0;
    info->l3_ways = machine.has_l3 ? core.l3_ways : 0;
    info->l3_sector = machine.has_l3 ? sector : 0;
    info->itlb_entries = core.itlb_entries;
    info->itlb_ways = core.itlb_ways;
    info->dtlb_entries = core.dtlb_entries;
}

}  // namespace netburst::emu::vg
