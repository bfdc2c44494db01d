// Real programs on the emulator: netburst-run and the netburst Valgrind tool, end to end: exactness
// (doc/netburst-run.md, "Exactness"), the data cache, robustness. The guest programs are in tests/integration/
// (plain C and asm/loops.S); the event programs they apply are made here with the allocator and encoder, as
// netburst-run makes them.
//
// Environment (set by make check): NETBURST_RUN, the netburst-run to test; NB_GUESTS, the directory of the
// built guest programs.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "emulator/model/coverage.h"
#include "emulator/run/event_plan.h"
#include "emulator/run/report.h"
#include "emulator/trace/trace_file.h"
#include "emulator/valgrind/kernel_model.h"
#include "emulator/x86/guest_cpu_view.h"
#include "table/events.h"

using json = nlohmann::json;
using namespace netburst;
using namespace netburst::emu;

namespace {

// ---- Running processes ---------------------------------------------------------------------------------------

struct Outcome {
    bool timed_out = false;
    bool signaled = false;
    int status = 0;  // exit status, or the signal
    std::string out, err;
};

// Runs argv with a time limit, collecting its output. extra_env entries are NAME=VALUE.
Outcome run(const std::vector<std::string>& argv, int timeout_seconds = 300,
            const std::vector<std::string>& extra_env = {}) {
    int out_pipe[2], err_pipe[2];
    EXPECT_EQ(pipe(out_pipe), 0);
    EXPECT_EQ(pipe(err_pipe), 0);
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        close(out_pipe[0]);
        close(err_pipe[0]);
        for (const std::string& e : extra_env) putenv(const_cast<char*>(e.c_str()));
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    Outcome o;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    int open_fds = 2;
    while (open_fds > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            o.timed_out = true;
            kill(-pid, SIGKILL);
            break;
        }
        if (poll(fds, 2, static_cast<int>(left.count())) <= 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
            char buf[65536];
            const ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            } else {
                (i == 0 ? o.out : o.err).append(buf, static_cast<std::size_t>(n));
            }
        }
    }
    for (pollfd& f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        o.signaled = true;
        o.status = WTERMSIG(status);
    } else {
        o.status = WEXITSTATUS(status);
    }
    return o;
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::string netburst_run() { return env("NETBURST_RUN"); }
std::string guest(const std::string& name) { return env("NB_GUESTS") + "/" + name; }

class TempDir {
public:
    TempDir() {
        std::string pattern = ::testing::TempDir() + "nbrun.XXXXXX";
        path_ = mkdtemp(pattern.data()) ? pattern : "";
    }
    ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

// The event program for `events`, as netburst-run would hand it to the tool.
std::string write_program(const TempDir& dir, const std::vector<std::string>& events, bool ht = false) {
    run::PlanOptions o;
    o.machine.hyper_threading = ht;
    auto plan = run::plan_events(events, o);
    EXPECT_TRUE(plan) << plan.error().message;
    char text[1 << 16];
    const std::size_t n = vg::format_event_program(plan->program, text, sizeof text);
    const std::string path = dir.file("program");
    std::ofstream(path) << std::string(text, n);
    return path;
}

// netburst-run ARGS... with --json -o, returning the parsed report (and the outcome).
json run_json(const std::vector<std::string>& args, Outcome* outcome = nullptr, int timeout = 300) {
    TempDir dir;
    std::vector<std::string> argv = {netburst_run(), "--json", "-o", dir.file("report.json")};
    argv.insert(argv.end(), args.begin(), args.end());
    const Outcome o = run(argv, timeout);
    if (outcome) *outcome = o;
    EXPECT_FALSE(o.timed_out) << "netburst-run did not finish";
    std::ifstream in(dir.file("report.json"));
    if (!in) {
        ADD_FAILURE() << "no report; stderr:\n" << o.err;
        return json::object();
    }
    return json::parse(in);
}

// Reports are read with at(), which throws (and fails the test) when a field is missing.
std::int64_t value_of(const json& report, std::size_t i = 0) {
    const json& v = report.at("events").at(i).at("value");
    EXPECT_TRUE(v.is_number()) << report.at("events").at(i).dump();
    return v.is_number() ? v.get<std::int64_t>() : -1;
}

const std::uint64_t kKernelPathLength = [] {
    vg::KernelPath path;
    vg::build_kernel_path(0, &path, vg::KernelAbi::kLinux64);
    return vg::count_kernel_path(path).instructions;
}();

const std::uint64_t kTimerInterruptPathLength = [] {
    vg::KernelPath path;
    vg::build_timer_interrupt_path(0, &path, vg::KernelAbi::kLinux64);
    return vg::count_kernel_path(path).instructions;
}();

// The kernel paths the run took: one per system call and one per timer interrupt.
std::uint64_t kernel_instructions(const json& report) {
    return kKernelPathLength * report.at("syscalls").get<std::uint64_t>() +
           kTimerInterruptPathLength * report.at("timer_interrupts").get<std::uint64_t>();
}

// Every instruction the guest ran in user mode, plus the kernel paths: what a count of all retired non-bogus
// instructions (user and kernel) must be when the model counts each instruction once.
std::uint64_t all_instructions(const json& report) {
    return report.at("instructions").get<std::uint64_t>() + kernel_instructions(report);
}

const std::string kAllInstructions = "instr_retired:NBOGUSNTAG:NBOGUSTAG";

// ---- Exactness -----------------------------------------------------------------------------------------------

// What one iteration of each loop of asm/loops.S does (see the table at the top of that file).
struct LoopFacts {
    unsigned instructions, loads, stores, x87, scalar_dp, scalar_sp, packed_dp, packed_sp, mmx64, mmx128;
    bool branch_loop;
};
const std::map<std::string, LoopFacts> kLoops = {
    {"int", {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, false}},      {"branches", {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, true}},
    {"loads", {4, 2, 0, 0, 0, 0, 0, 0, 0, 0, false}},    {"stores", {4, 0, 2, 0, 0, 0, 0, 0, 0, 0, false}},
    {"x87", {4, 0, 0, 2, 0, 0, 0, 0, 0, 0, false}},      {"sse_sd", {4, 0, 0, 0, 2, 0, 0, 0, 0, 0, false}},
    {"sse_ss", {4, 0, 0, 0, 0, 2, 0, 0, 0, 0, false}},   {"sse_pd", {4, 0, 0, 0, 0, 0, 2, 0, 0, 0, false}},
    {"sse_ps", {4, 0, 0, 0, 0, 0, 0, 2, 0, 0, false}},   {"mmx", {4, 0, 0, 0, 0, 0, 0, 0, 2, 0, false}},
    {"simd_int", {4, 0, 0, 0, 0, 0, 0, 0, 0, 2, false}},
};
// The measuring calls add two integer register moves (loops.S) and nothing else.
constexpr std::uint64_t kOverheadInstructions = 2;

enum class Quantity { Instructions, Branches, Taken, NotTaken, Loads, Stores, X87, ScalarDp, ScalarSp, PackedDp,
                      PackedSp, Mmx64, Mmx128 };
struct Counted {
    Quantity what;
    const char* event;
};

std::uint64_t expected(const LoopFacts& l, Quantity q, std::uint64_t n) {
    const std::uint64_t half = l.branch_loop ? n / 2 : 0;  // the branch loop's jz: taken on every other iteration
    switch (q) {
    case Quantity::Instructions: return l.instructions * n + half + kOverheadInstructions;
    case Quantity::Branches: return n + (l.branch_loop ? n : 0);
    case Quantity::Taken: return (n - 1) + half;
    case Quantity::NotTaken: return 1 + half;
    case Quantity::Loads: return l.loads * n;
    case Quantity::Stores: return l.stores * n;
    case Quantity::X87: return l.x87 * n;
    case Quantity::ScalarDp: return l.scalar_dp * n;
    case Quantity::ScalarSp: return l.scalar_sp * n;
    case Quantity::PackedDp: return l.packed_dp * n;
    case Quantity::PackedSp: return l.packed_sp * n;
    case Quantity::Mmx64: return l.mmx64 * n;
    case Quantity::Mmx128: return l.mmx128 * n;
    }
    return 0;
}

class Exactness : public ::testing::TestWithParam<Counted> {};

// The guest programs the event through the MSR channel and reads it at the loop's two instruction boundaries.
TEST_P(Exactness, EveryLoopCountsExactlyAtInstructionBoundaries) {
    TempDir dir;
    const Counted& c = GetParam();
    const std::string program = write_program(dir, {c.event});
    const Outcome o = run({netburst_run(), guest("guest_measure"), program, "2", "1000", "100000"});
    ASSERT_FALSE(o.timed_out);
    ASSERT_EQ(o.status, 0) << o.err;
    std::istringstream lines(o.out);
    unsigned index, status;
    std::string loop;
    std::uint64_t n, count;
    unsigned checked = 0;
    while (lines >> index >> loop >> n >> count >> status) {
        ASSERT_TRUE(kLoops.count(loop)) << loop;
        EXPECT_EQ(count, expected(kLoops.at(loop), c.what, n)) << c.event << " over nb_loop_" << loop << ", n = " << n;
        EXPECT_EQ(status, 0u) << c.event << " is reported unsupported";
        ++checked;
    }
    EXPECT_EQ(checked, kLoops.size() * 3) << o.out;
}

const Counted kCounted[] = {
    {Quantity::Instructions, "instr_retired:NBOGUSNTAG:NBOGUSTAG"},
    {Quantity::Branches, "branch_retired:MMNP:MMNM:MMTP:MMTM"},
    {Quantity::Taken, "branch_retired:MMTP:MMTM"},
    {Quantity::NotTaken, "branch_retired:MMNP:MMNM"},
    {Quantity::Loads, "memory_loads:NBOGUS"},
    {Quantity::Stores, "memory_stores:NBOGUS"},
    {Quantity::X87, "x87_FP_retired:NBOGUS"},
    {Quantity::ScalarDp, "scalar_DP_retired:NBOGUS"},
    {Quantity::ScalarSp, "scalar_SP_retired:NBOGUS"},
    {Quantity::PackedDp, "packed_DP_retired:NBOGUS"},
    {Quantity::PackedSp, "packed_SP_retired:NBOGUS"},
    {Quantity::Mmx64, "64bit_MMX_retired:NBOGUS"},
    {Quantity::Mmx128, "128bit_MMX_retired:NBOGUS"},
};

INSTANTIATE_TEST_SUITE_P(Loops, Exactness, ::testing::ValuesIn(kCounted),
                         [](const ::testing::TestParamInfo<Counted>& p) {
                             std::string name = p.param.event;
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });

// netburst-run -e over the whole program: two runs that differ only in the loop's trip count differ by exactly
// the loop's per-iteration count (start-up and exit code cancel out).
struct Difference {
    const char* loop;
    const char* event;
    std::int64_t per_iteration;
};

class WholeProgram : public ::testing::TestWithParam<Difference> {};

TEST_P(WholeProgram, TwoTripCountsDifferByTheLoop) {
    const Difference& d = GetParam();
    json a = run_json({"-e", d.event, guest("guest_loops"), d.loop, "10000"});
    json b = run_json({"-e", d.event, guest("guest_loops"), d.loop, "90000"});
    EXPECT_EQ(value_of(b) - value_of(a), d.per_iteration * 80000) << d.event << " over nb_loop_" << d.loop;
}

const Difference kDifferences[] = {
    {"int", "PAPI_TOT_INS", 4},
    {"int", "instr_retired:NBOGUSNTAG:NBOGUSTAG", 4},
    {"branches", "branch_retired:MMNP:MMNM:MMTP:MMTM", 2},
    {"int", "branch_retired:MMTP:MMTM", 1},
    {"int", "branch_retired:MMNP:MMNM", 0},
    {"loads", "memory_loads:NBOGUS", 2},
    {"stores", "memory_stores:NBOGUS", 2},
    {"x87", "x87_FP_retired:NBOGUS", 2},
    {"sse_sd", "scalar_DP_retired:NBOGUS", 2},
    {"sse_ps", "packed_SP_retired:NBOGUS", 2},
    // The instruction after which Valgrind leaves its block with an emulation warning is counted too.
    {"fldcw", "PAPI_TOT_INS", 8},
};

INSTANTIATE_TEST_SUITE_P(Loops, WholeProgram, ::testing::ValuesIn(kDifferences),
                         [](const ::testing::TestParamInfo<Difference>& p) {
                             std::string name = std::string(p.param.loop) + "_" + p.param.event;
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });

// Every instruction counted once: retired instructions (user and kernel) equal the guest's user instructions plus
// the kernel path of each system call.
// The L2 presets: accesses are hits plus misses. The emulated machine has no other caching agent, so the Shared
// hits that PAPI_L2_TCH and PAPI_L2_TCA include count zero rather than making both presets unsupported.
// PAPI_L2_TCA and PAPI_L2_TCH fit in one run (two BSU ESCR settings); PAPI_L2_TCM needs a third, so it comes from a
// second run. Two runs of one program may differ by an L2 access or two (Valgrind's start-up is not identical from
// run to run), hence the small tolerance across runs and the exact check within one.
TEST(L2Presets, AccessesAreHitsPlusMisses) {
    json both = run_json({"-e", "PAPI_L2_TCA", "-e", "PAPI_L2_TCH", guest("guest_loops"), "loads", "1000"});
    json misses = run_json({"-e", "PAPI_L2_TCM", guest("guest_loops"), "loads", "1000"});
    const std::int64_t accesses = value_of(both, 0), hits = value_of(both, 1), tcm = value_of(misses, 0);
    EXPECT_GT(hits, 0);
    EXPECT_GT(tcm, 0);
    EXPECT_NEAR(static_cast<double>(accesses - hits), static_cast<double>(tcm), 2.0)
        << "accesses " << accesses << ", hits " << hits << ", misses (another run) " << tcm;
}

// PAPI_L1_TCM is the sum of its two halves' presets. The three share their native events, so they are counted in
// one run and must agree exactly.
TEST(L1Presets, TotalMissesAreDataPlusInstructionMisses) {
    json r = run_json({"-e", "PAPI_L1_TCM", "-e", "PAPI_L1_DCM", "-e", "PAPI_L1_ICM", guest("guest_loops"), "loads",
                       "1000"});
    const std::int64_t total = value_of(r, 0), data = value_of(r, 1), instructions = value_of(r, 2);
    EXPECT_GT(data, 0);
    EXPECT_GT(instructions, 0);
    EXPECT_EQ(total, data + instructions);
}

TEST(WholeProgramTotals, RetiredInstructionsAreTheGuestsPlusTheKernelPaths) {
    json r = run_json({"-e", kAllInstructions, guest("guest_loops"), "int", "100000"});
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r)), all_instructions(r));
    EXPECT_GE(r["instructions"].get<std::uint64_t>(), 400000u);
}

// PEBS armed makes the translations take a register snapshot at every instruction PEBS can sample (loads, stores,
// branches, x87/SSE/MMX work: doc/sampling.md, "What the emulator fills"). The counts must not see it: the same
// program with the same requests (writes of IA32_PEBS_ENABLE around the loop, with ENABLE_PEBS or without) counts
// the same, cycles included, and the armed run did switch snapshots on and off (the tool's -v statistics).
TEST(WholeProgramTotals, ArmingPebsChangesNoCount) {
    const std::vector<std::string> events = {"-e", "PAPI_TOT_INS", "-e", "PAPI_TOT_CYC", "-e", "PAPI_BR_MSP",
                                             "-e", "PAPI_L2_TCM",  "-e", "uops_retired:NBOGUS"};
    for (const char* loop : {"loads", "stores", "branches", "x87", "sse_pd", "mmx"}) {
        json counts[2];
        Outcome armed;
        for (int on = 0; on < 2; ++on) {
            std::vector<std::string> args = events;
            if (on) args.insert(args.begin(), {"--valgrind-option=-v", "--valgrind-option=-v"});
            args.push_back(guest("guest_loops"));
            args.push_back(std::string("pebs") + (on ? "1-" : "0-") + loop);
            args.push_back("20000");
            counts[on] = run_json(args, on ? &armed : nullptr);
        }
        EXPECT_NE(armed.err.find("register snapshots (PEBS) switched on or off 2 times"), std::string::npos)
            << loop << ":\n" << armed.err;
        for (std::size_t i = 0; i < events.size() / 2; ++i)
            EXPECT_EQ(value_of(counts[1], i), value_of(counts[0], i)) << events[2 * i + 1] << " over nb_loop_" << loop;
    }
}

// ---- Kernel mode ---------------------------------------------------------------------------------------------

TEST(KernelModel, KernelCountsAreThePathTimesTheSystemCalls) {
    json r = run_json({"--timer-tick=0", "-e", kAllInstructions + ":k", "-e", kAllInstructions + ":u",
                       guest("guest_loops"), "syscalls", "1000"});
    EXPECT_GE(r["syscalls"].get<std::uint64_t>(), 1000u);
    EXPECT_EQ(r["timer_interrupts"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r, 0)), kKernelPathLength * r["syscalls"].get<std::uint64_t>());
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r, 1)), r["instructions"].get<std::uint64_t>());
}

// An i386 program's system calls take the i386 kernel's path (int $0x80 in, iret out), which is shorter.
TEST(KernelModel, AnI386ProgramsSystemCallsTakeTheI386KernelsPath) {
    const std::string i386 = guest("guest_adds32");
    if (access(i386.c_str(), X_OK) != 0) GTEST_SKIP() << "no i386 guest: configure found no gcc -m32 (gcc-multilib)";
    vg::KernelPath path;
    vg::build_kernel_path(0, &path, vg::KernelAbi::kLinux32);
    const std::uint64_t length = vg::count_kernel_path(path).instructions;
    json r = run_json({"--timer-tick=0", "-e", kAllInstructions + ":k", "-e", kAllInstructions + ":u", i386, "1000"});
    EXPECT_GE(r["syscalls"].get<std::uint64_t>(), 10u);
    EXPECT_NE(length, kKernelPathLength);
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r, 0)), length * r["syscalls"].get<std::uint64_t>());
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r, 1)), r["instructions"].get<std::uint64_t>());
}

// A loop without system calls still counts kernel work: the timer interrupts it. A tick falls due every N
// instructions of the thread and is taken before the next batch of records, so every tick but possibly the last
// (due after the last batch) is taken.
TEST(KernelModel, TimerInterruptsEveryTickOfTheThreadsInstructions) {
    const std::uint64_t tick = 100000;
    json r = run_json({"--timer-tick=" + std::to_string(tick), "-e", kAllInstructions + ":k", "-e",
                       kAllInstructions + ":u", guest("guest_loops"), "int", "1000000"});
    const std::uint64_t instructions = r.at("instructions").get<std::uint64_t>();
    const std::uint64_t ticks = r.at("timer_interrupts").get<std::uint64_t>();
    EXPECT_GE(instructions, 4000000u);
    EXPECT_LE(ticks, instructions / tick);
    EXPECT_GE(ticks + 1, instructions / tick);
    EXPECT_EQ(r.at("emulator").at("timer_tick").get<std::uint64_t>(), tick);
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r, 0)), kernel_instructions(r));
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r, 1)), instructions) << "the ticks add no user instructions";

    json off = run_json({"--timer-tick=0", "-e", kAllInstructions + ":k", guest("guest_loops"), "int", "1000000"});
    EXPECT_EQ(off.at("timer_interrupts").get<std::uint64_t>(), 0u);
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(off, 0)), kKernelPathLength * off.at("syscalls").get<std::uint64_t>());
}

TEST(KernelModel, WithoutItKernelCountsAreUnsupportedNotZero) {
    json r = run_json({"--kernel-model=no", "-e", kAllInstructions + ":k", "-e", kAllInstructions + ":u",
                       guest("guest_loops"), "syscalls", "100"});
    EXPECT_EQ(r["events"][0]["value"], "unsupported");
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r, 1)), r["instructions"].get<std::uint64_t>());
    json both = run_json({"--kernel-model=no", "-e", kAllInstructions, guest("guest_loops"), "syscalls", "100"});
    EXPECT_EQ(both["events"][0]["value"], "unsupported") << "user and kernel together count the kernel too";
}

// ---- Threads -------------------------------------------------------------------------------------------------

void check_threads(bool ht) {
    TempDir dir;
    const std::string program = write_program(dir, {kAllInstructions}, ht);
    std::vector<std::string> argv = {netburst_run()};
    if (ht) argv.push_back("--ht");
    argv.insert(argv.end(), {guest("guest_threads"), program});
    const Outcome o = run(argv);
    ASSERT_FALSE(o.timed_out);
    ASSERT_EQ(o.status, 0) << o.err;
    std::istringstream lines(o.out);
    unsigned t, threads = 0;
    std::uint64_t n, count, total = 0, expected_total = 0;
    while (lines >> t >> n >> count) {
        EXPECT_EQ(count, 4 * n + kOverheadInstructions) << "thread " << t;
        total += count;
        expected_total += 4 * n + kOverheadInstructions;
        ++threads;
    }
    EXPECT_EQ(threads, 8u) << o.out;
    EXPECT_EQ(total, expected_total);
}

TEST(Threads, EachThreadCountsExactlyItsOwnWork) { check_threads(false); }
TEST(Threads, EachThreadCountsExactlyItsOwnWorkOnTwoLogicalProcessors) { check_threads(true); }

TEST(Threads, PerThreadCountsAddUpToTheProcess) {
    for (const char* mode : {"--model=2", "--cpu-wide"}) {
        json r = run_json({mode, "-e", kAllInstructions, guest("guest_threads"), "plain"});
        EXPECT_EQ(r["threads"], 9) << mode;
        EXPECT_EQ(static_cast<std::uint64_t>(value_of(r)), all_instructions(r)) << mode;
        EXPECT_GE(r["instructions"].get<std::uint64_t>(), 4u * 50000 * 36) << mode;
    }
}

// ---- Robustness ----------------------------------------------------------------------------------------------

TEST(Robustness, ACrashingGuestReportsItsCountsAndEnds) {
    for (const char* where : {"main", "thread"}) {
        Outcome o;
        json r = run_json({"-e", kAllInstructions, guest("guest_crash"), where}, &o, 120);
        ASSERT_FALSE(o.timed_out) << where;
        EXPECT_EQ(o.status, 128 + SIGSEGV) << where;
        EXPECT_EQ(r["exit"]["signal"], SIGSEGV) << where;
        EXPECT_GE(value_of(r), 4000000) << where;
        EXPECT_EQ(static_cast<std::uint64_t>(value_of(r)), all_instructions(r)) << where;
    }
}

TEST(Robustness, SignalHandlersAndForkedChildrenRun) {
    Outcome o = run({netburst_run(), guest("guest_signals"), "pmu"});
    EXPECT_EQ(o.status, 0) << o.err;  // the guest checks the child's fresh PMU and the parent's kept one
    json r = run_json({"-e", kAllInstructions, guest("guest_signals")}, &o);
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(r["processes"], 2);
    // Five handler runs of 10,000 iterations and the child's 20,000, at four instructions each.
    EXPECT_GE(value_of(r), 4 * (5 * 10000 + 20000));
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(r)), all_instructions(r));
}

TEST(Robustness, ExecedProgramsAreFollowedUnlessAskedNot) {
    Outcome o;
    json followed = run_json({"-e", kAllInstructions, guest("guest_signals"), "exec"}, &o);
    EXPECT_EQ(o.status, 0) << o.err;
    json native = run_json({"--no-children", "-e", kAllInstructions, guest("guest_signals"), "exec"}, &o);
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(static_cast<std::uint64_t>(value_of(followed)), all_instructions(followed));
    // The exec'd image runs nb_loop_int 30,000 times: 120,000 instructions that only the followed run counts.
    EXPECT_GE(value_of(followed) - value_of(native), 120000);
}

// ---- A program that programs the PMU itself -----------------------------------------------------------------

// The guest programs its own event through the MSR channel, as PAPI on the emulator does. Where it writes the
// registers of netburst-run's event, that event's counter holds the guest's counts, so the report must say "not
// counted" rather than print them; an event on registers the guest leaves alone is still counted.
TEST(Report, EventsWhoseRegistersTheProgramRewritesAreNotCounted) {
    TempDir dir;
    const std::string program = write_program(dir, {"instr_retired:NBOGUSNTAG:NBOGUSTAG"});
    Outcome o;
    json taken = run_json({"-e", "instr_retired:NBOGUSNTAG:NBOGUSTAG", guest("guest_measure"), program, "2", "1000",
                           "10000"}, &o);
    EXPECT_EQ(taken["pmu_taken"], true) << o.err;
    EXPECT_EQ(taken["events"][0]["value"], "not counted");
    json apart = run_json({"-e", "page_walk_type:DTMISS", guest("guest_measure"), program, "2", "1000", "10000"});
    EXPECT_EQ(apart["pmu_taken"], false);
    EXPECT_TRUE(apart["events"][0]["value"].is_number()) << apart.dump();
}

// ---- Data cache: replay-tagged L1 load misses against cachegrind's D1 read misses ----------------------------

std::uint64_t cachegrind_d1_read_misses(const std::string& pattern) {
    TempDir dir;
    const std::string out = dir.file("cachegrind.out");
    const Outcome o = run({"/usr/bin/env", "valgrind", "--tool=cachegrind", "--cache-sim=yes", "--D1=8192,4,64",
                           "--cachegrind-out-file=" + out, guest("guest_sweep"), pattern});
    EXPECT_EQ(o.status, 0) << o.err;
    std::ifstream in(out);
    std::string line, events;
    std::vector<std::string> names;
    while (std::getline(in, line)) {
        if (line.rfind("events: ", 0) == 0) {
            std::istringstream s(line.substr(8));
            for (std::string n; s >> n;) names.push_back(n);
        }
        if (line.rfind("summary: ", 0) == 0) {
            std::istringstream s(line.substr(9));
            std::uint64_t v;
            for (const std::string& n : names) {
                s >> v;
                if (n == "D1mr") return v;
            }
        }
    }
    ADD_FAILURE() << "no D1mr in cachegrind's output";
    return 0;
}

class DataCache : public ::testing::TestWithParam<const char*> {};

TEST_P(DataCache, ReplayTaggedL1LoadMissesMatchCachegrindWithinTwoPercent) {
    const std::string pattern = GetParam();
    json r = run_json({"-e", "1stL_cache_load_miss_retired:NBOGUS:u", guest("guest_sweep"), pattern});
    const double ours = static_cast<double>(value_of(r));
    const double theirs = static_cast<double>(cachegrind_d1_read_misses(pattern));
    ASSERT_GT(theirs, 100000.0);
    EXPECT_NEAR(ours / theirs, 1.0, 0.02) << pattern << ": emulator " << ours << ", cachegrind " << theirs;
    std::printf("%-7s emulator %12.0f  cachegrind %12.0f  ratio %.4f\n", pattern.c_str(), ours, theirs, ours / theirs);
}

INSTANTIATE_TEST_SUITE_P(Patterns, DataCache, ::testing::Values("seq", "stride", "thrash", "random"));

// ---- --record: the emulator's input as a trace ---------------------------------------------------------------

struct TraceSummary {
    std::uint64_t records = 0, loads = 0, stores = 0, scalar_dp = 0, breaks = 0;
    std::string first_break;
};

// Valgrind's client-request sequence (four rotates and an xchg) is the call into the tool, not guest work.
constexpr std::uint64_t kClientRequestBytes = 19;

// Reads a recorded trace and checks that it is one unbroken instruction stream: every instruction is followed by
// its branch target when taken, else by the next instruction (a system call by the kernel path, whose sysretq
// returns to the instruction after it; the MSR channel's client requests leave no record).
TraceSummary read_trace(const std::string& path) {
    TraceSummary s;
    std::string error;
    auto reader = emu::trace::TraceReader::open(path, &error);
    EXPECT_TRUE(reader) << error;
    if (!reader) return s;
    emu::Instruction insn, prev;
    bool have_prev = false;
    int status;
    while ((status = reader->next(&insn, &error)) == 1) {
        ++s.records;
        for (unsigned k = 0; k < insn.num_mem; ++k) (insn.mem[k].is_store ? s.stores : s.loads)++;
        if (insn.cls == emu::InsnClass::SseScalarDp) ++s.scalar_dp;
        if (have_prev && prev.cls != emu::InsnClass::Syscall) {
            const std::uint64_t next = prev.taken ? prev.target : prev.pc + prev.length;
            if (insn.pc != next && insn.pc != next + kClientRequestBytes && s.breaks++ == 0)
                s.first_break = emu::trace::format_text_line(prev) + " -> " + emu::trace::format_text_line(insn);
        }
        prev = insn;
        have_prev = true;
    }
    EXPECT_EQ(status, 0) << error;
    return s;
}

TEST(Record, TheTraceIsTheInstructionStreamTheEmulatorRan) {
    TempDir dir;
    TraceSummary s[2];
    const char* trips[2] = {"1000", "3000"};
    for (int i = 0; i < 2; ++i) {
        const std::string path = dir.file(std::string("loads") + trips[i] + ".nbt");
        json r = run_json({"--record", path, "-e", kAllInstructions, guest("guest_loops"), "loads", trips[i]});
        s[i] = read_trace(path);
        EXPECT_EQ(s[i].breaks, 0u) << s[i].first_break;
        // The trace holds every user instruction and every kernel-path instruction the emulator ran.
        EXPECT_EQ(s[i].records, all_instructions(r));
        EXPECT_EQ(static_cast<std::uint64_t>(value_of(r)), s[i].records);
    }
    EXPECT_EQ(s[1].loads - s[0].loads, 2u * 2000) << "two 8-byte loads per iteration";
    EXPECT_EQ(s[1].stores, s[0].stores);
    const std::string sse = dir.file("sse.nbt");
    run_json({"--record", sse, "-e", kAllInstructions, guest("guest_loops"), "sse_sd", "500"});
    const std::string sse2 = dir.file("sse2.nbt");
    run_json({"--record", sse2, "-e", kAllInstructions, guest("guest_loops"), "sse_sd", "700"});
    EXPECT_EQ(read_trace(sse2).scalar_dp - read_trace(sse).scalar_dp, 2u * 200);
}

// ---- The launcher ----------------------------------------------------------------------------------------------

TEST(Launcher, ExitsWithTheProgramsStatus) {
    EXPECT_EQ(run({netburst_run(), guest("guest_loops"), "exit", "7"}).status, 7);
    EXPECT_EQ(run({netburst_run(), "-e", "PAPI_TOT_INS", "-o", "/dev/null", guest("guest_loops"), "exit", "3"}).status, 3);
}

// Models 0, 1 and 2 had no 64-bit mode (their CPUID, and the emulated one, has no Intel 64): an x86-64 program runs
// on them all the same, with a one-line note that --no-64-bit-note leaves out; models 3, 4 and 6 need none.
TEST(Launcher, A64BitProgramOnAPartWithout64BitModeGetsANote) {
    const std::string note = "had no 64-bit mode; this x86-64 program runs all the same";
    const auto notes = [&](const std::string& err) {
        std::size_t n = 0;
        for (std::size_t at = err.find(note); at != std::string::npos; at = err.find(note, at + 1)) ++n;
        return n;
    };
    for (const char* model : {"0", "1", "2"}) {
        const Outcome o = run({netburst_run(), "--model", model, guest("guest_loops"), "exit", "0"});
        EXPECT_EQ(o.status, 0) << o.err;
        EXPECT_EQ(notes(o.err), 1u) << "model " << model << ": " << o.err;
        const Outcome quiet = run({netburst_run(), "--model", model, "--no-64-bit-note", guest("guest_loops"), "exit", "0"});
        EXPECT_EQ(notes(quiet.err), 0u) << quiet.err;
    }
    for (const char* model : {"3", "4", "6"})
        EXPECT_EQ(notes(run({netburst_run(), "--model", model, guest("guest_loops"), "exit", "0"}).err), 0u) << model;
    TempDir dir;
    const Outcome record = run({netburst_run(), "record", "-q", "-e", "PAPI_TOT_INS", "-o", dir.file("perf.data"),
                                "--", guest("guest_loops"), "exit", "0"});
    EXPECT_EQ(notes(record.err), 1u) << record.err;
}

TEST(Launcher, UnknownEventsGetSuggestions) {
    const Outcome o = run({netburst_run(), "-e", "instr_retird", guest("guest_loops"), "exit", "0"});
    EXPECT_EQ(o.status, 125);
    EXPECT_NE(o.err.find("did you mean instr_retired"), std::string::npos) << o.err;
    const Outcome p = run({netburst_run(), "-e", "PAPI_L3_TCM", guest("guest_loops"), "exit", "0"});
    EXPECT_EQ(p.status, 125);
    EXPECT_NE(p.err.find("--l3"), std::string::npos) << p.err;
}

TEST(Launcher, UnknownPresetsGetSuggestions) {
    const Outcome o = run({netburst_run(), "-e", "PAPI_L1_DCN", guest("guest_loops"), "exit", "0"});
    EXPECT_EQ(o.status, 125);
    EXPECT_NE(o.err.find("did you mean PAPI_L1_DCM"), std::string::npos) << o.err;
}

// $PAPI_NETBURST_FP follows the component's rule: a variant's name in any case; anything else is refused.
TEST(Launcher, FpVariantFromTheEnvironmentInAnyCase) {
    const std::vector<std::string> argv = {netburst_run(), "-e", "PAPI_FP_INS", "-o", "/dev/null", guest("guest_loops"),
                                           "exit", "0"};
    EXPECT_EQ(run(argv, 60, {"PAPI_NETBURST_FP=X87"}).status, 0);
    EXPECT_EQ(run(argv, 60, {"PAPI_NETBURST_FP=x87_sse_dp"}).status, 0);
    const Outcome bad = run(argv, 60, {"PAPI_NETBURST_FP=avx"});
    EXPECT_EQ(bad.status, 125);
    EXPECT_NE(bad.err.find("expected sse, x87 or x87_sse_dp"), std::string::npos) << bad.err;
}

// --timing=sampled reaches the tool: the architectural counts stay exact, the cycle count becomes an estimate.
TEST(Launcher, SampledTimingKeepsArchitecturalCountsExact) {
    const std::vector<std::string> events = {"-e", "PAPI_TOT_INS", "-e", "PAPI_TOT_CYC", guest("guest_loops"), "int",
                                             "1000000"};
    const json exact = run_json(events);
    std::vector<std::string> args = {"--timing=sampled"};
    args.insert(args.end(), events.begin(), events.end());
    const json sampled = run_json(args);
    EXPECT_EQ(exact.at("emulator").at("timing"), "exact");
    EXPECT_EQ(sampled.at("emulator").at("timing"), "sampled");
    EXPECT_EQ(value_of(sampled, 0), value_of(exact, 0));
    EXPECT_FALSE(sampled.at("events").at(0).contains("estimated")) << sampled.dump();
    EXPECT_FALSE(exact.at("events").at(1).contains("estimated")) << exact.dump();
    EXPECT_EQ(sampled.at("events").at(1).value("estimated", false), true) << sampled.dump();
    EXPECT_TRUE(sampled.at("events").at(1).at("ci_half_width").is_number()) << sampled.dump();
}

TEST(Launcher, TimingIsExactOrSampledAndTheScheduleIsChecked) {
    const Outcome bad = run({netburst_run(), "--timing=fast", guest("guest_loops"), "exit", "0"});
    EXPECT_EQ(bad.status, 125);
    EXPECT_NE(bad.err.find("the timing is 'exact' or 'sampled'"), std::string::npos) << bad.err;
    const Outcome unit = run({netburst_run(), "--timing=sampled", "--valgrind-option=--sample-unit=0",
                              guest("guest_loops"), "exit", "0"});
    EXPECT_NE(unit.status, 0);
    EXPECT_NE(unit.err.find("a measured unit needs at least 1 instruction"), std::string::npos) << unit.err;
    const Outcome period = run({netburst_run(), "--timing=sampled", "--valgrind-option=--sample-period=2500",
                                guest("guest_loops"), "exit", "0"});
    EXPECT_NE(period.status, 0);
    EXPECT_NE(period.err.find("must fit in the period"), std::string::npos) << period.err;
}

// ---- Temporary files --------------------------------------------------------------------------------------------

// Runs argv with standard error on a pseudo-terminal (netburst-run draws its progress line only on a terminal) and
// standard output on /dev/null; returns the exit status and, in *terminal, what was written to the terminal.
int run_on_terminal(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
                    std::string* terminal) {
    const int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return -1;
    const std::string slave = ptsname(master);
    const pid_t pid = fork();
    if (pid == 0) {
        const int err = open(slave.c_str(), O_RDWR | O_NOCTTY);
        const int out = open("/dev/null", O_WRONLY);
        dup2(err, 2);
        dup2(out, 1);
        close(master);
        for (const std::string& e : extra_env) putenv(const_cast<char*>(e.c_str()));
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    // Reading the master side ends with EIO once every process holding the terminal has closed it.
    char buf[4096];
    for (;;) {
        const ssize_t n = read(master, buf, sizeof buf);
        if (n > 0) terminal->append(buf, static_cast<std::size_t>(n));
        else if (n < 0 && errno == EINTR) continue;
        else break;
    }
    close(master);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

std::vector<std::string> entries_of(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.emplace_back(e->d_name);
        closedir(d);
    }
    return names;
}

// netburst-run keeps the event program, the tool's results, samples and progress counts in a directory of its own
// under $TMPDIR, and removes it however the run ends: with -e, with the progress line, record, a program that fails
// or crashes, and netburst-run failing after the run (a report it cannot write).
TEST(Launcher, LeavesNothingInTmpdir) {
    TempDir dir;
    struct Case {
        std::vector<std::string> args;
        int status;
        bool terminal = false;
    };
    const std::string perf_data = dir.file("perf.data");
    const std::vector<Case> cases = {
        {{"-e", "PAPI_TOT_INS", "-o", "/dev/null", guest("guest_loops"), "int", "1000"}, 0},
        {{"-e", "PAPI_TOT_INS", "-o", "/dev/null", guest("guest_loops"), "exit", "3"}, 3},
        {{"-e", "PAPI_TOT_INS", "-o", "/dev/null", guest("guest_crash"), "main"}, 128 + SIGSEGV},
        {{"-e", "PAPI_TOT_INS", "-o", dir.file("no-such-dir/report"), guest("guest_loops"), "exit", "0"}, 125},
        {{guest("guest_loops"), "int", "1000"}, 0},
        {{guest("guest_loops"), "int", "100000000"}, 0, true},  // about 3 s: the line is drawn after 1 s
        {{guest("guest_loops"), "exit", "5"}, 5, true},
        {{"-e", "PAPI_TOT_INS", "-o", "/dev/null", guest("guest_loops"), "int", "1000"}, 0, true},
        {{"record", "-q", "-e", "PAPI_TOT_INS", "-c", "1000", "-o", perf_data, guest("guest_loops"), "int", "10000"}, 0},
        {{"record", "-q", "-e", "PAPI_TOT_INS", "-o", perf_data, guest("guest_loops"), "exit", "4"}, 4},
        {{"record", "-q", "-e", "PAPI_TOT_INS", "-o", perf_data, guest("guest_crash"), "main"}, 128 + SIGSEGV},
        {{"record", "-e", "PAPI_TOT_INS", "-c", "1000", "-o", perf_data, guest("guest_loops"), "int", "10000"}, 0, true},
    };
    bool progress_seen = false;
    for (const Case& c : cases) {
        std::string what;
        for (const std::string& a : c.args) what += " " + a;
        const std::string tmp = dir.file("tmp");
        ASSERT_EQ(mkdir(tmp.c_str(), 0700), 0) << what;
        std::vector<std::string> argv = {netburst_run()};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        const std::vector<std::string> env = {"TMPDIR=" + tmp};
        if (c.terminal) {
            std::string terminal;
            EXPECT_EQ(run_on_terminal(argv, env, &terminal), c.status) << what << "\n" << terminal;
            progress_seen = progress_seen || terminal.find("guest instructions") != std::string::npos;
        } else {
            const Outcome o = run(argv, 120, env);
            EXPECT_EQ(o.status, c.status) << what << "\n" << o.err;
        }
        std::string left;
        for (const std::string& e : entries_of(tmp)) left += " " + e;
        EXPECT_EQ(left, "") << what << " left these in $TMPDIR";
        std::system(("rm -rf '" + tmp + "'").c_str());
    }
    EXPECT_TRUE(progress_seen) << "no run on a terminal drew the progress line: the progress path was not tested";
}

// ---- Several PMUs ----------------------------------------------------------------------------------------------

// Events that cannot share one PMU's counters (both load-miss replay metrics need the one replay tagging set-up;
// five execution-tagged metrics need five of the four tag bits) are counted in one run on PMUs that watch the
// same core, and each count is the count of a run with that event alone. The guest is static: the dynamic
// loader's start-up makes the L1 misses of two runs differ by one now and then (tests/integration/local.mk).
TEST(SeveralPmus, EveryEventIsExactlyItsCountAlone) {
    const std::vector<std::string> events = {"1stL_cache_load_miss_retired", "2ndL_cache_load_miss_retired",
                                             "x87_FP_retired",  "scalar_SP_retired", "scalar_DP_retired",
                                             "packed_SP_retired", "packed_DP_retired"};
    std::vector<std::string> args;
    for (const std::string& e : events) args.insert(args.end(), {"-e", e});
    args.insert(args.end(), {guest("guest_loops_static"), "mix", "3000"});
    const json together = run_json(args);
    ASSERT_EQ(together.at("events").size(), events.size()) << together.dump();
    unsigned highest_pmu = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const json& e = together.at("events").at(i);
        EXPECT_EQ(e.at("event"), events[i]);
        highest_pmu = std::max(highest_pmu, e.at("pmu").get<unsigned>());
        const json alone = run_json({"-e", events[i], guest("guest_loops_static"), "mix", "3000"});
        EXPECT_EQ(value_of(together, i), value_of(alone)) << events[i] << " on PMU " << e.at("pmu");
    }
    EXPECT_GE(highest_pmu, 2u) << "five execution tags and two replay metrics fit on fewer than three PMUs?";
    // Each FP loop runs 3000 times: the metrics are not zero, so equality above means something.
    for (std::size_t i = 0; i < events.size(); ++i) EXPECT_GE(value_of(together, i), 3000) << events[i];
}

// PMU 0 is the one the program sees; the other PMUs are out of its reach, so when the program rewrites the
// registers of PMU 0's events (as PAPI inside would), only those print "not counted".
TEST(SeveralPmus, TheProgramReachesOnlyPmuZero) {
    TempDir dir;
    const std::string program = write_program(dir, {"instr_retired:NBOGUSNTAG:NBOGUSTAG"});
    // Three privilege filters need three of the two CRU ESCRs that count instr_retired: the third goes on PMU 1.
    Outcome o;
    const json r = run_json({"-e", "instr_retired:NBOGUSNTAG:NBOGUSTAG", "-e", "instr_retired:NBOGUSNTAG:NBOGUSTAG:u",
                             "-e", "instr_retired:NBOGUSNTAG:NBOGUSTAG:k", guest("guest_measure"), program, "2", "1000",
                             "10000"},
                            &o);
    ASSERT_EQ(r.at("events").size(), 3u) << o.err;
    EXPECT_EQ(r.at("pmu_taken"), true);
    EXPECT_EQ(r.at("events").at(0).at("pmu"), 0);
    EXPECT_EQ(r.at("events").at(0).at("value"), "not counted");
    EXPECT_EQ(r.at("events").at(1).at("value"), "not counted");
    EXPECT_EQ(r.at("events").at(2).at("pmu"), 1);
    EXPECT_GT(value_of(r, 2), 0) << "the kernel paths of the program's system calls";
}

TEST(SeveralPmus, AllCountsEveryModelledEventInOneRun) {
    Outcome o;
    const json r = run_json({"-e", "all", guest("guest_loops"), "exit", "0"}, &o);
    ASSERT_TRUE(r.contains("events")) << o.err;
    EXPECT_GT(r.at("events").size(), 40u);
    unsigned numbers = 0;
    for (const json& e : r.at("events")) numbers += e.at("value").is_number();
    EXPECT_GT(numbers, 30u) << r.dump();
    bool has_metric = false;
    for (const json& e : r.at("events")) has_metric = has_metric || e.at("event") == "1stL_cache_load_miss_retired";
    EXPECT_TRUE(has_metric);
}

// ---- Parallel runs: -o patterns and merge ----------------------------------------------------------------------

TEST(Parallel, OutputPatternsAndMerge) {
    TempDir dir;
    for (const char* rank : {"0", "1"}) {
        const std::string pattern = dir.file("counts.%r.json");
        const Outcome o = run({netburst_run(), "--json", "-o", pattern, "-e", "PAPI_TOT_INS", guest("guest_loops"),
                               "int", rank[0] == '0' ? "1000" : "3000"},
                              300, {std::string("PMI_RANK=") + rank});
        ASSERT_EQ(o.status, 0) << o.err;
    }
    std::ifstream in(dir.file("counts.1.json"));
    ASSERT_TRUE(in.good());
    const json one = json::parse(in);
    EXPECT_EQ(one.at("rank"), 1);
    const Outcome m = run({netburst_run(), "merge", "--json", dir.file("counts.0.json"), dir.file("counts.1.json")});
    ASSERT_EQ(m.status, 0) << m.err;
    // --merge is the subcommand's other spelling, and -o writes the table to a file.
    const Outcome alias = run({netburst_run(), "--merge", "--json", "-o", dir.file("merged.json"),
                               dir.file("counts.0.json"), dir.file("counts.1.json")});
    ASSERT_EQ(alias.status, 0) << alias.err;
    std::ifstream merged_file(dir.file("merged.json"));
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(merged_file), {}), m.out);
    const Outcome text = run({netburst_run(), "merge", dir.file("counts.0.json"), dir.file("counts.1.json")});
    EXPECT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("PAPI_TOT_INS"), std::string::npos) << text.out;
    EXPECT_EQ(run({netburst_run(), "merge"}).status, 125) << "no reports to merge";
    EXPECT_EQ(run({netburst_run(), "merge", dir.file("no-such-report.json")}).status, 125);
    const json merged = json::parse(m.out);
    ASSERT_EQ(merged.at("ranks").size(), 2u);
    const json& ins = merged.at("events").at(0);
    EXPECT_EQ(ins.at("event"), "PAPI_TOT_INS");
    // The int loop's body is fixed: rank 1 ran 2000 more iterations, and nothing else differs.
    const std::int64_t r0 = ins.at("values").at(0), r1 = ins.at("values").at(1);
    EXPECT_GT(r1, r0);
    EXPECT_EQ(ins.at("sum").get<std::int64_t>(), r0 + r1);
    EXPECT_EQ(ins.at("max").get<std::int64_t>(), r1);

    const Outcome no_rank = run({netburst_run(), "-o", dir.file("x.%r"), "-e", "PAPI_TOT_INS", guest("guest_loops"),
                                 "exit", "0"},
                                60, {"OMPI_COMM_WORLD_RANK=", "PMI_RANK=", "PMIX_RANK=", "SLURM_PROCID="});
    EXPECT_EQ(no_rank.status, 125);
    EXPECT_NE(no_rank.err.find("%r needs the MPI rank"), std::string::npos) << no_rank.err;
}

// ---- The tool's x86-linux build (issue 29) --------------------------------------------------------------------
// These tests run the build directly under Valgrind, without ASLR (as netburst-run runs an i386 program), and hold it
// to exact counts.

std::string x86_build_dir() { return netburst_run().substr(0, netburst_run().rfind('/')) + "/emulator/valgrind/lib"; }

bool have_x86_build() {
    return access((x86_build_dir() + "/netburst-x86-linux").c_str(), X_OK) == 0 &&
           access(guest("guest_adds32").c_str(), X_OK) == 0;
}

struct X86Run {
    Outcome outcome;
    std::vector<std::int64_t> values;  // per event, as netburst-run would report them
    std::uint64_t instructions = 0;    // guest instructions
};

X86Run run_x86_build(const std::vector<std::string>& events, const std::vector<std::string>& command,
                     const std::vector<std::string>& tool_options = {}) {
    TempDir dir;
    auto plan = run::plan_events(events, run::PlanOptions{});
    EXPECT_TRUE(plan) << plan.error().message;
    X86Run r;
    if (!plan) return r;
    char text[1 << 16];
    const std::size_t n = vg::format_event_program(plan->program, text, sizeof text);
    std::ofstream(dir.file("program")) << std::string(text, n);
    std::vector<std::string> argv = {"/usr/bin/env", "VALGRIND_LIB=" + x86_build_dir(), "setarch", "x86_64", "-R",
                                     "valgrind", "--tool=netburst", "-q",
                                     "--program=" + dir.file("program"), "--results=" + dir.file("")};
    argv.insert(argv.end(), tool_options.begin(), tool_options.end());
    argv.insert(argv.end(), command.begin(), command.end());
    r.outcome = run(argv, 120);
    auto totals = run::read_results(dir.file(""), plan->program.num_events);
    EXPECT_TRUE(totals) << (totals ? "" : totals.error().message) << r.outcome.err;
    if (!totals) return r;
    r.instructions = totals->instructions;
    for (const run::EventValue& v : run::event_values(*plan, *totals, 1)) r.values.push_back(v.value);
    return r;
}

// The loop's trip counts differ by exactly the loop, as for the x86-64 build (the one-byte dec, 49, is decoded in
// 32-bit mode), and every count is the same however Valgrind cut the code into blocks.
TEST(X86Build, AnI386LoopCountsExactly) {
    if (!have_x86_build()) GTEST_SKIP() << "no netburst-x86-linux or no i386 guest (gcc -m32)";
    const std::vector<std::string> events = {"PAPI_TOT_INS", "PAPI_BR_INS", "PAPI_TOT_CYC", "PAPI_L1_DCM"};
    const X86Run a = run_x86_build(events, {guest("guest_adds32"), "10000"});
    const X86Run b = run_x86_build(events, {guest("guest_adds32"), "90000"});
    ASSERT_EQ(a.values.size(), 4u) << a.outcome.err;
    ASSERT_EQ(b.values.size(), 4u) << b.outcome.err;
    EXPECT_EQ(b.values[0] - a.values[0], 4 * 80000);
    EXPECT_EQ(b.values[1] - a.values[1], 80000);
    EXPECT_EQ(b.instructions - a.instructions, 4u * 80000);
    for (const char* way : {"--vex-iropt-level=0", "--vex-guest-max-insns=5"}) {
        const X86Run c = run_x86_build(events, {guest("guest_adds32"), "10000"}, {way});
        EXPECT_EQ(c.values, a.values) << way;
        EXPECT_EQ(c.instructions, a.instructions) << way;
    }
}

// The emulated clock reaches i386 programs, whose glibc reads it through clock_gettime64: the loop takes the same
// time in every run, where the host's clock would differ.
TEST(X86Build, AnI386ProgramReadsTheEmulatedClock) {
    if (!have_x86_build()) GTEST_SKIP() << "no netburst-x86-linux or no i386 guest (gcc -m32)";
    const X86Run a = run_x86_build({"PAPI_TOT_INS"}, {guest("guest_adds32"), "clock", "200000"});
    const X86Run b = run_x86_build({"PAPI_TOT_INS"}, {guest("guest_adds32"), "clock", "200000"});
    EXPECT_EQ(a.outcome.status, 0) << a.outcome.err;
    EXPECT_NE(a.outcome.out.find("ns "), std::string::npos) << a.outcome.out;
    EXPECT_EQ(a.outcome.out, b.outcome.out);
    // About 200,000 iterations of 4 instructions at the model's 2.8 GHz: tens to hundreds of microseconds.
    const long long ns = std::atoll(a.outcome.out.c_str() + 3);
    EXPECT_GT(ns, 20000);
    EXPECT_LT(ns, 2000000);
    // rdtsc too, estimated while no counter counts cycles, against its exact reading when one does. The x86 build
    // once computed the estimate in x87 arithmetic, and read 2^63 every time.
    const X86Run estimated = run_x86_build({"PAPI_TOT_INS"}, {guest("guest_adds32"), "tsc", "400000"});
    const X86Run exact = run_x86_build({"PAPI_TOT_CYC"}, {guest("guest_adds32"), "tsc", "400000"});
    ASSERT_EQ(estimated.outcome.out.rfind("cycles ", 0), 0u) << estimated.outcome.out << estimated.outcome.err;
    ASSERT_EQ(exact.outcome.out.rfind("cycles ", 0), 0u) << exact.outcome.out;
    const double e = std::atof(estimated.outcome.out.c_str() + 7), x = std::atof(exact.outcome.out.c_str() + 7);
    EXPECT_GT(x, 400000.0);
    EXPECT_NEAR(e / x, 1.0, 0.05) << "estimated " << e << ", exact " << x;
}

TEST(Launcher, MissingValgrindNamesThePackage) {
    const Outcome o = run({netburst_run(), guest("guest_loops"), "exit", "0"}, 60, {"PATH=/nonexistent"});
    EXPECT_EQ(o.status, 125);
    EXPECT_NE(o.err.find("install the Debian package 'valgrind'"), std::string::npos) << o.err;
}

TEST(Launcher, MissingProgramIsReported) {
    const Outcome o = run({netburst_run(), "./no-such-program"});
    EXPECT_EQ(o.status, 127);
}

// Until the tool's x86-linux build counts exactly (issue 29), an i386 program (gcc -m32) is refused before Valgrind
// starts, in one line that says so and names the issue, rather than with Valgrind's "failed to start tool"; by
// counting runs and by record alike, and by the tool when a 64-bit program executes one. The same loop built as
// x86-64 runs and counts.
TEST(Launcher, ThirtyTwoBitProgramsRunWithTheSameOptions) {
    const std::string i386 = guest("guest_adds32");
    if (access(i386.c_str(), X_OK) != 0) GTEST_SKIP() << "no i386 guest: configure found no gcc -m32 (gcc-multilib)";
    // Counting, twice: identical, although the kernel would randomise an i386 program's addresses (netburst-run
    // turns that off for it).
    json a = run_json({"-e", "PAPI_TOT_INS", "-e", "PAPI_TOT_CYC", "-e", "PAPI_L1_DCM", "--", i386, "10000"});
    json b = run_json({"-e", "PAPI_TOT_INS", "-e", "PAPI_TOT_CYC", "-e", "PAPI_L1_DCM", "--", i386, "90000"});
    json c = run_json({"-e", "PAPI_TOT_INS", "-e", "PAPI_TOT_CYC", "-e", "PAPI_L1_DCM", "--", i386, "90000"});
    EXPECT_EQ(value_of(b, 0) - value_of(a, 0), 4 * 80000);
    for (int e = 0; e < 3; ++e) EXPECT_EQ(value_of(b, e), value_of(c, e)) << e;
    // The FP presets count x87, i386's default floating point: guest_adds tsc N does N x87 multiplies.
    json fa = run_json({"-e", "PAPI_FP_INS", "--", i386, "tsc", "1000"});
    json fb = run_json({"-e", "PAPI_FP_INS", "--", i386, "tsc", "11000"});
    EXPECT_EQ(value_of(fb, 0) - value_of(fa, 0), 10000);
    EXPECT_EQ(fb.at("events").at(0).at("native").at(0).get<std::string>(), "x87_FP_retired:NBOGUS") << fb.dump();
    // No note: an i386 program is what the model 2 part ran.
    TempDir dir;
    const Outcome o = run({netburst_run(), "-e", "PAPI_TOT_INS", "-o", dir.file("x.json"), "--", i386, "1000"}, 60);
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.err.find("64-bit mode"), std::string::npos) << o.err;
    // Recording: perf reads the i386 ELF's symbols from the samples netburst-run wrote.
    const Outcome r = run({netburst_run(), "record", "-e", "PAPI_TOT_INS", "-o", dir.file("perf.data"), "--", i386,
                           "200000"},
                          60);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("samples of PAPI_TOT_INS"), std::string::npos) << r.err;

    // A 64-bit program that executes it, and the reverse: Valgrind runs each image with the tool's build for it, and
    // the counts of both images add up.
    // The i386 image runs without randomisation there too (the tool sets it before the exec): its cache misses are
    // the same in every run.
    const std::vector<std::string> down_run = {"-e", "PAPI_TOT_INS", "-e", "PAPI_L1_DCM", "--", guest("guest_adds"),
                                               "exec", i386, "90000"};
    json down = run_json(down_run);
    json down_again = run_json(down_run);
    json up = run_json({"-e", "PAPI_TOT_INS", "--", i386, "exec", guest("guest_adds"), "90000"});
    json down_short = run_json({"-e", "PAPI_TOT_INS", "--", guest("guest_adds"), "exec", i386, "10000"});
    EXPECT_EQ(value_of(down, 0) - value_of(down_short, 0), 4 * 80000);
    EXPECT_EQ(value_of(down, 1), value_of(down_again, 1));
    EXPECT_GT(value_of(up, 0), 4 * 90000);
}

// An event whose (event, mask) the core model does not drive (model/coverage.h) reads "unsupported", never a
// number; one it drives reads a number in the same run.
TEST(Launcher, AnEventTheModelDoesNotDriveIsUnsupported) {
    std::string unmodelled;
    for (const EventDef& e : kEvents) {
        if (!event_on_model(e, kDefaultModel)) continue;
        for (unsigned m = 0; m < e.num_masks && unmodelled.empty(); ++m) {
            const MaskDef& mask = e.masks[m];
            if (!model_in(mask.models, kDefaultModel) || (mask.flags & kMaskNeedsL3)) continue;
            if (emu::coverage(e.id, mask.bit) != emu::Coverage::NotModelled) continue;
            const std::string name = std::string(e.name) + ":" + mask.name;
            if (run::plan_events({name}, run::PlanOptions{})) unmodelled = name;
        }
        if (!unmodelled.empty()) break;
    }
    ASSERT_FALSE(unmodelled.empty()) << "the coverage table lists no event the model leaves out";
    json r = run_json({"-e", unmodelled, "-e", "PAPI_TOT_INS", guest("guest_loops"), "int", "1000"});
    EXPECT_EQ(r["events"][0]["value"], "unsupported") << unmodelled;
    EXPECT_GT(value_of(r, 1), 4000);
}

TEST(MsrChannel, NativelyEveryCallReportsNotEmulated) {
    const Outcome o = run({guest("guest_loops"), "query"});
    EXPECT_EQ(o.out, "query 3 wrmsr 3 rdmsr 3 rdpmc 3 status 3\n");
}

TEST(MsrChannel, UnderTheToolEveryCallAnswers) {
    const Outcome o = run({netburst_run(), guest("guest_loops"), "query"});
    EXPECT_EQ(o.out, "query 0 wrmsr 0 rdmsr 0 rdpmc 0 status 0\n") << o.err;
}

// A write list stops at the write that #GPs and says how many it made; a counter read by mask gives what RDMSR of
// its CCCR and RDPMC give and leaves the other entries alone; a mask bit above 17 or a list the program cannot
// write is refused (NB_GP_FAULT, 1).
TEST(MsrChannel, ListsOfAccessesAnswerAsSingleOnes) {
    const Outcome native = run({guest("guest_loops"), "lists"});
    EXPECT_EQ(native.out.substr(0, 29), "lists write 3 made 99 then 3 ") << native.out;
    const Outcome o = run({netburst_run(), guest("guest_loops"), "lists"});
    EXPECT_EQ(o.out, "lists write 1 made 2 then 0 escr 1 read 0 value 12345 same 1 badmask 1 badlist 1\n") << o.err;
}

// ---- What the program sees of the processor (doc/guest-cpu.md) -------------------------------------------------

// guest_cpuid's "name value" lines.
std::map<std::string, std::string> cpuid_seen(const std::string& out) {
    std::map<std::string, std::string> seen;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t space = line.find(' ');
        if (space != std::string::npos) seen[line.substr(0, space)] = line.substr(space + 1);
    }
    return seen;
}

std::map<std::string, std::string> cpuid_under(const std::vector<std::string>& options,
                                               const std::vector<std::string>& guest_args = {}) {
    std::vector<std::string> argv = {netburst_run()};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back(guest("guest_cpuid"));
    argv.insert(argv.end(), guest_args.begin(), guest_args.end());
    const Outcome o = run(argv, 120);
    EXPECT_EQ(o.status, 0) << o.err;
    return cpuid_seen(o.out);
}

TEST(GuestCpu, Model2IsANorthwoodWithSse2AndNeitherSse3NorAvx) {
    auto seen = cpuid_under({"--model", "2"});
    EXPECT_EQ(seen["vendor"], "GenuineIntel");
    EXPECT_EQ(seen["family"], "15");
    EXPECT_EQ(seen["model"], "2");
    EXPECT_EQ(seen["sse2"], "1");
    EXPECT_EQ(seen["mmx"], "1");
    for (const char* absent : {"sse3", "ssse3", "sse4_1", "sse4_2", "popcnt", "avx", "avx2", "avx512f", "ht"})
        EXPECT_EQ(seen[absent], "0") << absent;
    EXPECT_EQ(seen["max_leaf"], "2");
    EXPECT_NE(seen["brand"].find("Intel(R) Pentium(R) 4 CPU"), std::string::npos) << seen["brand"];
    // Leaf 2: the 8 KB L1 (66H), 512 KB L2 (7BH), 12K-uop trace cache (70H) and no L3 (40H) of the core model.
    EXPECT_EQ(seen["leaf2"], "665b5101 00000000 00000000 007b7040");
}

TEST(GuestCpu, Model3HasSse3AndIntel64) {
    auto seen = cpuid_under({"--model", "3"});
    EXPECT_EQ(seen["family"], "15");
    EXPECT_EQ(seen["model"], "3");
    EXPECT_EQ(seen["sse3"], "1");
    EXPECT_EQ(seen["ssse3"], "0");
    EXPECT_EQ(seen["avx"], "0");
    EXPECT_EQ(seen["long_mode"], "1");
    EXPECT_EQ(seen["leaf2"], "605b5101 00000000 00000000 007c7040");  // 16 KB L1 (60H), 1 MB L2 (7CH)
}

TEST(GuestCpu, HyperThreadingSetsTheHtFlagAndTwoLogicalProcessors) {
    auto one = cpuid_under({"--model", "2"});
    auto two = cpuid_under({"--model", "2", "--ht"});
    EXPECT_EQ(one["ht"], "0");
    EXPECT_EQ(one["logical_processors"], "1");
    EXPECT_EQ(two["ht"], "1");
    EXPECT_EQ(two["logical_processors"], "2");
}

// --clock=emulated (the default): the program's clock is the emulated core's. 16 dependent imul r64 per round run at their
// latency (10 cycles on model 4, X64 #329: emulator/core/form_timing.cpp), so rdtsc must read about 160 cycles a
// round (the figures themselves are the fidelity suite's business); clock_gettime advances at the model's 3.20 GHz;
// and two runs read the same values.
TEST(GuestCpu, TheEmulatedClockIsTheCoresCycles) {
    const long rounds = 20000;
    auto seen = cpuid_under({"--model", "4", "--clock=emulated"}, {"clock", std::to_string(rounds)});
    ASSERT_TRUE(seen.count("tsc") && seen.count("ns"));
    const double tsc = std::stod(seen["tsc"]), ns = std::stod(seen["ns"]);
    EXPECT_NEAR(tsc / (16.0 * rounds), 10.0, 1.5) << "cycles per imul";
    EXPECT_NEAR(ns * 3.2, tsc, tsc * 0.01) << "nanoseconds at 3,200 MHz";
    auto again = cpuid_under({"--model", "4", "--clock=emulated"}, {"clock", std::to_string(rounds)});
    EXPECT_EQ(again["tsc"], seen["tsc"]);
    EXPECT_EQ(again["ns"], seen["ns"]);
    // With a counter that needs cycles every instruction is timed and the clock is exact; without one (above) it is
    // estimated from the sampled schedule's units (emulator/sampled_clock.h): within 2 % of it here.
    auto exact = cpuid_under({"--model", "4", "-e", "PAPI_TOT_CYC"}, {"clock", std::to_string(rounds)});
    EXPECT_NEAR(std::stod(exact["tsc"]), tsc, tsc * 0.02) << "estimated against exact";
    // With the host's clock the same loop reads the host's time stamp counter, which the model does not drive.
    auto host = cpuid_under({"--model", "4", "--clock=host"}, {"clock", std::to_string(rounds)});
    EXPECT_NE(host["tsc"], seen["tsc"]);
}

// --clock=emulated also runs the CPU-time interval timers (ITIMER_PROF, ITIMER_VIRTUAL) on the emulated core's
// cycles (emulator/valgrind/nb_itimer.c): a 1 ms ITIMER_PROF fires once per 3.2 million cycles on model 4, its
// signal up to a batch of records late (so the tick the last cycles reached may come after the reading), and the
// same number of times in every run; the host's timer, under Valgrind, would fire on the host's CPU time.
TEST(GuestCpu, TheCpuTimeTimersRunOnTheEmulatedClock) {
    const long rounds = 200000;
    auto seen = cpuid_under({"--model", "4", "--clock=emulated"}, {"itimer", std::to_string(rounds)});
    ASSERT_TRUE(seen.count("tsc") && seen.count("prof_ticks"));
    const long periods = std::stol(seen["tsc"]) / 3200000;
    ASSERT_GE(periods, 5) << "the loop must span several periods";
    const long ticks = std::stol(seen["prof_ticks"]);
    EXPECT_TRUE(ticks == periods || ticks == periods - 1) << ticks << " SIGPROF in " << periods << " periods";
    EXPECT_EQ(seen["virtual_ticks"], "1") << "the 5 ms one-shot ITIMER_VIRTUAL";
    const long remaining = std::stol(seen["prof_remaining_us"]);
    EXPECT_GT(remaining, 0);
    EXPECT_LE(remaining, 1000);
    EXPECT_EQ(seen["prof_old_interval_us"], "1000");
    // PAPI's multiplexing stops its timer with a zero itimerval in read-only memory: that stops the emulated timer
    // too (it went on firing before, and the tool warned that the timer ran on the host's time).
    EXPECT_GE(std::stol(seen["prof_ticks_rearmed"]), periods / 2 - 1) << "armed again for half the rounds";
    EXPECT_EQ(seen["prof_ticks_after_stop"], "0") << "stopped with a read-only zero value";
    auto again = cpuid_under({"--model", "4", "--clock=emulated"}, {"itimer", std::to_string(rounds)});
    EXPECT_EQ(again["prof_ticks"], seen["prof_ticks"]);
    EXPECT_EQ(again["prof_remaining_us"], seen["prof_remaining_us"]);
}

// The emulated clock goes on while the program waits (emulator/valgrind/nb_clock.c, "Waiting"): a 2 ms nanosleep
// reads 2 ms on the monotonic clock (plus the few instructions around it), a loop of 100 us sleeps until the clock
// passes 2 ms more ends after about 20 of them (without this it would wait for instructions that never come), and a
// poll that times out takes its 2 ms; the process's CPU time does not count the waits; two runs read the same.
TEST(GuestCpu, TheEmulatedClockPassesTheTimeTheProgramWaits) {
    auto seen = cpuid_under({"--model", "2"}, {"sleep", "2000"});
    ASSERT_TRUE(seen.count("slept_ns") && seen.count("looped_ns") && seen.count("polled_ns")) << "no output";
    for (const char* what : {"slept_ns", "looped_ns", "polled_ns"}) {
        EXPECT_GE(std::stoll(seen[what]), 2000000) << what;
        EXPECT_LT(std::stoll(seen[what]), 2200000) << what;
    }
    EXPECT_GE(std::stol(seen["naps"]), 19);
    EXPECT_LE(std::stol(seen["naps"]), 21);
    EXPECT_LT(std::stoll(seen["cpu_ns"]), 1000000) << "CPU time is the instructions', not the waits'";
    auto again = cpuid_under({"--model", "2"}, {"sleep", "2000"});
    EXPECT_EQ(again["looped_ns"], seen["looped_ns"]);
    EXPECT_EQ(again["naps"], seen["naps"]);
}

// Across fork the emulated clock goes on (the core model carries on): the child's monotonic clock does not jump by
// the time the parent ran before (200,000 rounds of 16 imuls: about 11 ms on model 2), and its CPU time starts at
// zero, as on Linux, while the parent's holds those rounds.
TEST(GuestCpu, TheEmulatedClockGoesOnAcrossFork) {
    auto seen = cpuid_under({"--model", "2"}, {"fork", "200000"});
    ASSERT_TRUE(seen.count("child_step_ns") && seen.count("parent_step_ns")) << "no output";
    EXPECT_LT(std::stoll(seen["child_step_ns"]), 1000000);
    EXPECT_LT(std::stoll(seen["parent_step_ns"]), 1000000);
    EXPECT_GT(std::stoll(seen["parent_cpu_ns"]), 10000000) << "the rounds before the fork";
    EXPECT_LT(std::stoll(seen["child_cpu_ns"]), 1000000) << "a child's CPU time starts at zero";
}

TEST(GuestCpu, InstructionsTheModelDoesNotHaveAreCountedAndReported) {
    struct Case {
        const char* what;
        const char* model;
        const char* extension;
        const char* function;
    };
    for (const Case& c : {Case{"ssse3", "4", "SSSE3", "run_pshufb"}, Case{"avx", "2", "AVX", "run_vaddps"}}) {
        Outcome o;
        json r = run_json({"--model", c.model, "-e", "PAPI_TOT_INS", guest("guest_cpuid"), c.what, "1000"}, &o);
        EXPECT_EQ(o.status, 0) << o.err;
        const std::string at = cpuid_seen(o.out)["missing_at"];
        const json& missing = r.at("missing_instructions");
        EXPECT_EQ(missing.at("count"), 1000) << c.what;
        EXPECT_EQ(missing.at("first").at("address"), at) << c.what;
        EXPECT_EQ(missing.at("first").at("extension"), c.extension) << c.what;
        EXPECT_EQ(missing.at("first").at("symbol"), c.function) << c.what;
    }
    // Without events there is no report: the line goes to standard error.
    const Outcome o = run({netburst_run(), guest("guest_cpuid"), "ssse3", "3"});
    EXPECT_NE(o.err.find("3 instructions that Pentium 4 model 2 does not have ran"), std::string::npos) << o.err;
    // A program that only dispatches on CPUID runs nothing the model lacks.
    json clean = run_json({"-e", "PAPI_TOT_INS", guest("guest_cpuid")});
    EXPECT_EQ(clean.at("missing_instructions").at("count"), 0);
}

// ---- The processor the program's Linux describes (emulator/x86/guest_cpu_view.h, doc/guest-cpu.md) -----------

// The one line netburst-run prints when it cannot mount the emulated view: then these tests cannot see it.
bool view_unavailable(const Outcome& o) { return o.err.find("sees the host's /proc/cpuinfo") != std::string::npos; }

// `cat /proc/cpuinfo` under --model 4 prints the Prescott-2M's, exactly what the generator writes.
TEST(GuestCpuView, ProcCpuinfoIsTheEmulatedModel) {
    const Outcome o = run({netburst_run(), "--model", "4", "cat", "/proc/cpuinfo"});
    ASSERT_EQ(o.status, 0) << o.err;
    if (view_unavailable(o)) GTEST_SKIP() << o.err;
    EXPECT_EQ(o.err, "");
    EXPECT_NE(o.out.find("vendor_id\t: GenuineIntel\n"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("model name\t: Intel(R) Pentium(R) 4 CPU 3.20GHz\n"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("cpu MHz\t\t: 3200.000\n"), std::string::npos) << o.out;
    EXPECT_EQ(o.out, netburst::emu::vg::guest_proc_cpuinfo(netburst::emu::EmulatedMachine{}.with_model(4)));

    const Outcome ht = run({netburst_run(), "--model", "2", "--ht", "cat", "/proc/cpuinfo"});
    ASSERT_EQ(ht.status, 0) << ht.err;
    EXPECT_NE(ht.out.find("processor\t: 1\n"), std::string::npos) << ht.out;
    EXPECT_NE(ht.out.find("model name\t: Intel(R) Pentium(R) 4 CPU 2.80GHz\n"), std::string::npos) << ht.out;
    EXPECT_NE(ht.out.find("siblings\t: 2\n"), std::string::npos) << ht.out;
}

// sysfs follows --ht: one logical processor, or the two threads of one core; and the model's caches.
TEST(GuestCpuView, SysfsCpuTreeFollowsTheModelAndHyperThreading) {
    const std::string files = "cat /sys/devices/system/cpu/online /sys/devices/system/cpu/cpu0/cache/index1/size; "
                              "ls -d /sys/devices/system/cpu/cpu[0-9]*; getconf _NPROCESSORS_ONLN";
    const Outcome one = run({netburst_run(), "--model", "4", "sh", "-c", files});
    ASSERT_EQ(one.status, 0) << one.err;
    if (view_unavailable(one)) GTEST_SKIP() << one.err;
    EXPECT_EQ(one.out, "0\n2048K\n/sys/devices/system/cpu/cpu0\n1\n");
    const Outcome two = run({netburst_run(), "--model", "4", "--ht", "sh", "-c", files});
    ASSERT_EQ(two.status, 0) << two.err;
    EXPECT_EQ(two.out, "0-1\n2048K\n/sys/devices/system/cpu/cpu0\n/sys/devices/system/cpu/cpu1\n2\n");
    const Outcome northwood = run({netburst_run(), "--model", "2", "cat", "/sys/devices/system/cpu/cpu0/cache/index0/size",
                                   "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"});
    EXPECT_EQ(northwood.out, "8K\n2800000\n") << northwood.err;
}

// --cpu-view=host: the host's files, and no line about them.
TEST(GuestCpuView, HostViewOnRequest) {
    std::ifstream in("/proc/cpuinfo");
    std::string host_first_lines, line;
    for (int i = 0; i < 5 && std::getline(in, line); ++i) host_first_lines += line + "\n";
    const Outcome o = run({netburst_run(), "--cpu-view=host", "--model", "4", "head", "-n", "5", "/proc/cpuinfo"});
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.err, "");
    EXPECT_EQ(o.out, host_first_lines);
    const Outcome bad = run({netburst_run(), "--cpu-view=p4", "true"});
    EXPECT_EQ(bad.status, 125);
    EXPECT_NE(bad.err.find("'emulated' or 'host'"), std::string::npos) << bad.err;
}

// hwloc (Debian's lstopo-no-graphics) inside the program sees one package, the emulated logical processors and the
// core model's L1 data cache and L2.
TEST(GuestCpuView, HwlocSeesTheEmulatedTopologyAndCaches) {
    if (access("/usr/bin/lstopo-no-graphics", X_OK) != 0)
        GTEST_SKIP() << "lstopo-no-graphics is missing: install Debian's hwloc (scripts/install-deps.sh)";
    auto count = [](const std::string& text, const std::string& what) {
        std::size_t n = 0;
        for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    };
    const Outcome ht = run({netburst_run(), "--model", "4", "--ht", "lstopo-no-graphics", "--of", "console"});
    ASSERT_EQ(ht.status, 0) << ht.err;
    if (view_unavailable(ht)) GTEST_SKIP() << ht.err;
    EXPECT_EQ(count(ht.out, "Package L#"), 1u) << ht.out;
    EXPECT_EQ(count(ht.out, "Core L#"), 1u) << ht.out;
    EXPECT_EQ(count(ht.out, "PU L#"), 2u) << ht.out;
    EXPECT_NE(ht.out.find("L2 L#0 (2048KB)"), std::string::npos) << ht.out;
    EXPECT_NE(ht.out.find("L1d L#0 (16KB)"), std::string::npos) << ht.out;
    const Outcome one = run({netburst_run(), "--model", "2", "lstopo-no-graphics", "--of", "console"});
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(count(one.out, "Package L#"), 1u) << one.out;
    EXPECT_EQ(count(one.out, "PU L#"), 1u) << one.out;
    EXPECT_NE(one.out.find("L2 L#0 (512KB)"), std::string::npos) << one.out;
    EXPECT_NE(one.out.find("L1d L#0 (8KB)"), std::string::npos) << one.out;
}

}  // namespace
