#include "backend/msr_detect.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "backend/msr_allowlist.h"
#include "backend/msr_backend.h"
#include "backend/rdpmc.h"
#include "backend/topology.h"
#include "table/cpu_model.h"
#include "table/hex.h"

#ifndef NETBURST_DATADIR
#define NETBURST_DATADIR "/usr/local/share/papi-netburst"
#endif

namespace netburst::component {

namespace {

std::string signature(const CpuIdentity& cpu) {
    return "family " + std::to_string(cpu.family) + " model " + std::to_string(cpu.model) + " stepping " +
           std::to_string(cpu.stepping);
}

std::string list_counters(CounterMask mask) {
    std::string out;
    for (unsigned c = 0; c < kNumCounters; ++c)
        if (mask & counter_bit(c)) out += (out.empty() ? "" : ",") + std::to_string(c);
    return out;
}

std::string load_allowlist_advice(unsigned model) {
    return "load papi-netburst's allow-list into msr-safe (as root or msr-admin: cat " +
           installed_allowlist_path(model) + " > /dev/cpu/msr_allowlist)";
}

// Why a device could not be opened, and what to do about it.
std::string open_advice(const std::string& path, int err, unsigned model) {
    const bool safe = path.size() >= 8 && path.compare(path.size() - 8, 8, "msr_safe") == 0;
    switch (err) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
        return path + " does not exist: load the msr kernel module (modprobe msr, as root) or install msr-safe";
    case EPERM:
        // The kernel's msr driver checks CAP_SYS_RAWIO in open() and answers EPERM without it.
        return "opening " + path + " needs the CAP_SYS_RAWIO capability as well as read-write access to the file: "
               "run as root, or give the program the capability (setcap cap_sys_rawio=ep PROGRAM; note that "
               "LD_LIBRARY_PATH is then ignored), or use msr-safe, which needs no capability: " +
               load_allowlist_advice(model) + " and give your group read-write access to /dev/cpu/*/msr_safe";
    case EACCES:
        return "no permission to open " + path + ": " +
               (safe ? "give your user or group read-write access to /dev/cpu/*/msr_safe (msr-safe suggests a group "
                       "msr-user), and " + load_allowlist_advice(model)
                     : "the msr device needs read-write access for you (a udev rule or chmod) and CAP_SYS_RAWIO "
                       "(run as root or setcap cap_sys_rawio=ep PROGRAM); or use msr-safe: " +
                           load_allowlist_advice(model));
    default:
        return "cannot open " + path + ": " + std::strerror(err);
    }
}

std::string read_advice(std::uint32_t msr, unsigned cpu, int err, unsigned model) {
    const char* name = msr_name(msr);
    const std::string reg = hex_upper(msr) + " (" + (name ? name : "?") + ")";
    if (err == EACCES)
        return "msr-safe refuses to read " + reg + ": its allow-list lacks the NetBurst PMU registers; " +
               load_allowlist_advice(model);
    if (err == EIO)
        return "reading " + reg + " on CPU " + std::to_string(cpu) +
               " faulted (#GP): the processor does not implement it, so it is not the NetBurst model its CPUID "
               "signature says";
    return "reading " + reg + " on CPU " + std::to_string(cpu) + " failed: " + std::strerror(err);
}

Detection disabled(const CpuIdentity& cpu, const std::string& why) {
    Detection d;
    d.disabled_reason = "NetBurst processor (" + signature(cpu) + "), but " + why;
    return d;
}

}  // namespace

std::string installed_allowlist_path(unsigned model) {
    return std::string(NETBURST_DATADIR) + "/msr-safe/" + msr_safe_allowlist_name(model);
}

Detection detect_msr_backend(const CpuIdentity& cpu, const MsrEnvironment& env, const MsrDetectHooks& hooks) {
    const unsigned model = cpu.model;
    if (!model_exists(model))
        return disabled(cpu, "model " + std::to_string(model) +
                                 " is not a NetBurst model this component knows (family 0FH models 0-4 and 6)");

    Topology topology;
    std::string error;
    if (!load_topology(hooks.topology_xml, &topology, &error)) return disabled(cpu, error);

    std::vector<unsigned> cpus;
    for (const LogicalCpu& c : topology.cpus) cpus.push_back(c.os_index);
    auto devices = std::make_unique<DeviceIo>();
    std::string path;
    int err = 0;
    if (!devices->open_all(env.device_root, cpus, &path, &err, hooks.open_fn))
        return disabled(cpu, open_advice(path, err, model));
    const MsrDeviceKind kind = devices->kind();
    std::unique_ptr<MsrIo> io = std::move(devices);
    if (hooks.wrap_io) io = hooks.wrap_io(std::move(io));

    // The PMU must be there on every package; PEBS may be missing on some parts.
    bool pebs_unavailable = false;
    for (unsigned p = 0; p < topology.num_packages; ++p) {
        const unsigned first = topology.first_cpu_of_package(p);
        std::uint64_t misc = 0;
        if ((err = io->read(first, kMsrMiscEnable, &misc)) != 0)
            return disabled(cpu, read_advice(kMsrMiscEnable, first, err, model));
        if (!(misc & (std::uint64_t{1} << kMiscEnablePmuAvailableBit)))
            return disabled(cpu, "performance monitoring is unavailable: IA32_MISC_ENABLE bit 7 is clear on CPU " +
                                     std::to_string(first));
        if (misc & (std::uint64_t{1} << kMiscEnablePebsUnavailableBit)) pebs_unavailable = true;
    }

    // Every register the backend may touch must be readable now, so that an msr-safe allow-list that lacks one
    // disables the component here, with the advice, rather than failing in the middle of counting.
    const MsrAllowList list(model);
    const unsigned first = topology.first_cpu_of_package(0);
    for (const AllowedMsr& e : list) {
        std::uint64_t value = 0;
        if ((err = io->read(first, e.msr, &value)) != 0) return disabled(cpu, read_advice(e.msr, first, err, model));
    }

    MsrBackendConfig config;
    config.model = model;
    config.stepping = cpu.stepping;
    config.topology = topology;
    config.io = std::move(io);
    config.placement = hooks.placement ? hooks.placement() : std::make_unique<KernelPlacement>();
    config.pebs_unavailable = pebs_unavailable;
    if (env.rdpmc_allowed && !env.fake_devices) {
        bool (*probe)(unsigned) = hooks.rdpmc_probe ? hooks.rdpmc_probe : rdpmc_allowed;
        if (probe(0)) config.rdpmc = rdpmc;
    }
    auto backend = std::make_unique<MsrBackend>(std::move(config));

    Detection d;
    d.cpu.model = model;
    d.cpu.hyper_threading = topology.hyper_threading;
    d.cpu.has_l3 = topology.has_l3;
    d.cpu.emulated = false;
    d.cpu.per_thread_pmu = false;
    d.cpu.cpu_attach = true;
    const std::string device = kind == MsrDeviceKind::MsrSafe ? "msr_safe" : "msr";

    // papi_component_avail shows at most 127 characters of the description: the essentials only.
    std::string desc = "Pentium 4 model " + std::to_string(model) + " stepping " + std::to_string(cpu.stepping) +
                       ", " + std::to_string(topology.num_packages) + " package" +
                       (topology.num_packages == 1 ? "" : "s") + (topology.hyper_threading ? " with HT" : "") +
                       ", per logical CPU via " + (env.fake_devices ? "fake " + device + " files" : device);
    std::string notes = "counting per logical CPU through " + env.device_root + "/*/" + device + "; counters read " +
                        (backend->uses_rdpmc() ? "with RDPMC" : "with pread (RDPMC not allowed)") +
                        "; counter 1 is never used (CCCR1 Enable erratum); counter writes are done twice (erratum N15)";
    CounterMask foreign_any = 0;
    for (unsigned p = 0; p < topology.num_packages; ++p) {
        const CounterMask foreign = backend->foreign_counters(p);
        foreign_any |= foreign;
        if (foreign)
            notes += "; package " + std::to_string(p) + ": counters " + list_counters(foreign) +
                     " are enabled by other software (the NMI watchdog, perf or another tool) and are left alone";
    }
    if (foreign_any) desc += "; counters " + list_counters(foreign_any) + " held by others";
    if (pebs_unavailable)
        notes += "; IA32_MISC_ENABLE reports PEBS unavailable, so the replay-tagging metrics are not counted";
    d.cpu.description = desc;
    d.cpu.notes = notes;
    d.backend = std::move(backend);
    return d;
}

}  // namespace netburst::component
