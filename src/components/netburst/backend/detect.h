// Which backend the component uses, or why it is disabled. The emulator comes first: under netburst-run the
// program's CPUID is the host's, and the emulated Pentium 4 is the one to count on. Otherwise a real NetBurst
// processor gets the kernel MSR backend (backend/msr_detect.h); anything else is told to run under netburst-run.
#pragma once

#include <functional>

#include "backend/backend.h"
#include "backend/cpu_probe.h"
#include "backend/emulator_backend.h"
#include "backend/msr_detect.h"
#include "backend/msr_device.h"
#include "backend/msr_environment.h"

namespace netburst::component {

// Where detection looks; tests replace these.
struct DetectionSources {
    std::function<EmulatorQuery()> emulator = query_emulator;
    std::function<CpuIdentity()> cpu = identify_cpu;
    std::function<MsrDeviceProbe(unsigned)> msr_device = [](unsigned n) {
        return probe_msr_device(n, read_msr_environment().device_root);
    };
    // The kernel MSR backend's test hooks ($PAPI_NETBURST_MSR_DEVICE_DIR, $PAPI_NETBURST_ASSUME_CPU, ...).
    std::function<MsrEnvironment()> environment = [] { return read_msr_environment(); };
    // Sets up the kernel MSR backend once CPUID says NetBurst and CPU 0's device opens.
    std::function<Detection(const CpuIdentity&, const MsrEnvironment&)> msr_backend =
        [](const CpuIdentity& id, const MsrEnvironment& env) { return detect_msr_backend(id, env); };
    // Makes the emulator backend; tests give an in-process one.
    std::function<std::unique_ptr<Backend>()> make_emulator_backend = [] {
        return std::unique_ptr<Backend>(new EmulatorBackend());
    };
};

Detection detect_backend(const DetectionSources& sources = DetectionSources());

}  // namespace netburst::component
