// Can this process use the kernel's MSR device on CPU n? The kernel MSR backend (msr_backend.h) needs
// /dev/cpu/N/msr_safe (LLNL's msr-safe, with an allow-list) or /dev/cpu/N/msr (the msr module, root or
// CAP_SYS_RAWIO). This answers, before anything is programmed, why the device cannot be used, in words that say
// what to do.
#pragma once

#include <string>

namespace netburst::component {

enum class MsrDeviceState { Usable, Missing, NoPermission, Failed };

struct MsrDeviceProbe {
    MsrDeviceState state = MsrDeviceState::Missing;
    std::string path;    // the device that was usable, or the last one tried
    std::string advice;  // for the user, when not usable
};

// Tries dev_root/N/msr_safe, then dev_root/N/msr, for reading and writing. dev_root is "/dev/cpu" except in tests.
MsrDeviceProbe probe_msr_device(unsigned cpu, const std::string& dev_root = "/dev/cpu");

}  // namespace netburst::component
