// What the guest's Linux says about its processor: the text of /proc/cpuinfo and the files of
// /sys/devices/system/cpu for the emulated machine, as a Linux 2.6.32 kernel on that Pentium 4 would write them.
//
// Every fact is read from the guest's CPUID (guest_cpuid.h: identity, flags, caches, topology) or from the model's
// nominal clock (guest_cpu_mhz), the way the kernel reads it from the processor; nothing is stated twice.
// netburst-run mounts the result over the host's files (emulator/run/cpu_view.h); doc/guest-cpu.md lists each
// field and its source.
//
// Host code (std::string): not part of the Valgrind tool.
#pragma once

#include <string>
#include <vector>

#include "emulator/model/emulated_machine.h"
#include "emulator/protocol/netburst_client.h"

namespace netburst::emu::vg {

// /proc/cpuinfo: one block per logical processor, in the format of Linux 2.6.32's x86-64 show_cpuinfo.
std::string guest_proc_cpuinfo(const EmulatedMachine& machine);

// One file of the guest's /sys/devices/system/cpu: its path below that directory ("online",
// "cpu0/cache/index1/size") and its contents.
struct GuestSysFile {
    std::string path;
    std::string text;
};
std::vector<GuestSysFile> guest_sys_cpu(const EmulatedMachine& machine);

// The "flags" of /proc/cpuinfo: Linux's name for each CPUID feature bit the guest's CPUID sets, in the kernel's
// order (leaf 1 EDX, 0x80000001 EDX, leaf 1 ECX, 0x80000001 ECX).
std::vector<std::string> guest_cpu_flags(const nb_emulator_info& m);

}  // namespace netburst::emu::vg
