#include "backend/msr_backend.h"

#include <cerrno>
#include <cstring>
#include <type_traits>

#include "table/registers.h"
#include "table/hex.h"

namespace netburst::component {

namespace {

std::atomic<std::uint64_t> g_next_backend_id{1};

std::string msr_label(std::uint32_t msr) {
    const char* name = msr_name(msr);
    return hex(msr) + " (" + (name ? name : "not a NetBurst PMU register") + ")";
}

std::string counter_list(CounterMask mask) {
    std::string out;
    for (unsigned c = 0; c < kNumCounters; ++c)
        if (mask & counter_bit(c)) out += (out.empty() ? "" : ", ") + std::to_string(c);
    return out;
}

constexpr std::uint64_t kCccrEnable = std::uint64_t{1} << kCccrEnableBit;
constexpr std::uint64_t kCccrSelectShift = 13;

// A lock a signal handler may meet taken by the thread it interrupted (PAPI's multiplexing starts and stops event
// sets from its timer signal): it gives up after a bounded wait instead of deadlocking.
class TryLock {
public:
    bool lock() {
        for (unsigned i = 0; i < (1u << 22); ++i)
            if (!flag_.test_and_set(std::memory_order_acquire)) return true;
        return false;
    }
    void unlock() { flag_.clear(std::memory_order_release); }

private:
    std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
};

}  // namespace

// What this process's event sets hold on one package. Changed only under `lock`.
struct MsrBackend::PackageState {
    TryLock lock;
    std::atomic<CounterMask> owned{0};  // also read without the lock, to tell our counters from others
    std::int8_t counter_owner[kNumCounters];  // logical processor of the set holding the counter, or -1
    std::int8_t escr_owner[kNumEscrs];
    unsigned replay_users = 0;
    std::uint64_t pebs_enable = 0;
    std::uint64_t matrix_vert = 0;
    PackageState() {
        std::memset(counter_owner, -1, sizeof counter_owner);
        std::memset(escr_owner, -1, sizeof escr_owner);
    }
};

// Per thread: the CPU it is pinned to, the CPU its current call targets, and the last refusal. Keyed by the
// backend's id, so that a thread that outlives one backend starts afresh with the next. Trivially destructible on
// purpose: the main thread's copy is destroyed before static objects, and the component (a static) may be shut
// down at exit, after it.
struct MsrBackend::ThreadState {
    std::uint64_t owner = 0;
    int bound_cpu = -1;
    bool pinned = false;
    int selected_cpu = -1;
    unsigned registrations = 0;  // PAPI contexts made on this thread and not yet shut down
    SavedAffinity saved;
    char refusal[512] = {};

    void set_refusal(const std::string& why) {
        const std::size_t n = why.size() < sizeof refusal - 1 ? why.size() : sizeof refusal - 1;
        std::memcpy(refusal, why.data(), n);
        refusal[n] = '\0';
    }
};

namespace {

std::vector<unsigned> package_device_cpus(const Topology& t) {
    std::vector<unsigned> cpus;
    for (unsigned p = 0; p < t.num_packages; ++p) cpus.push_back(t.first_cpu_of_package(p));
    return cpus;
}

}  // namespace

MsrBackend::MsrBackend(MsrBackendConfig config)
    : id_(g_next_backend_id.fetch_add(1)), model_(config.model), topology_(std::move(config.topology)),
      allow_list_(config.model), errata_(errata_for(config.model, config.stepping)), io_(std::move(config.io)),
      placement_(std::move(config.placement)), rdpmc_(config.rdpmc), pebs_unavailable_(config.pebs_unavailable),
      packages_(new PackageState[topology_.num_packages]),
      snapshot_(allow_list_, package_device_cpus(topology_), io_.get()) {
    register_for_restore(&snapshot_);
}

MsrBackend::~MsrBackend() {
    unregister_for_restore(&snapshot_);
    snapshot_.restore();
    forget_thread();
}

unsigned MsrBackend::restore_registers() { return snapshot_.restore(); }

MsrBackend::ThreadState& MsrBackend::thread_state() const {
    static_assert(std::is_trivially_destructible<ThreadState>::value, "see ThreadState");
    thread_local ThreadState t;
    if (t.owner != id_) {
        t = ThreadState();
        t.owner = id_;
    }
    return t;
}

IoStatus MsrBackend::refuse(IoStatus status, const std::string& why) const {
    thread_state().set_refusal(why);
    return status;
}

std::string MsrBackend::last_refusal() const { return thread_state().refusal; }

IoStatus MsrBackend::io_status(int err, const char* op, std::uint32_t msr, unsigned cpu) const {
    if (err == 0) return IoStatus::Ok;
    std::string why = std::string(op) + " " + msr_label(msr) + " on CPU " + std::to_string(cpu) + " failed: " +
                      std::strerror(err);
    if (err == EACCES) why += " (msr-safe's allow-list does not list it: load the one papi-netburst ships)";
    return refuse(err == EIO ? IoStatus::Fault : IoStatus::Unavailable, why);
}

// --- Where calls go --------------------------------------------------------------------------------------------

bool MsrBackend::bind(ThreadState& ts) {
    if (ts.bound_cpu >= 0) return true;
    const int cpu = placement_->current_cpu();
    if (cpu < 0 || !topology_.find(static_cast<unsigned>(cpu))) {
        ts.set_refusal("the thread runs on CPU " + std::to_string(cpu) +
                       ", which the topology hwloc reported does not list");
        return false;
    }
    // A thread that cannot be pinned (a cpuset forbids it) still counts its CPU, but may move away from it; claim
    // then refuses to start rather than count a CPU the thread left.
    ts.pinned = placement_->pin(static_cast<unsigned>(cpu), &ts.saved) == 0;
    ts.bound_cpu = cpu;
    return true;
}

bool MsrBackend::resolve(Target* t) {
    ThreadState& ts = thread_state();
    int cpu = ts.selected_cpu;
    const bool own_cpu = cpu < 0;
    if (own_cpu) {
        if (!bind(ts)) return false;
        cpu = ts.bound_cpu;
    }
    const LogicalCpu* lc = topology_.find(static_cast<unsigned>(cpu));
    if (!lc) {
        ts.set_refusal("CPU " + std::to_string(cpu) + " is not in the topology");
        return false;
    }
    t->cpu = lc->os_index;
    t->package = lc->package;
    t->thread = lc->thread;
    t->pinned_here = own_cpu && placement_->current_cpu() == cpu;
    return true;
}

unsigned MsrBackend::logical_processor() {
    Target t;
    return resolve(&t) ? t.thread : 0;
}

int MsrBackend::select_cpu(int cpu) {
    ThreadState& ts = thread_state();
    const int previous = ts.selected_cpu;
    ts.selected_cpu = cpu;
    return previous;
}

IoStatus MsrBackend::attach_cpu(unsigned cpu, unsigned* logical_processor, std::string* why) {
    const LogicalCpu* lc = topology_.find(cpu);
    if (!lc) {
        std::string cpus;
        for (const LogicalCpu& c : topology_.cpus) cpus += (cpus.empty() ? "" : ", ") + std::to_string(c.os_index);
        *why = "CPU " + std::to_string(cpu) + " does not exist; the logical CPUs are " + cpus;
        return IoStatus::Unavailable;
    }
    *logical_processor = lc->thread;
    return IoStatus::Ok;
}

unsigned MsrBackend::register_thread() {
    ++thread_state().registrations;
    return logical_processor();
}

void MsrBackend::release_thread() {
    ThreadState& ts = thread_state();
    if (ts.registrations > 1) {
        --ts.registrations;
        return;
    }
    forget_thread();
}

void MsrBackend::forget_thread() {
    ThreadState& ts = thread_state();
    if (ts.pinned) placement_->unpin(ts.saved);
    ts = ThreadState();
    ts.owner = id_;
}

// --- Register access -------------------------------------------------------------------------------------------

IoStatus MsrBackend::write_msr(std::uint32_t msr, std::uint64_t value) {
    const int index = allow_list_.index_of(msr);
    if (index < 0)
        return refuse(IoStatus::Fault, "MSR " + msr_label(msr) + " is not on the NetBurst PMU allow-list for model " +
                                           std::to_string(model_) + "; the write was refused before reaching the device");
    if (!allow_list_.may_write(msr, value))
        return refuse(IoStatus::Fault, "writing " + hex(value) + " to " + msr_label(msr) +
                                           " would set bits outside its write mask " +
                                           hex(allow_list_[static_cast<unsigned>(index)].write_mask) +
                                           "; the write was refused before reaching the device");
    Target t;
    if (!resolve(&t)) return IoStatus::Unavailable;
    if (!snapshot_.is_saved(t.package, static_cast<unsigned>(index)))
        return refuse(IoStatus::Fault, "MSR " + msr_label(msr) + " of package " + std::to_string(t.package) +
                                           " was not claimed by an event set (its value is not saved for restoring); "
                                           "the write was refused");
    int err = io_->write(t.cpu, msr, value);
    MsrRef ref{};
    // Erratum N15: a counter write may not take effect; the second one does.
    if (err == 0 && errata_.write_counters_twice && lookup_msr(msr, model_, &ref) && ref.kind == MsrKind::Counter)
        err = io_->write(t.cpu, msr, value);
    return io_status(err, "wrmsr", msr, t.cpu);
}

IoStatus MsrBackend::read_msr(std::uint32_t msr, std::uint64_t* value) {
    if (!allow_list_.find(msr))
        return refuse(IoStatus::Fault, "MSR " + msr_label(msr) + " is not on the NetBurst PMU allow-list for model " +
                                           std::to_string(model_) + "; the read was refused");
    Target t;
    if (!resolve(&t)) return IoStatus::Unavailable;
    return io_status(io_->read(t.cpu, msr, value), "rdmsr", msr, t.cpu);
}

IoStatus MsrBackend::read_counter(unsigned counter, std::uint64_t* value) {
    if (counter >= kNumCounters) return refuse(IoStatus::Fault, "there is no counter " + std::to_string(counter));
    Target t;
    if (!resolve(&t)) return IoStatus::Unavailable;
    // RDPMC reads the processor the thread is on: only when that is the CPU being counted.
    if (rdpmc_ && t.pinned_here) {
        *value = rdpmc_(counter) & kCounterValueMask;
        return IoStatus::Ok;
    }
    const std::uint32_t msr = kCounters[counter].counter_msr;
    return io_status(io_->read(t.cpu, msr, value), "rdmsr", msr, t.cpu);
}

IoStatus MsrBackend::counter_status(unsigned) { return IoStatus::Ok; }  // real hardware counts every event

IoStatus MsrBackend::read_counters(CounterMask counters, std::uint64_t* cccr, std::uint64_t* raw) {
    Target t;
    if (!resolve(&t)) return IoStatus::Unavailable;
    // Every CCCR first, then every counter: each counter is still read after its CCCR (counter_extension.h), and
    // the counters are read close together, with RDPMC when allowed.
    for (unsigned c = 0; c < kNumCounters; ++c) {
        if (!(counters & counter_bit(c))) continue;
        const IoStatus s = io_status(io_->read(t.cpu, kCounters[c].cccr_msr, &cccr[c]), "rdmsr",
                                     kCounters[c].cccr_msr, t.cpu);
        if (s != IoStatus::Ok) return s;
    }
    const bool fast = rdpmc_ && t.pinned_here;
    for (unsigned c = 0; c < kNumCounters; ++c) {
        if (!(counters & counter_bit(c))) continue;
        if (fast) {
            raw[c] = rdpmc_(c) & kCounterValueMask;
            continue;
        }
        const IoStatus s = io_status(io_->read(t.cpu, kCounters[c].counter_msr, &raw[c]), "rdmsr",
                                     kCounters[c].counter_msr, t.cpu);
        if (s != IoStatus::Ok) return s;
    }
    return IoStatus::Ok;
}

// --- Sharing the PMU ---------------------------------------------------------------------------------------------

bool MsrBackend::foreign_usage(const Target& t, CounterMask* counters, EscrMask* escrs, int* err) {
    *counters = 0;
    *escrs = 0;
    const PackageState& ps = packages_[t.package];
    for (unsigned c = 0; c < kNumCounters; ++c) {
        std::uint64_t cccr = 0;
        *err = io_->read(t.cpu, kCounters[c].cccr_msr, &cccr);
        if (*err) return false;
        if (!(cccr & kCccrEnable) || (ps.owned.load(std::memory_order_relaxed) & counter_bit(c))) continue;
        *counters |= counter_bit(c);
        const EscrId escr = escr_for_cccr_select(c, static_cast<unsigned>((cccr >> kCccrSelectShift) & 7), model_);
        if (escr != EscrId::None) *escrs |= escr_bit(escr);
    }
    return true;
}

CounterMask MsrBackend::foreign_counters(unsigned package) {
    Target t;
    t.package = package;
    t.cpu = topology_.first_cpu_of_package(package);
    CounterMask counters = 0;
    EscrMask escrs = 0;
    int err = 0;
    return foreign_usage(t, &counters, &escrs, &err) ? counters : 0;
}

PmuOccupancy MsrBackend::occupancy(unsigned logical_processor) {
    PmuOccupancy o;
    o.unavailable_counters = errata_.unavailable_counters;
    o.reason = errata_.reason;
    Target t;
    if (!resolve(&t)) return o;
    CounterMask foreign = 0;
    EscrMask foreign_escrs = 0;
    int err = 0;
    if (!foreign_usage(t, &foreign, &foreign_escrs, &err)) {
        // Unknown is taken: better a conflict than clobbering someone's counter.
        foreign = kAllCounters;
        o.reason += "; the CCCRs could not be read (" + std::string(std::strerror(err)) + ")";
    } else if (foreign) {
        o.reason += "; counters " + counter_list(foreign) + " are enabled by other software (the kernel's NMI "
                    "watchdog, perf or another tool) and are left alone, with the ESCRs they read";
    }
    o.unavailable_counters |= foreign;
    o.unavailable_escrs |= foreign_escrs;

    PackageState& ps = packages_[t.package];
    if (!ps.lock.lock()) return o;
    CounterMask same_lp = 0;
    const CounterMask owned = ps.owned.load();
    for (unsigned c = 0; c < kNumCounters; ++c) {
        if (!(owned & counter_bit(c))) continue;
        if (ps.counter_owner[c] == static_cast<std::int8_t>(logical_processor)) same_lp |= counter_bit(c);
        else o.sibling.counters |= counter_bit(c);
    }
    for (unsigned e = 0; e < kNumEscrs; ++e) {
        if (ps.escr_owner[e] < 0) continue;
        if (ps.escr_owner[e] == static_cast<std::int8_t>(logical_processor)) o.unavailable_escrs |= EscrMask{1} << e;
        else o.sibling.escrs |= EscrMask{1} << e;
    }
    if (ps.replay_users) {
        o.sibling.replay_in_use = true;
        o.sibling.pebs_enable = static_cast<std::uint32_t>(ps.pebs_enable);
        o.sibling.matrix_vert = static_cast<std::uint32_t>(ps.matrix_vert);
    }
    ps.lock.unlock();
    if (same_lp) {
        o.unavailable_counters |= same_lp;
        o.reason += "; counters " + counter_list(same_lp) +
                    " belong to another running event set of this process on the same logical CPU";
    }
    return o;
}

IoStatus MsrBackend::claim(const PmuClaim& claim, std::string* why) {
    Target t;
    if (!resolve(&t)) {
        *why = thread_state().refusal;
        return IoStatus::Unavailable;
    }
    ThreadState& ts = thread_state();
    if (ts.selected_cpu < 0 && !t.pinned_here) {
        *why = "the thread is no longer on CPU " + std::to_string(t.cpu) +
               ", the logical CPU its counts are for (its CPU affinity changed after it registered with PAPI); "
               "pin threads before PAPI_library_init or PAPI_register_thread";
        return IoStatus::Unavailable;
    }
    if (claim.replay && pebs_unavailable_) {
        *why = "this processor reports PEBS unavailable (IA32_MISC_ENABLE bit 12), and the replay-tagging metrics "
               "program IA32_PEBS_ENABLE: they are not counted on it";
        return IoStatus::Unsupported;
    }
    CounterMask foreign = 0;
    EscrMask foreign_escrs = 0;
    int err = 0;
    PackageState& ps = packages_[t.package];
    if (!ps.lock.lock()) {
        *why = "the PMU state of package " + std::to_string(t.package) + " is busy (an event set is being started "
               "or stopped from a signal handler of the same thread)";
        return IoStatus::Unavailable;
    }
    IoStatus status = IoStatus::Ok;
    if (!foreign_usage(t, &foreign, &foreign_escrs, &err)) {
        *why = "cannot read the CCCRs of package " + std::to_string(t.package) + ": " + std::strerror(err);
        status = IoStatus::Unavailable;
    } else if (claim.counters & errata_.unavailable_counters) {
        *why = errata_.reason;
        status = IoStatus::Unavailable;
    } else if (claim.counters & foreign) {
        *why = "counters " + counter_list(claim.counters & foreign) +
               " were enabled by other software after the event set was scheduled; they are left alone";
        status = IoStatus::Unavailable;
    } else if (claim.counters & ps.owned.load()) {
        *why = "counters " + counter_list(claim.counters & ps.owned.load()) +
               " are in use by another event set of this process";
        status = IoStatus::Unavailable;
    } else if (claim.escrs & foreign_escrs) {
        *why = "an ESCR the event set needs is read by a counter other software enabled";
        status = IoStatus::Unavailable;
    } else if (claim.replay && ps.replay_users &&
               (ps.pebs_enable != claim.pebs_enable || ps.matrix_vert != claim.matrix_vert)) {
        *why = "IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT are shared by the package and hold another replay metric "
               "for a running event set";
        status = IoStatus::Unavailable;
    }
    for (unsigned e = 0; status == IoStatus::Ok && e < kNumEscrs; ++e)
        if ((claim.escrs & (EscrMask{1} << e)) && ps.escr_owner[e] >= 0) {
            *why = std::string(kEscrs[e].name) + " is in use by another event set of this process";
            status = IoStatus::Unavailable;
        }

    // Save everything the set will write before the first write.
    auto save = [&](std::uint32_t msr) {
        if (status != IoStatus::Ok) return;
        const int index = allow_list_.index_of(msr);
        if (index < 0) return;  // write_msr refuses it later, with the reason
        if (const int e = snapshot_.save(t.package, static_cast<unsigned>(index))) {
            status = io_status(e, "saving", msr, t.cpu);
            *why = thread_state().refusal;
        }
    };
    for (unsigned c = 0; c < kNumCounters; ++c)
        if (claim.counters & counter_bit(c)) {
            save(kCounters[c].counter_msr);
            save(kCounters[c].cccr_msr);
        }
    for (unsigned e = 0; e < kNumEscrs; ++e)
        if (claim.escrs & (EscrMask{1} << e)) save(kEscrs[e].msr);
    if (claim.replay) {
        save(kMsrPebsEnable);
        save(kMsrPebsMatrixVert);
    }

    if (status == IoStatus::Ok) {
        const auto lp = static_cast<std::int8_t>(claim.logical_processor);
        ps.owned.fetch_or(claim.counters);
        for (unsigned c = 0; c < kNumCounters; ++c)
            if (claim.counters & counter_bit(c)) ps.counter_owner[c] = lp;
        for (unsigned e = 0; e < kNumEscrs; ++e)
            if (claim.escrs & (EscrMask{1} << e)) ps.escr_owner[e] = lp;
        if (claim.replay) {
            ++ps.replay_users;
            ps.pebs_enable = claim.pebs_enable;
            ps.matrix_vert = claim.matrix_vert;
        }
    }
    ps.lock.unlock();
    return status;
}

void MsrBackend::release(const PmuClaim& claim) {
    Target t;
    if (!resolve(&t)) return;
    PackageState& ps = packages_[t.package];
    if (!ps.lock.lock()) return;  // a signal handler met the lock taken: the claim stays (a later start conflicts)
    ps.owned.fetch_and(~claim.counters);
    for (unsigned c = 0; c < kNumCounters; ++c)
        if (claim.counters & counter_bit(c)) ps.counter_owner[c] = -1;
    for (unsigned e = 0; e < kNumEscrs; ++e)
        if (claim.escrs & (EscrMask{1} << e)) ps.escr_owner[e] = -1;
    if (claim.replay && ps.replay_users) --ps.replay_users;
    ps.lock.unlock();
}

// The encoding of PEBS is the emulator path's (encode/program.h), but arming it from user space is not safe: the
// DS save area's address is linear, the PEBS counter counts every process that runs on the logical CPU, and its
// microcode assist would write records at this process's address into whichever process is running; the buffer
// must be in memory the kernel keeps mapped in every address space, and its threshold interrupt goes to the
// kernel's PMI handler, which the MSR device does not reach. With Hyper-Threading PEBS does not work at all.
bool MsrBackend::pebs_possible(std::string* why) const {
    *why = "PEBS (:precise) is not armed through /dev/cpu/*/msr: its DS save area must be memory the kernel maps in "
           "every address space (the counter counts every process on the CPU, and records would be written at this "
           "process's address into whichever process runs) and its buffer interrupt goes to the kernel's PMI "
           "handler; nor does PEBS work with Hyper-Threading on. Count the event without :precise, or sample it "
           "under netburst-run (doc/sampling.md)";
    return false;
}

}  // namespace netburst::component
