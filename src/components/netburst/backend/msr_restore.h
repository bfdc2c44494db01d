// Leaving the PMU as it was found: the value of every register the backend writes is saved just before its first
// write, and written back when the component shuts down (PAPI_shutdown), when the process exits normally without
// shutting PAPI down (atexit), and when a fatal signal kills it (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, and
// SIGTERM, SIGINT, SIGHUP, SIGQUIT whose default action ends the process).
//
// Limits (doc/real-pentium4.md): SIGKILL, a power cut or a kernel crash leave the registers as the component last
// set them; a signal whose handler the program installed itself (before or after PAPI) is the program's business
// and restores nothing; _exit() and quick_exit() skip atexit. A forked child restores nothing: the registers are
// the parent's, which may still be counting.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/msr_allowlist.h"
#include "backend/msr_io.h"

namespace netburst::component {

class RegisterSnapshot {
public:
    // One slot per allow-listed register per package; `device_cpu[p]` is the CPU whose device reaches package p.
    RegisterSnapshot(const MsrAllowList& list, std::vector<unsigned> device_cpu, MsrIo* io);

    unsigned num_packages() const { return static_cast<unsigned>(device_cpu_.size()); }

    // Saves the current value of allow-list entry `index` of `package`, unless it is saved already. Returns 0 or
    // the errno of the read. Callers serialise saves of one package (MsrBackend's claim lock).
    int save(unsigned package, unsigned index);
    bool is_saved(unsigned package, unsigned index) const;
    std::uint64_t saved_value(unsigned package, unsigned index) const;

    // Writes every saved register back and forgets it. Order: first every saved CCCR with its Enable bit clear
    // (nothing counts while the rest is restored), then ESCRs, tagging MSRs and counters (counters twice:
    // erratum N15), last the CCCRs that were enabled. Async-signal-safe: atomics, pwrite and nothing else.
    // Returns the number of writes that failed.
    unsigned restore();

private:
    struct Slot {
        std::atomic<std::uint8_t> saved{0};
        std::uint64_t value = 0;
    };
    Slot& slot(unsigned package, unsigned index) const { return slots_[package * list_.size() + index]; }

    const MsrAllowList& list_;
    std::vector<unsigned> device_cpu_;
    MsrIo* io_;
    std::unique_ptr<Slot[]> slots_;
};

// Makes `snapshot` the one restored at exit and on fatal signals (nullptr: none). Installs the atexit hook once
// per process and the signal handlers for signals whose action is the default; unregistering puts back the
// dispositions it changed.
void register_for_restore(RegisterSnapshot* snapshot);
// Unregisters `snapshot` if it is the registered one (a newer one stays).
void unregister_for_restore(RegisterSnapshot* snapshot);

}  // namespace netburst::component
