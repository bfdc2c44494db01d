// The guarded trial that decides between RDPMC and pread.
#include <gtest/gtest.h>

#include <csignal>

#include "backend/rdpmc.h"

using namespace netburst::component;

namespace {

void nothing(void*) {}
void segfault(void*) { std::raise(SIGSEGV); }
void illegal(void*) { std::raise(SIGILL); }
void count(void* arg) { ++*static_cast<int*>(arg); }

}  // namespace

TEST(Rdpmc, TheGuardCatchesFaultsAndRestoresTheHandlers) {
    struct sigaction before = {}, after = {};
    sigaction(SIGSEGV, nullptr, &before);
    int calls = 0;
    EXPECT_TRUE(run_guarded(nothing, nullptr));
    EXPECT_TRUE(run_guarded(count, &calls));
    EXPECT_EQ(calls, 1);
    EXPECT_FALSE(run_guarded(segfault, nullptr));
    EXPECT_FALSE(run_guarded(illegal, nullptr));
    EXPECT_TRUE(run_guarded(nothing, nullptr)) << "a fault leaves nothing behind";
    sigaction(SIGSEGV, nullptr, &after);
    EXPECT_EQ(before.sa_handler, after.sa_handler);
    // And the signal is not left blocked after the jump out of the handler.
    sigset_t mask;
    sigprocmask(SIG_BLOCK, nullptr, &mask);
    EXPECT_FALSE(sigismember(&mask, SIGSEGV));
}

TEST(Rdpmc, TheRealProbeAnswersWithoutCrashing) {
    // Whether this machine lets user space run RDPMC depends on its kernel; either answer is fine, a crash is not.
    const bool allowed = rdpmc_allowed(0);
    if (allowed) (void)rdpmc(0);
    SUCCEED() << "RDPMC " << (allowed ? "allowed" : "not allowed") << " here";
}
