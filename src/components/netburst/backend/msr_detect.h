// Setting up the kernel MSR backend on a NetBurst processor, or saying exactly why it cannot be (the reason
// papi_component_avail shows): the model, the topology, the devices of every logical CPU, IA32_MISC_ENABLE
// (bit 7: performance monitoring available; bit 12: PEBS unavailable), the allow-list on msr-safe, RDPMC.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "backend/backend.h"
#include "backend/cpu_probe.h"
#include "backend/msr_environment.h"
#include "backend/msr_io.h"
#include "backend/placement.h"

namespace netburst::component {

// What tests replace.
struct MsrDetectHooks {
    std::string topology_xml;             // empty: hwloc's own choice ($HWLOC_XMLFILE or the running system)
    DeviceIo::OpenFn open_fn = nullptr;   // how device files are opened
    std::function<std::unique_ptr<ThreadPlacement>()> placement;         // default: KernelPlacement
    std::function<std::unique_ptr<MsrIo>(std::unique_ptr<MsrIo>)> wrap_io;  // e.g. a recorder around the devices
    bool (*rdpmc_probe)(unsigned counter) = nullptr;                     // default: rdpmc_allowed
};

// The installed msr-safe allow-list for `model` ("<pkgdatadir>/msr-safe/al_0F_02").
std::string installed_allowlist_path(unsigned model);

Detection detect_msr_backend(const CpuIdentity& cpu, const MsrEnvironment& env,
                             const MsrDetectHooks& hooks = MsrDetectHooks());

}  // namespace netburst::component
