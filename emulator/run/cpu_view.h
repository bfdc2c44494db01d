// The guest's view of the processor put in place: the emulated Pentium 4's /proc/cpuinfo and
// /sys/devices/system/cpu (emulator/x86/guest_cpu_view.h) mounted over the host's, for the program netburst-run
// starts and everything it runs, in a mount namespace of its own. doc/guest-cpu.md says what the program sees.
#pragma once

#include <string>

#include "emulator/model/emulated_machine.h"
#include "events/status.h"

namespace netburst::emu::run {

// Writes DIR/cpuinfo and the tree DIR/cpu for `machine`.
Result<bool> write_cpu_view(const EmulatedMachine& machine, const std::string& dir);

// In the child, before it execs the program: a new mount namespace (and, for a user who is not root, a user
// namespace that maps only its own user and group IDs, so that the mounts are allowed), its mounts private, and
// DIR/cpuinfo and DIR/cpu bound over /proc/cpuinfo and /sys/devices/system/cpu. Returns "" when done, else why
// not (then the process sees the host's files).
std::string enter_cpu_view(const std::string& dir);

}  // namespace netburst::emu::run
