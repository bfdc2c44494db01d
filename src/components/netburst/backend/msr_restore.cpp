#include "backend/msr_restore.h"

#include <csignal>
#include <cstdlib>
#include <mutex>
#include <pthread.h>

#include "table/registers.h"

namespace netburst::component {

RegisterSnapshot::RegisterSnapshot(const MsrAllowList& list, std::vector<unsigned> device_cpu, MsrIo* io)
    : list_(list), device_cpu_(std::move(device_cpu)), io_(io),
      slots_(new Slot[device_cpu_.size() * list.size()]) {}

int RegisterSnapshot::save(unsigned package, unsigned index) {
    Slot& s = slot(package, index);
    if (s.saved.load(std::memory_order_acquire)) return 0;
    std::uint64_t value = 0;
    const int err = io_->read(device_cpu_[package], list_[index].msr, &value);
    if (err) return err;
    s.value = value;
    s.saved.store(1, std::memory_order_release);  // the signal handler reads value only after seeing this
    return 0;
}

bool RegisterSnapshot::is_saved(unsigned package, unsigned index) const {
    return slot(package, index).saved.load(std::memory_order_acquire) != 0;
}

std::uint64_t RegisterSnapshot::saved_value(unsigned package, unsigned index) const {
    return slot(package, index).value;
}

unsigned RegisterSnapshot::restore() {
    constexpr std::uint64_t kEnable = std::uint64_t{1} << kCccrEnableBit;
    unsigned failures = 0;
    auto put = [&](unsigned cpu, std::uint32_t msr, std::uint64_t value) {
        if (io_->write(cpu, msr, value) != 0) ++failures;
    };
    for (unsigned p = 0; p < num_packages(); ++p) {
        const unsigned cpu = device_cpu_[p];
        auto kind_of = [&](unsigned i) {
            MsrRef ref{};
            lookup_msr(list_[i].msr, list_.model(), &ref);
            return ref.kind;
        };
        // 1. Stop: every saved CCCR, disabled.
        for (unsigned i = 0; i < list_.size(); ++i)
            if (is_saved(p, i) && kind_of(i) == MsrKind::Cccr) put(cpu, list_[i].msr, slot(p, i).value & ~kEnable);
        // 2. What the counters read from and their values.
        for (unsigned i = 0; i < list_.size(); ++i) {
            if (!is_saved(p, i)) continue;
            const MsrKind kind = kind_of(i);
            if (kind == MsrKind::Cccr) continue;
            put(cpu, list_[i].msr, slot(p, i).value);
            if (kind == MsrKind::Counter) put(cpu, list_[i].msr, slot(p, i).value);  // erratum N15
        }
        // 3. CCCRs that were counting before us (a claim never takes one, so normally none).
        for (unsigned i = 0; i < list_.size(); ++i)
            if (is_saved(p, i) && kind_of(i) == MsrKind::Cccr && (slot(p, i).value & kEnable))
                put(cpu, list_[i].msr, slot(p, i).value);
        for (unsigned i = 0; i < list_.size(); ++i) slot(p, i).saved.store(0, std::memory_order_release);
    }
    return failures;
}

// --- Restoring at exit and on fatal signals -----------------------------------------------------------------

namespace {

std::atomic<RegisterSnapshot*> g_snapshot{nullptr};

// Fatal signals whose default action ends the process. SIGPROF, SIGALRM and SIGVTALRM are absent: PAPI's
// multiplexing and overflow emulation use them.
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
constexpr unsigned kNumFatalSignals = sizeof kFatalSignals / sizeof kFatalSignals[0];
bool g_installed[kNumFatalSignals] = {};

void restore_now() {
    if (RegisterSnapshot* s = g_snapshot.exchange(nullptr)) s->restore();
}

void on_fatal_signal(int sig) {
    restore_now();
    // SA_RESETHAND put the default action back: raising again ends the process the way the signal would have.
    std::raise(sig);
}

void install_handlers() {
    for (unsigned i = 0; i < kNumFatalSignals; ++i) {
        struct sigaction old = {};
        if (sigaction(kFatalSignals[i], nullptr, &old) != 0) continue;
        // Only where nobody has a handler: a program's own handler (or a sanitizer's) decides what happens.
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL) continue;
        if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) continue;
        struct sigaction action = {};
        action.sa_handler = on_fatal_signal;
        sigfillset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND | SA_NODEFER;
        g_installed[i] = sigaction(kFatalSignals[i], &action, nullptr) == 0;
    }
}

void uninstall_handlers() {
    for (unsigned i = 0; i < kNumFatalSignals; ++i) {
        if (!g_installed[i]) continue;
        g_installed[i] = false;
        struct sigaction current = {};
        if (sigaction(kFatalSignals[i], nullptr, &current) != 0) continue;
        // Someone may have replaced ours since; theirs stays.
        if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == on_fatal_signal) std::signal(kFatalSignals[i], SIG_DFL);
    }
}

// A forked child does not own the registers: its exit or death must not restore them under the parent.
void forget_in_child() {
    g_snapshot.store(nullptr);
    for (bool& installed : g_installed) installed = false;  // the handlers find no snapshot and just re-raise
}

}  // namespace

void register_for_restore(RegisterSnapshot* snapshot) {
    static std::once_flag hooks_once;
    std::call_once(hooks_once, [] {
        std::atexit(restore_now);
        pthread_atfork(nullptr, nullptr, forget_in_child);
    });
    uninstall_handlers();
    g_snapshot.store(snapshot);
    if (snapshot) install_handlers();
}

void unregister_for_restore(RegisterSnapshot* snapshot) {
    RegisterSnapshot* expected = snapshot;
    if (g_snapshot.compare_exchange_strong(expected, nullptr)) uninstall_handlers();
}

}  // namespace netburst::component
