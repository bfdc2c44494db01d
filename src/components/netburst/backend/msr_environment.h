// The kernel MSR backend's test hooks, read from the environment (doc/real-pentium4.md, "Testing without a
// Pentium 4"):
//
//   PAPI_NETBURST_MSR_DEVICE_DIR=DIR      use DIR/N/msr_safe or DIR/N/msr instead of /dev/cpu/N/...: regular files
//                                         (sparse; the 8 bytes at offset 8*A hold MSR A) stand in for the devices.
//   PAPI_NETBURST_ASSUME_CPU=F:M:S        take CPUID family F, model M, stepping S as the processor's signature.
//                                         Only together with PAPI_NETBURST_MSR_DEVICE_DIR: a processor that is not
//                                         a Pentium 4 must never get Pentium 4 MSR writes on its real devices.
//   PAPI_NETBURST_RDPMC=0                 never read counters with RDPMC (pread only).
//   HWLOC_XMLFILE=FILE                    hwloc's own variable: the topology from an XML file.
//
// With fake device files RDPMC is never used: it would read the counters of the machine running the test.
#pragma once

#include <string>

namespace netburst::component {

struct MsrEnvironment {
    std::string device_root = "/dev/cpu";
    bool fake_devices = false;
    bool assume_cpu = false;
    unsigned family = 0, model = 0, stepping = 0;
    bool rdpmc_allowed = true;
    std::string error;  // a variable that is set wrongly, with what to do; empty when all is well
};

// Parses the variables (getenv by default; `get` is for tests).
MsrEnvironment read_msr_environment(const char* (*get)(const char*) = nullptr);

}  // namespace netburst::component
