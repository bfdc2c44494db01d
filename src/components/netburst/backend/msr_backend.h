// The kernel MSR backend: counting on a real Pentium 4 through /dev/cpu/N/msr_safe or /dev/cpu/N/msr.
//
// Safety, in the order a write meets it:
//   1. The allow-list (backend/msr_allowlist.h): an MSR that is not a PMU register of this model, or a value with
//      a bit outside the register's write mask, is refused here, before any system call.
//   2. Claims: a register is written only after an event set claimed it (Backend::claim), which reads the CCCRs
//      first and refuses counters someone else enabled (the NMI watchdog, another tool, another of our event
//      sets) and the ESCRs those counters read, and saves the register's value for restoring.
//   3. Restore (backend/msr_restore.h): every saved register is written back at shutdown, at exit and on fatal
//      signals.
//
// Topology (backend/topology.h): the PMU is per package, so claims and saved values are per package; the thread
// index of the CPU decides T0 or T1. A thread is pinned to the CPU it runs on when it first uses the component,
// and counts that logical CPU (backend/placement.h). Event sets attached to a CPU (PAPI_CPU_ATTACH) count that
// CPU from any thread.
//
// Errata (backend/errata.h): counter writes are done twice (N15); counter 1 is never used.
// Reads: RDPMC when the kernel allows it and the thread runs on the counted CPU, otherwise pread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "backend/backend.h"
#include "backend/errata.h"
#include "backend/msr_allowlist.h"
#include "backend/msr_io.h"
#include "backend/msr_restore.h"
#include "backend/placement.h"
#include "backend/topology.h"

namespace netburst::component {

struct MsrBackendConfig {
    unsigned model = kDefaultModel;
    unsigned stepping = 0;
    Topology topology;
    std::unique_ptr<MsrIo> io;                 // opened for every CPU of the topology
    std::unique_ptr<ThreadPlacement> placement;
    // Counter reads with RDPMC (nullptr: pread). Only for the real /dev/cpu devices: fake device files in tests
    // have nothing to do with the counters of the machine running the test.
    std::uint64_t (*rdpmc)(unsigned counter) = nullptr;
    bool pebs_unavailable = false;  // IA32_MISC_ENABLE bit 12
};

class MsrBackend final : public Backend {
public:
    explicit MsrBackend(MsrBackendConfig config);
    ~MsrBackend() override;

    IoStatus write_msr(std::uint32_t msr, std::uint64_t value) override;
    IoStatus read_msr(std::uint32_t msr, std::uint64_t* value) override;
    IoStatus read_counter(unsigned counter, std::uint64_t* value) override;
    IoStatus counter_status(unsigned counter) override;
    unsigned logical_processor() override;

    IoStatus read_counters(CounterMask counters, std::uint64_t* cccr, std::uint64_t* raw) override;
    PmuOccupancy occupancy(unsigned logical_processor) override;
    bool claims_registers() const override { return true; }
    IoStatus claim(const PmuClaim& claim, std::string* why) override;
    void release(const PmuClaim& claim) override;
    int select_cpu(int cpu) override;
    IoStatus attach_cpu(unsigned cpu, unsigned* logical_processor, std::string* why) override;
    unsigned register_thread() override;
    void release_thread() override;
    std::string last_refusal() const override;
    bool pebs_possible(std::string* why) const override;

    // What other software holds on `package` now (read from the CCCRs), for the component's description.
    CounterMask foreign_counters(unsigned package);
    const Topology& topology() const { return topology_; }
    const MsrAllowList& allow_list() const { return allow_list_; }
    bool uses_rdpmc() const { return rdpmc_ != nullptr; }

    // Writes every saved register back now (what shutdown does); later claims save again.
    unsigned restore_registers();

private:
    struct Target {
        unsigned cpu = 0;
        unsigned package = 0;
        unsigned thread = 0;
        bool pinned_here = false;  // the calling thread is pinned to cpu and runs there
    };
    struct PackageState;
    struct ThreadState;

    ThreadState& thread_state() const;
    void forget_thread();  // unpins the calling thread and forgets it, whatever its registrations
    bool bind(ThreadState& ts);
    bool resolve(Target* t);
    IoStatus refuse(IoStatus status, const std::string& why) const;
    IoStatus io_status(int err, const char* op, std::uint32_t msr, unsigned cpu) const;
    // Reads the 18 CCCRs of the target's package; counters enabled there that no event set of ours claimed, and the
    // ESCRs they read.
    bool foreign_usage(const Target& t, CounterMask* counters, EscrMask* escrs, int* err);

    const std::uint64_t id_;
    unsigned model_;
    Topology topology_;
    MsrAllowList allow_list_;
    Errata errata_;
    std::unique_ptr<MsrIo> io_;
    std::unique_ptr<ThreadPlacement> placement_;
    std::uint64_t (*rdpmc_)(unsigned);
    bool pebs_unavailable_;
    std::unique_ptr<PackageState[]> packages_;
    RegisterSnapshot snapshot_;
};

}  // namespace netburst::component
