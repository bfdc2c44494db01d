#include "backend/detect.h"

#include "emulator/protocol/netburst_client.h"
#include "table/cpu_model.h"

namespace netburst::component {

namespace {

// IA32_MISC_ENABLE bit 7: performance monitoring available (SDM Vol. 3B 18.15).
constexpr std::uint64_t kMiscEnablePerfMon = std::uint64_t{1} << 7;

Detection disabled(std::string reason) {
    Detection d;
    d.disabled_reason = std::move(reason);
    return d;
}

Detection from_emulator(const EmulatorQuery& q, const DetectionSources& sources) {
    if (q.protocol_version != NB_CLIENT_PROTOCOL_VERSION)
        return disabled("netburst-run speaks client protocol " + std::to_string(q.protocol_version) +
                        ", this libpapi speaks " + std::to_string(NB_CLIENT_PROTOCOL_VERSION) +
                        ": use the netburst-run and libpapi of one papi-netburst build");
    const emu::EmulatedMachine& m = q.machine;
    if (!model_exists(m.model))
        return disabled("the emulator reports CPU model " + std::to_string(m.model) +
                        ", which is not a NetBurst model this component knows");
    if (!(q.misc_enable & kMiscEnablePerfMon))
        return disabled("the emulated processor reports performance monitoring unavailable (IA32_MISC_ENABLE bit 7 "
                        "clear)");
    Detection d;
    d.backend = sources.make_emulator_backend();
    d.cpu.model = m.model;
    d.cpu.hyper_threading = m.hyper_threading;
    d.cpu.has_l3 = m.has_l3;
    d.cpu.emulated = true;
    d.cpu.stepping = q.stepping;
    d.cpu.memory = q.memory;
    d.cpu.per_thread_pmu = q.per_thread;
    d.cpu.description = std::string("emulated Pentium 4 model ") + std::to_string(m.model) + " (" +
                        model_codename(m.model) + (m.has_l3 ? ", with L3" : "") +
                        (m.hyper_threading ? ", Hyper-Threading" : "") + ") under netburst-run";
    return d;
}

}  // namespace

Detection detect_backend(const DetectionSources& sources) {
    const EmulatorQuery q = sources.emulator();
    if (q.emulated) return from_emulator(q, sources);

    const MsrEnvironment env = sources.environment();
    if (!env.error.empty()) return disabled(env.error);
    CpuIdentity cpu = sources.cpu();
    if (env.assume_cpu) {  // a test hook, honoured only with fake device files (msr_environment.h)
        cpu.vendor = "GenuineIntel";
        cpu.known = true;
        cpu.base_family = env.family > 0xF ? 0xF : env.family;
        cpu.family = env.family;
        cpu.model = env.model;
        cpu.stepping = env.stepping;
    }
    if (!is_netburst(cpu))
        return disabled("this processor (" + describe(cpu) +
                        ") is not a NetBurst (Pentium 4) and the program is not running on the NetBurst emulator: "
                        "run it under netburst-run (netburst-run -- PROGRAM [ARGS])");

    const MsrDeviceProbe msr = sources.msr_device(0);
    if (msr.state != MsrDeviceState::Usable)
        return disabled("NetBurst processor (" + describe(cpu) + "), but " + msr.advice);
    return sources.msr_backend(cpu, env);
}

}  // namespace netburst::component
