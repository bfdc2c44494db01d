// Which backend the component gets, and the reason papi_component_avail shows when it gets none; the preset
// section choice; PAPI domains.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/detect.h"
#include "component/domain.h"
#include "component/preset_choice.h"
#include "emulator/protocol/netburst_client.h"

using namespace netburst;
using namespace netburst::component;

namespace {

class NullBackend final : public Backend {
public:
    IoStatus write_msr(std::uint32_t, std::uint64_t) override { return IoStatus::Ok; }
    IoStatus read_msr(std::uint32_t, std::uint64_t* v) override { return *v = 0, IoStatus::Ok; }
    IoStatus read_counter(unsigned, std::uint64_t* v) override { return *v = 0, IoStatus::Ok; }
    IoStatus counter_status(unsigned) override { return IoStatus::Ok; }
    unsigned logical_processor() override { return 0; }
};

DetectionSources sources(bool emulated, const std::string& vendor, unsigned family, MsrDeviceState msr) {
    DetectionSources s;
    s.emulator = [=] {
        EmulatorQuery q;
        q.emulated = emulated;
        q.protocol_version = NB_CLIENT_PROTOCOL_VERSION;
        q.machine = emu::EmulatedMachine{}.with_model(3).with_l3().with_ht();
        q.misc_enable = 1u << 7;
        q.stepping = 4;
        q.memory.l1d = CacheGeometry{16384, 8, 64};
        q.memory.l3 = CacheGeometry{2u << 20, 8, 64};
        q.memory.dtlb_entries = 64;
        return q;
    };
    s.cpu = [=] {
        CpuIdentity id;
        id.known = true;
        id.vendor = vendor;
        id.base_family = family > 15 ? 15 : family;
        id.family = family;
        id.model = 2;
        return id;
    };
    s.msr_device = [=](unsigned) {
        MsrDeviceProbe p;
        p.state = msr;
        p.path = "/dev/cpu/0/msr";
        p.advice = msr == MsrDeviceState::NoPermission ? "no permission to open /dev/cpu/0/msr: run as root"
                                                       : "load the msr kernel module (modprobe msr)";
        return p;
    };
    s.make_emulator_backend = [] { return std::unique_ptr<Backend>(new NullBackend); };
    return s;
}

}  // namespace

TEST(Detection, TheEmulatorComesFirstWhateverTheHostIs) {
    Detection d = detect_backend(sources(true, "AuthenticAMD", 26, MsrDeviceState::Missing));
    ASSERT_TRUE(d.backend);
    EXPECT_TRUE(d.disabled_reason.empty());
    EXPECT_EQ(d.cpu.model, 3u);
    EXPECT_TRUE(d.cpu.has_l3);
    EXPECT_TRUE(d.cpu.hyper_threading);
    EXPECT_TRUE(d.cpu.emulated);
    EXPECT_NE(d.cpu.description.find("model 3"), std::string::npos) << d.cpu.description;
    // The caches the emulator models, for PAPI's hardware information.
    EXPECT_EQ(d.cpu.stepping, 4u);
    EXPECT_EQ(d.cpu.memory.l1d.size, 16384u);
    EXPECT_EQ(d.cpu.memory.l1d.ways, 8u);
    EXPECT_EQ(d.cpu.memory.l3.size, 2u << 20);
    EXPECT_EQ(d.cpu.memory.dtlb_entries, 64u);
}

TEST(Detection, NotNetBurstAndNotEmulatedSaysRunUnderNetburstRun) {
    for (auto [vendor, family] : {std::pair<const char*, unsigned>{"GenuineIntel", 6}, {"AuthenticAMD", 15},
                                  {"AuthenticAMD", 26}, {"GenuineIntel", 16}}) {
        Detection d = detect_backend(sources(false, vendor, family, MsrDeviceState::Usable));
        EXPECT_FALSE(d.backend);
        EXPECT_NE(d.disabled_reason.find("run it under netburst-run"), std::string::npos) << d.disabled_reason;
        EXPECT_NE(d.disabled_reason.find(vendor), std::string::npos) << d.disabled_reason;
    }
}

TEST(Detection, ARealPentium4NeedsTheMsrDevice) {
    Detection missing = detect_backend(sources(false, "GenuineIntel", 15, MsrDeviceState::Missing));
    EXPECT_FALSE(missing.backend);
    EXPECT_NE(missing.disabled_reason.find("modprobe msr"), std::string::npos) << missing.disabled_reason;
    Detection denied = detect_backend(sources(false, "GenuineIntel", 15, MsrDeviceState::NoPermission));
    EXPECT_FALSE(denied.backend);
    EXPECT_NE(denied.disabled_reason.find("no permission"), std::string::npos) << denied.disabled_reason;
    // A usable device hands over to the kernel MSR backend's own detection (tests/backend/msr_detect_test.cpp).
    DetectionSources s = sources(false, "GenuineIntel", 15, MsrDeviceState::Usable);
    unsigned asked_for_model = 99;
    s.msr_backend = [&](const CpuIdentity& id, const MsrEnvironment&) {
        asked_for_model = id.model;
        Detection d;
        d.backend.reset(new NullBackend);
        return d;
    };
    Detection usable = detect_backend(s);
    EXPECT_TRUE(usable.backend);
    EXPECT_EQ(asked_for_model, 2u);
}

TEST(Detection, EmulatorProblemsAreExplained) {
    DetectionSources s = sources(true, "GenuineIntel", 6, MsrDeviceState::Missing);
    s.emulator = [] {
        EmulatorQuery q;
        q.emulated = true;
        q.protocol_version = 9;
        q.misc_enable = 1u << 7;
        return q;
    };
    Detection d = detect_backend(s);
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("protocol"), std::string::npos);
    s.emulator = [] {
        EmulatorQuery q;
        q.emulated = true;
        q.protocol_version = NB_CLIENT_PROTOCOL_VERSION;
        return q;  // IA32_MISC_ENABLE bit 7 clear
    };
    d = detect_backend(s);
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("IA32_MISC_ENABLE"), std::string::npos);
}

TEST(Detection, TheRealProbesWorkHere) {
    // Natively (not under netburst-run) the client requests answer "not emulated".
    EXPECT_FALSE(query_emulator().emulated);
    const CpuIdentity id = identify_cpu();
    EXPECT_TRUE(id.known);
    EXPECT_FALSE(id.vendor.empty());
}

TEST(MsrDevice, MissingUsableAndOtherFailures) {
    char dir[] = "/tmp/nb-msr-test.XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string root = dir;
    MsrDeviceProbe p = probe_msr_device(0, root);
    EXPECT_EQ(p.state, MsrDeviceState::Missing);
    EXPECT_NE(p.advice.find("modprobe msr"), std::string::npos);

    ASSERT_EQ(mkdir((root + "/0").c_str(), 0755), 0);
    ASSERT_EQ(mkdir((root + "/0/msr_safe").c_str(), 0755), 0);  // opening a directory read-write fails otherwise
    p = probe_msr_device(0, root);
    EXPECT_EQ(p.state, MsrDeviceState::Failed);
    rmdir((root + "/0/msr_safe").c_str());

    const int fd = open((root + "/0/msr").c_str(), O_CREAT | O_RDWR, 0600);
    ASSERT_GE(fd, 0);
    close(fd);
    p = probe_msr_device(0, root);
    EXPECT_EQ(p.state, MsrDeviceState::Usable);
    EXPECT_EQ(p.path, root + "/0/msr");
    unlink((root + "/0/msr").c_str());
    rmdir((root + "/0").c_str());
    rmdir(dir);
}

TEST(PresetChoice, OneSectionPerConfiguration) {
    EXPECT_EQ(choose_presets(false, nullptr).section, "papi-netburst sse");
    EXPECT_EQ(choose_presets(false, "").section, "papi-netburst sse");
    EXPECT_EQ(choose_presets(true, "x87").section, "papi-netburst x87 L3");
    EXPECT_EQ(choose_presets(false, "X87_SSE_DP").section, "papi-netburst x87_sse_dp");
    PresetChoice bad = choose_presets(false, "avx");
    EXPECT_EQ(bad.section, "papi-netburst sse");
    EXPECT_NE(bad.warning.find("PAPI_NETBURST_FP=avx"), std::string::npos) << bad.warning;
    EXPECT_TRUE(choose_presets(false, "x87").warning.empty());
}

TEST(Domains, UserKernelAndBoth) {
    EXPECT_TRUE(domain_supported(NB_DOMAIN_USER));
    EXPECT_TRUE(domain_supported(NB_DOMAIN_KERNEL));
    EXPECT_TRUE(domain_supported(NB_DOMAIN_USER | NB_DOMAIN_KERNEL));
    EXPECT_FALSE(domain_supported(0));
    EXPECT_FALSE(domain_supported(4));  // PAPI_DOM_OTHER
    EXPECT_FALSE(domain_supported(8));  // PAPI_DOM_SUPERVISOR
    EXPECT_EQ(privilege_for_domain(NB_DOMAIN_USER), (Privilege{true, false}));
    EXPECT_EQ(privilege_for_domain(NB_DOMAIN_KERNEL), (Privilege{false, true}));
    EXPECT_EQ(privilege_for_domain(NB_DOMAIN_USER | NB_DOMAIN_KERNEL), (Privilege{true, true}));
}
