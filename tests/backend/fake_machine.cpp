#include "fake_machine.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/msr_allowlist.h"

namespace netburst::component::test {

namespace {

// MSRs 0 to 0xFFF, 8 bytes each at offset 8 * address: every register the backend may touch (IA32_MISC_ENABLE
// 0x1A0 up to 0x3F2) and the out-of-range addresses the refusal tests try, so a wrongly allowed write would show.
constexpr std::uint32_t kNumMsrs = 0x1000;
constexpr off_t kFileSize = kNumMsrs * 8;

int remove_entry(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }

}  // namespace

std::string topology_file(const char* name) {
    const char* srcdir = std::getenv("srcdir");
    return std::string(srcdir ? srcdir : ".") + "/tests/data/topology/" + name;
}

FakeMachine::FakeMachine(const char* topology, unsigned model, unsigned stepping)
    : topology_path_(topology_file(topology)), model_(model), stepping_(stepping) {
    std::string error;
    if (!load_topology(topology_path_, &topology_, &error)) ADD_FAILURE() << error;
    char dir[] = "/tmp/nb-fake-msr.XXXXXX";
    if (!mkdtemp(dir)) ADD_FAILURE() << "mkdtemp";
    root_ = dir;
    for (unsigned p = 0; p < topology_.num_packages; ++p) {
        const int fd = ::open(package_file(p).c_str(), O_CREAT | O_RDWR, 0600);
        EXPECT_GE(fd, 0);
        EXPECT_EQ(ftruncate(fd, kFileSize), 0);
        ::close(fd);
        set(p, kMsrMiscEnable, std::uint64_t{1} << kMiscEnablePmuAvailableBit);
    }
    for (const LogicalCpu& c : topology_.cpus) {
        const std::string cpu_dir = root_ + "/" + std::to_string(c.os_index);
        EXPECT_EQ(mkdir(cpu_dir.c_str(), 0755), 0);
        EXPECT_EQ(symlink(package_file(c.package).c_str(), (cpu_dir + "/msr").c_str()), 0);
    }
}

FakeMachine::~FakeMachine() {
    if (!root_.empty()) nftw(root_.c_str(), remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

std::string FakeMachine::package_file(unsigned package) const {
    return root_ + "/package" + std::to_string(package) + ".msr";
}

std::uint64_t FakeMachine::get(unsigned package, std::uint32_t msr) const {
    std::uint64_t v = 0;
    const int fd = ::open(package_file(package).c_str(), O_RDONLY);
    EXPECT_EQ(pread(fd, &v, sizeof v, off_t{msr} * 8), static_cast<ssize_t>(sizeof v));
    ::close(fd);
    return v;
}

void FakeMachine::set(unsigned package, std::uint32_t msr, std::uint64_t value) {
    const int fd = ::open(package_file(package).c_str(), O_WRONLY);
    EXPECT_EQ(pwrite(fd, &value, sizeof value, off_t{msr} * 8), static_cast<ssize_t>(sizeof value));
    ::close(fd);
}

std::vector<std::uint64_t> FakeMachine::registers() const {
    std::vector<std::uint64_t> all;
    for (unsigned p = 0; p < topology_.num_packages; ++p) {
        std::vector<std::uint64_t> regs(kNumMsrs);
        const int fd = ::open(package_file(p).c_str(), O_RDONLY);
        EXPECT_EQ(pread(fd, regs.data(), kFileSize, 0), kFileSize);
        ::close(fd);
        all.insert(all.end(), regs.begin(), regs.end());
    }
    return all;
}

CpuIdentity FakeMachine::cpu() const {
    CpuIdentity id;
    id.known = true;
    id.vendor = "GenuineIntel";
    id.base_family = id.family = 0xF;
    id.model = model_;
    id.stepping = stepping_;
    return id;
}

MsrEnvironment FakeMachine::environment() const {
    MsrEnvironment env;
    env.device_root = root_;
    env.fake_devices = true;
    env.rdpmc_allowed = false;
    return env;
}

MsrDetectHooks FakeMachine::hooks() {
    MsrDetectHooks h;
    h.topology_xml = topology_path_;
    h.open_fn = open_fn;
    std::shared_ptr<PlacementState> placement = placement_;
    h.placement = [placement] { return std::unique_ptr<ThreadPlacement>(new FakePlacement(placement)); };
    std::shared_ptr<AccessLog> log = log_;
    h.wrap_io = [log](std::unique_ptr<MsrIo> io) { return std::unique_ptr<MsrIo>(new RecordingIo(std::move(io), log)); };
    return h;
}

Detection FakeMachine::detect() { return detect_msr_backend(cpu(), environment(), hooks()); }

DetectionSources FakeMachine::sources() {
    DetectionSources s;
    s.emulator = [] { return EmulatorQuery(); };
    const CpuIdentity id = cpu();
    s.cpu = [id] { return id; };
    const std::string dir = root_;
    s.msr_device = [dir](unsigned n) { return probe_msr_device(n, dir); };
    const MsrEnvironment env = environment();
    s.environment = [env] { return env; };
    s.msr_backend = [this](const CpuIdentity& c, const MsrEnvironment& e) { return detect_msr_backend(c, e, hooks()); };
    return s;
}

std::vector<Access> FakeMachine::writes() const {
    std::vector<Access> w;
    for (const Access& a : *log_)
        if (a.write) w.push_back(a);
    return w;
}

MsrBackend& msr_backend(Detection& d) {
    if (!d.backend) {
        ADD_FAILURE() << "no backend: " << d.disabled_reason;
        std::abort();
    }
    return dynamic_cast<MsrBackend&>(*d.backend);
}

}  // namespace netburst::component::test
