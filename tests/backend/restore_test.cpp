// Leaving the hardware as it was found: at shutdown (the backend's destruction), at exit without shutdown, and on
// a fatal signal; only registers the backend wrote are written back, CCCRs disabled first.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/msr_backend.h"
#include "fake_machine.h"
#include "table/registers.h"

using namespace netburst;
using namespace netburst::component;
using namespace netburst::component::test;

namespace {

constexpr std::uint64_t kEnable = 1ull << kCccrEnableBit;

// Someone was here before us: values in registers the test's event set will overwrite, and in others it won't.
void leave_traces(FakeMachine& m) {
    m.set(0, 0x3C0, 0x0A000004);            // MS_ESCR0: an ESCR another tool set up and left
    m.set(0, 0x304, 0x123456789Aull);       // MS_COUNTER0: a count left behind
    m.set(0, 0x364, 3ull << 16);            // MS_CCCR0: disabled, active thread 11
    m.set(0, kMsrPebsEnable, 0x01000001);   // Linux leaves its last replay metric on
    m.set(0, kMsrPebsMatrixVert, 1);
    m.set(0, 0x3C1, 0x0B00000C);            // MS_ESCR1: not ours to touch
}

// Claims and programs counter 4 on MS_ESCR0 with a replay metric, as a start would.
void program(MsrBackend& b) {
    PmuClaim c;
    c.counters = counter_bit(4);
    c.escrs = escr_bit(EscrId::MS_ESCR0);
    c.replay = true;
    c.pebs_enable = 0x01000002;
    c.matrix_vert = 1;
    std::string why;
    ASSERT_EQ(b.claim(c, &why), IoStatus::Ok) << why;
    ASSERT_EQ(b.write_msr(kMsrPebsEnable, 0x01000002), IoStatus::Ok);
    ASSERT_EQ(b.write_msr(kMsrPebsMatrixVert, 1), IoStatus::Ok);
    ASSERT_EQ(b.write_msr(0x3C0, 0x0C00020C), IoStatus::Ok);
    ASSERT_EQ(b.write_msr(0x304, 0), IoStatus::Ok);
    ASSERT_EQ(b.write_msr(0x364, kEnable | (3ull << 16)), IoStatus::Ok);
}

}  // namespace

TEST(Restore, ShutdownPutsBackExactlyWhatWasThere) {
    FakeMachine m;
    leave_traces(m);
    const std::vector<std::uint64_t> before = m.registers();
    {
        Detection d = m.detect();
        MsrBackend& b = msr_backend(d);
        program(b);
        EXPECT_NE(m.registers(), before);
        m.clear_log();
    }  // PAPI_shutdown destroys the component and with it the backend
    EXPECT_EQ(m.registers(), before);
    // What was written back: the CCCR first (disabled), then the rest, the counter twice (N15); only registers the
    // event set wrote.
    const std::vector<Access> expected = {
        {true, 0, 0x304, 0x123456789Aull}, {true, 0, 0x304, 0x123456789Aull}, {true, 0, 0x3C0, 0x0A000004},
        {true, 0, kMsrPebsEnable, 0x01000001}, {true, 0, kMsrPebsMatrixVert, 1}};
    const std::vector<Access> w = m.writes();
    ASSERT_EQ(w.size(), 6u);
    EXPECT_EQ(w[0], (Access{true, 0, 0x364, 3ull << 16})) << "stop counting first";
    std::vector<Access> rest(w.begin() + 1, w.end());
    std::sort(rest.begin(), rest.end(), [](const Access& a, const Access& b) { return a.msr < b.msr; });
    std::vector<Access> want = expected;
    std::sort(want.begin(), want.end(), [](const Access& a, const Access& b) { return a.msr < b.msr; });
    EXPECT_EQ(rest, want);
}

TEST(Restore, RestoringTwiceWritesNothingMore) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    program(b);
    EXPECT_EQ(b.restore_registers(), 0u);
    m.clear_log();
    EXPECT_EQ(b.restore_registers(), 0u);
    EXPECT_TRUE(m.writes().empty());
    // And after a restore the registers must be claimed (and saved) again before they are written.
    EXPECT_EQ(b.write_msr(0x3C0, 0x0C00020C), IoStatus::Fault);
}

// The fatal-signal and exit paths run in a child process, which dies or exits with the backend still counting.
namespace {

// The child's backend, never destroyed (as if PAPI_shutdown never came) and still reachable, so that a leak
// checker at exit does not count it (volatile: a store nobody reads would be optimised away).
Backend* volatile g_never_shut_down = nullptr;

int run_child(FakeMachine& m, void (*finish)()) {
    const pid_t pid = fork();
    if (pid == 0) {
        Detection d = m.detect();
        if (!d.backend) _exit(90);
        program(msr_backend(d));
        if (::testing::Test::HasFailure()) _exit(91);
        g_never_shut_down = d.backend.release();
        finish();
        _exit(92);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

void die_by_sigterm() { std::raise(SIGTERM); }
void die_by_sigsegv() {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
}
void exit_normally() { std::exit(7); }

}  // namespace

TEST(Restore, AFatalSignalRestoresBeforeTheProcessDies) {
    FakeMachine m;
    leave_traces(m);
    const std::vector<std::uint64_t> before = m.registers();
    const int status = run_child(m, die_by_sigterm);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), SIGTERM) << "the signal still ends the process the way it would have";
    EXPECT_EQ(m.registers(), before);
}

TEST(Restore, ACrashRestoresToo) {
    // Under a sanitizer the sanitizer owns SIGSEGV, and by design the backend leaves a handler it finds alone.
    struct sigaction current = {};
    sigaction(SIGSEGV, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) GTEST_SKIP() << "SIGSEGV is handled here";
    FakeMachine m;
    leave_traces(m);
    const std::vector<std::uint64_t> before = m.registers();
    const int status = run_child(m, die_by_sigsegv);
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGSEGV);
    EXPECT_EQ(m.registers(), before);
}

TEST(Restore, ExitWithoutShutdownRestores) {
    FakeMachine m;
    leave_traces(m);
    const std::vector<std::uint64_t> before = m.registers();
    const int status = run_child(m, exit_normally);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 7);
    EXPECT_EQ(m.registers(), before);
}

namespace {
void programs_own_handler(int) {}
}  // namespace

TEST(Restore, AProgramsOwnSignalHandlerIsLeftAlone) {
    struct sigaction own = {}, old = {}, seen = {};
    own.sa_handler = programs_own_handler;
    sigemptyset(&own.sa_mask);
    sigaction(SIGHUP, &own, &old);
    FakeMachine m;
    {
        Detection d = m.detect();
        ASSERT_TRUE(d.backend);
        sigaction(SIGHUP, nullptr, &seen);
        EXPECT_EQ(seen.sa_handler, programs_own_handler);
        sigaction(SIGTERM, nullptr, &seen);
        EXPECT_NE(seen.sa_handler, SIG_DFL) << "a signal without a handler gets the restoring one";
    }
    sigaction(SIGTERM, nullptr, &seen);
    EXPECT_EQ(seen.sa_handler, SIG_DFL) << "and loses it when the backend goes";
    sigaction(SIGHUP, &old, nullptr);
}

TEST(Restore, AForkedChildLeavesTheParentsRegistersAlone) {
    FakeMachine m;
    Detection d = m.detect();
    program(msr_backend(d));
    const std::vector<std::uint64_t> counting = m.registers();
    for (void (*finish)() : {exit_normally, die_by_sigterm}) {
        const pid_t pid = fork();
        if (pid == 0) finish();  // a child of a PAPI program that exits or dies (fork without exec)
        int status = 0;
        waitpid(pid, &status, 0);
        EXPECT_EQ(m.registers(), counting) << "the parent is still counting";
    }
}
