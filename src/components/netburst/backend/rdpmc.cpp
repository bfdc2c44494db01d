#include "backend/rdpmc.h"

#include <csetjmp>
#include <csignal>

namespace netburst::component {

namespace {

// The jump target of the one guarded call in progress. run_guarded is only used at initialisation, from one
// thread; thread_local keeps a fault in another thread from jumping into this one's frame.
thread_local sigjmp_buf* t_guard = nullptr;

void on_fault(int sig) {
    if (t_guard) siglongjmp(*t_guard, sig);
    // A fault outside a guarded call is not ours: fall back to the default action, which re-raises it.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void read_one(void* arg) {
    unsigned* counter = static_cast<unsigned*>(arg);
    volatile std::uint64_t v = rdpmc(*counter);
    (void)v;
}

}  // namespace

bool run_guarded(void (*fn)(void*), void* arg) {
    struct sigaction action = {}, old_segv = {}, old_ill = {};
    action.sa_handler = on_fault;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NODEFER;  // siglongjmp leaves the handler; the signal must not stay blocked
    sigaction(SIGSEGV, &action, &old_segv);
    sigaction(SIGILL, &action, &old_ill);

    sigjmp_buf env;
    bool ok = false;
    if (sigsetjmp(env, 1) == 0) {  // 1: the signal mask is restored on the jump back
        t_guard = &env;
        fn(arg);
        ok = true;
    }
    t_guard = nullptr;
    sigaction(SIGSEGV, &old_segv, nullptr);
    sigaction(SIGILL, &old_ill, nullptr);
    return ok;
}

std::uint64_t rdpmc(unsigned counter) {
#if defined(__i386__) || defined(__x86_64__)
    std::uint32_t lo = 0, hi = 0;
    __asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return (std::uint64_t{hi} << 32) | lo;
#else
    (void)counter;
    return 0;
#endif
}

bool rdpmc_allowed(unsigned counter) {
#if defined(__i386__) || defined(__x86_64__)
    return run_guarded(read_one, &counter);
#else
    (void)counter;
    return false;
#endif
}

}  // namespace netburst::component
