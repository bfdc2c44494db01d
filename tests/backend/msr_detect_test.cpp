// Detection on a (fake) Pentium 4: every failure gives a reason that says what to do.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "backend/detect.h"
#include "backend/msr_detect.h"
#include "fake_machine.h"

using namespace netburst;
using namespace netburst::component;
using namespace netburst::component::test;

namespace {

bool ends_with(const char* s, const char* tail) {
    const std::size_t n = std::strlen(s), t = std::strlen(tail);
    return n >= t && std::strcmp(s + n - t, tail) == 0;
}

// Opening: msr_safe absent, msr refused for lack of CAP_SYS_RAWIO (what the kernel's msr driver answers).
int open_without_rawio(const char* path, int) {
    errno = ends_with(path, "msr_safe") ? ENOENT : EPERM;
    return -1;
}
// msr-safe installed, but the device is not readable and writable for this user.
int open_msr_safe_denied(const char* path, int) {
    errno = ends_with(path, "msr_safe") ? EACCES : ENOENT;
    return -1;
}

// A device layer whose reads of one MSR fail with a given errno (msr-safe without the register on its list: EACCES;
// a register the processor lacks: EIO).
class FailingReads final : public MsrIo {
public:
    FailingReads(std::unique_ptr<MsrIo> inner, std::uint32_t msr, int err) : inner_(std::move(inner)), msr_(msr), err_(err) {}
    int read(unsigned cpu, std::uint32_t msr, std::uint64_t* value) override {
        return msr == msr_ ? err_ : inner_->read(cpu, msr, value);
    }
    int write(unsigned cpu, std::uint32_t msr, std::uint64_t value) override { return inner_->write(cpu, msr, value); }

private:
    std::unique_ptr<MsrIo> inner_;
    std::uint32_t msr_;
    int err_;
};

Detection detect_with_failing_read(FakeMachine& m, std::uint32_t msr, int err) {
    MsrDetectHooks h = m.hooks();
    h.wrap_io = [msr, err](std::unique_ptr<MsrIo> io) { return std::unique_ptr<MsrIo>(new FailingReads(std::move(io), msr, err)); };
    return detect_msr_backend(m.cpu(), m.environment(), h);
}

}  // namespace

TEST(MsrDetect, ATwoPackageHyperThreadedXeon) {
    FakeMachine m;
    Detection d = m.detect();
    ASSERT_TRUE(d.backend) << d.disabled_reason;
    EXPECT_TRUE(d.disabled_reason.empty());
    EXPECT_EQ(d.cpu.model, 2u);
    EXPECT_TRUE(d.cpu.hyper_threading);
    EXPECT_FALSE(d.cpu.has_l3);
    EXPECT_FALSE(d.cpu.emulated);
    EXPECT_FALSE(d.cpu.per_thread_pmu);
    EXPECT_TRUE(d.cpu.cpu_attach);
    EXPECT_NE(d.cpu.description.find("2 packages with HT"), std::string::npos) << d.cpu.description;
    EXPECT_NE(d.cpu.description.find("per logical CPU via fake msr files"), std::string::npos) << d.cpu.description;
    EXPECT_LT(d.cpu.description.size(), 128u) << "PAPI's description field holds 127 characters";
    EXPECT_NE(d.cpu.notes.find("erratum N15"), std::string::npos) << d.cpu.notes;
    EXPECT_NE(d.cpu.notes.find("pread"), std::string::npos) << "no RDPMC on fake device files";
    EXPECT_FALSE(msr_backend(d).uses_rdpmc());
}

TEST(MsrDetect, AnL3MeansTheL3Presets) {
    FakeMachine m("xeon-mp-l3-ht.xml");
    Detection d = m.detect();
    ASSERT_TRUE(d.backend) << d.disabled_reason;
    EXPECT_TRUE(d.cpu.has_l3);
    EXPECT_NE(d.cpu.description.find("1 package with HT"), std::string::npos) << d.cpu.description;
}

TEST(MsrDetect, PerformanceMonitoringMustBeAvailable) {
    FakeMachine m;
    m.set(1, kMsrMiscEnable, 0);  // bit 7 clear on the second package
    const Detection d = m.detect();
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("IA32_MISC_ENABLE bit 7 is clear on CPU 1"), std::string::npos)
        << d.disabled_reason;
}

TEST(MsrDetect, AMissingDeviceSaysModprobe) {
    FakeMachine m;
    ASSERT_EQ(unlink((m.root() + "/3/msr").c_str()), 0);
    const Detection d = m.detect();
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("/3/msr does not exist"), std::string::npos) << d.disabled_reason;
    EXPECT_NE(d.disabled_reason.find("modprobe msr"), std::string::npos) << d.disabled_reason;
}

TEST(MsrDetect, PermissionProblemsSayWhatToDo) {
    FakeMachine m;
    m.open_fn = open_without_rawio;
    Detection d = m.detect();
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("CAP_SYS_RAWIO"), std::string::npos) << d.disabled_reason;
    EXPECT_NE(d.disabled_reason.find("setcap cap_sys_rawio=ep"), std::string::npos) << d.disabled_reason;
    EXPECT_NE(d.disabled_reason.find("msr-safe"), std::string::npos) << d.disabled_reason;

    m.open_fn = open_msr_safe_denied;
    d = m.detect();
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("/0/msr_safe"), std::string::npos) << d.disabled_reason;
    EXPECT_NE(d.disabled_reason.find(installed_allowlist_path(2)), std::string::npos) << d.disabled_reason;
    EXPECT_NE(d.disabled_reason.find("/dev/cpu/msr_allowlist"), std::string::npos) << d.disabled_reason;
}

TEST(MsrDetect, AnMsrSafeListWithoutTheNetBurstRegisters) {
    FakeMachine m;
    const Detection d = detect_with_failing_read(m, 0x3CB, EACCES);  // ALF_ESCR1 missing from the list
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("msr-safe refuses to read 0x3CB (MSR_ALF_ESCR1)"), std::string::npos)
        << d.disabled_reason;
    EXPECT_NE(d.disabled_reason.find("al_0F_02"), std::string::npos) << d.disabled_reason;
}

TEST(MsrDetect, ARegisterThatFaultsMeansTheWrongModel) {
    FakeMachine m;
    const Detection d = detect_with_failing_read(m, kMsrMiscEnable, EIO);
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("#GP"), std::string::npos) << d.disabled_reason;
}

TEST(MsrDetect, UnknownModelsAreRefused) {
    FakeMachine m("pentium4-1pkg.xml", 5);
    const Detection d = m.detect();
    EXPECT_FALSE(d.backend);
    EXPECT_NE(d.disabled_reason.find("model 5 is not a NetBurst model"), std::string::npos) << d.disabled_reason;
}

TEST(MsrDetect, TheEnvironmentHooksThroughDetectBackend) {
    FakeMachine m("pentium4-1pkg.xml", 4, 1);
    DetectionSources s = m.sources();
    // The host is whatever it is; the assumed signature wins because the devices are fake.
    s.cpu = [] {
        CpuIdentity id;
        id.known = true;
        id.vendor = "AuthenticAMD";
        id.base_family = 0xF;
        id.family = 0x17;
        return id;
    };
    const MsrEnvironment fake = m.environment();
    s.environment = [fake] {
        MsrEnvironment env = fake;
        env.assume_cpu = true;
        env.family = 15;
        env.model = 4;
        env.stepping = 1;
        return env;
    };
    Detection d = detect_backend(s);
    ASSERT_TRUE(d.backend) << d.disabled_reason;
    EXPECT_EQ(d.cpu.model, 4u);
    EXPECT_FALSE(d.cpu.hyper_threading);

    s.environment = [] {
        MsrEnvironment env;
        env.error = "PAPI_NETBURST_ASSUME_CPU=x is not family:model:stepping";
        return env;
    };
    d = detect_backend(s);
    EXPECT_FALSE(d.backend);
    EXPECT_EQ(d.disabled_reason, "PAPI_NETBURST_ASSUME_CPU=x is not family:model:stepping");
}
