// A Pentium 4 machine made of files, for the kernel MSR backend's tests:
//  - a fake /dev/cpu directory: one sparse regular file per package (the 8 bytes at offset 8*A hold MSR A), and
//    N/msr for every logical CPU as a symbolic link to its package's file, because the two logical processors of
//    a Hyper-Threaded package share one PMU;
//  - a synthetic hwloc topology (tests/data/topology/*.xml);
//  - a recorder around the device layer that logs every read and write that reaches a "device";
//  - a thread placement that says which CPU the test thread is "on" and records pins.
// Nothing here touches the real /dev/cpu.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend/detect.h"
#include "backend/msr_backend.h"
#include "backend/msr_detect.h"
#include "backend/msr_io.h"
#include "backend/placement.h"
#include "backend/topology.h"
#include "component/component.h"

namespace netburst::component::test {

// The path of a topology file in tests/data/topology.
std::string topology_file(const char* name);

// Every access that reached the device layer, in order.
struct Access {
    bool write = false;
    unsigned cpu = 0;
    std::uint32_t msr = 0;
    std::uint64_t value = 0;
    bool operator==(const Access& o) const {
        return write == o.write && cpu == o.cpu && msr == o.msr && value == o.value;
    }
};
using AccessLog = std::vector<Access>;

class RecordingIo final : public MsrIo {
public:
    RecordingIo(std::unique_ptr<MsrIo> inner, std::shared_ptr<AccessLog> log) : inner_(std::move(inner)), log_(std::move(log)) {}
    int read(unsigned cpu, std::uint32_t msr, std::uint64_t* value) override {
        const int err = inner_->read(cpu, msr, value);
        log_->push_back(Access{false, cpu, msr, err ? 0 : *value});
        return err;
    }
    int write(unsigned cpu, std::uint32_t msr, std::uint64_t value) override {
        log_->push_back(Access{true, cpu, msr, value});
        return inner_->write(cpu, msr, value);
    }

private:
    std::unique_ptr<MsrIo> inner_;
    std::shared_ptr<AccessLog> log_;
};

// Where the test thread "runs", and what the backend asked of the scheduler.
struct PlacementState {
    int current_cpu = 0;
    std::vector<unsigned> pins;  // every pin request, in order
    unsigned unpins = 0;
    int pin_error = 0;           // errno pin() answers (0: success)
};

class FakePlacement final : public ThreadPlacement {
public:
    explicit FakePlacement(std::shared_ptr<PlacementState> state) : state_(std::move(state)) {}
    int current_cpu() override { return state_->current_cpu; }
    int pin(unsigned cpu, SavedAffinity* saved) override {
        state_->pins.push_back(cpu);
        saved->valid = state_->pin_error == 0;
        if (state_->pin_error == 0) state_->current_cpu = static_cast<int>(cpu);
        return state_->pin_error;
    }
    void unpin(const SavedAffinity& saved) override {
        if (saved.valid) ++state_->unpins;
    }

private:
    std::shared_ptr<PlacementState> state_;
};

class FakeMachine {
public:
    // A machine with the topology of tests/data/topology/`topology` and IA32_MISC_ENABLE bit 7 set on every
    // package. `model` and `stepping` are the CPUID signature the tests assume.
    explicit FakeMachine(const char* topology = "xeon-dp-2pkg-ht.xml", unsigned model = kDefaultModel,
                         unsigned stepping = 9);
    ~FakeMachine();
    FakeMachine(const FakeMachine&) = delete;
    FakeMachine& operator=(const FakeMachine&) = delete;

    const std::string& root() const { return root_; }
    const Topology& topology() const { return topology_; }
    std::string topology_path() const { return topology_path_; }

    // The register as the hardware would hold it (read straight from the package's file, not through the log).
    std::uint64_t get(unsigned package, std::uint32_t msr) const;
    void set(unsigned package, std::uint32_t msr, std::uint64_t value);
    // Every register of every package, for comparing the machine before and after.
    std::vector<std::uint64_t> registers() const;

    CpuIdentity cpu() const;
    MsrEnvironment environment() const;
    MsrDetectHooks hooks();  // records into log(), places with placement()
    Detection detect();      // detect_msr_backend with hooks()
    // Sources for initialize_component: not emulated, this CPU, these files.
    DetectionSources sources();

    AccessLog& log() { return *log_; }
    std::vector<Access> writes() const;  // the writes of the log
    void clear_log() { log_->clear(); }
    PlacementState& placement() { return *placement_; }

    DeviceIo::OpenFn open_fn = nullptr;  // to make opening fail

private:
    std::string package_file(unsigned package) const;

    std::string root_;
    std::string topology_path_;
    Topology topology_;
    unsigned model_, stepping_;
    std::shared_ptr<AccessLog> log_ = std::make_shared<AccessLog>();
    std::shared_ptr<PlacementState> placement_ = std::make_shared<PlacementState>();
};

// The MsrBackend inside a Detection (asserting there is one).
MsrBackend& msr_backend(Detection& d);

}  // namespace netburst::component::test
