// The tool's freestanding pieces on the host: the event-program and results files that netburst-run and the tool
// exchange, and the synthetic kernel path's documented composition.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "emulator/valgrind/kernel_model.h"
#include "emulator/valgrind/program_file.h"
#include "emulator/valgrind/results_file.h"

using namespace netburst::emu;
using namespace netburst::emu::vg;

TEST(EventProgramFile, RoundTrips) {
    EventProgram p;
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x3b8, 0x0400020c};
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x36c, 0x3d000};
    p.writes[1][p.num_writes[1]++] = ProgramWrite{0x3f1, 0x01000001};
    p.events[p.num_events++] = ProgramEvent{0, 0, 12, 0x1000};
    p.events[p.num_events++] = ProgramEvent{7, 1, 17, 0x24000};
    char text[4096];
    const std::size_t n = format_event_program(p, text, sizeof text);
    ASSERT_GT(n, 0u);
    EventProgram q;
    unsigned line = 0;
    ASSERT_EQ(parse_event_program(text, n, &q, &line), nullptr) << text;
    ASSERT_EQ(q.num_writes[0], 2u);
    ASSERT_EQ(q.num_writes[1], 1u);
    EXPECT_EQ(q.writes[0][1].msr, 0x36cu);
    EXPECT_EQ(q.writes[0][1].value, 0x3d000u);
    EXPECT_EQ(q.writes[1][0].value, 0x01000001u);
    ASSERT_EQ(q.num_events, 2u);
    EXPECT_EQ(q.events[1].index, 7u);
    EXPECT_EQ(q.events[1].lp, 1);
    EXPECT_EQ(q.events[1].counter, 17);
    EXPECT_EQ(q.events[1].check_mask, 0x24000u);
    // Too small a buffer is reported, not truncated silently.
    EXPECT_EQ(format_event_program(p, text, 20), 0u);
}

// Events that need more than one PMU: each write and event keeps its PMU through a `pmu N` line.
TEST(EventProgramFile, SeveralPmusRoundTrip) {
    EventProgram p;
    p.num_pmus = 3;
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x3b8, 1, 0};
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x3b8, 2, 2};
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x3b9, 3, 1};
    p.events[p.num_events++] = ProgramEvent{0, 0, 12, 0, 2};
    p.events[p.num_events++] = ProgramEvent{1, 0, 12, 0, 0};
    char text[4096];
    const std::size_t n = format_event_program(p, text, sizeof text);
    ASSERT_GT(n, 0u);
    EXPECT_NE(std::string(text).find("pmu 2\n"), std::string::npos) << text;
    EventProgram q;
    unsigned line = 0;
    ASSERT_EQ(parse_event_program(text, n, &q, &line), nullptr) << text;
    EXPECT_EQ(q.num_pmus, 3u);
    ASSERT_EQ(q.num_writes[0], 3u);
    for (unsigned i = 0; i < 3; ++i)  // written PMU by PMU: the values 1, 3, 2 belong to PMUs 0, 1, 2
        EXPECT_EQ(q.writes[0][i].pmu, q.writes[0][i].value == 1 ? 0 : q.writes[0][i].value == 3 ? 1 : 2);
    ASSERT_EQ(q.num_events, 2u);
    EXPECT_EQ(q.events[0].pmu + q.events[1].pmu, 2);  // one on PMU 0, one on PMU 2, in either order
    const std::string too_many = "netburst-program 1\npmu 32\n";
    EXPECT_NE(parse_event_program(too_many.data(), too_many.size(), &q, &line), nullptr);
}

TEST(EventProgramFile, ErrorsNameTheLine) {
    EventProgram q;
    unsigned line = 0;
    const std::string bad_counter = "netburst-program 1\nwrmsr 0 0x3b8 1\nevent 0 0 18 0\n";
    EXPECT_NE(parse_event_program(bad_counter.data(), bad_counter.size(), &q, &line), nullptr);
    EXPECT_EQ(line, 3u);
    const std::string bad_lp = "netburst-program 1\nwrmsr 2 0x3b8 1\n";
    EXPECT_NE(parse_event_program(bad_lp.data(), bad_lp.size(), &q, &line), nullptr);
    const std::string junk = "netburst-program 1\nwrmsr 0 0x3b8 12x\n";
    EXPECT_NE(parse_event_program(junk.data(), junk.size(), &q, &line), nullptr);
    const std::string version = "netburst-program 2\n";
    EXPECT_NE(parse_event_program(version.data(), version.size(), &q, &line), nullptr);
    const std::string overflow = "netburst-program 1\nwrmsr 0 0x3b8 0x10000000000000000\n";
    EXPECT_NE(parse_event_program(overflow.data(), overflow.size(), &q, &line), nullptr);
}

TEST(ResultsFile, RoundTrips) {
    ProcessResults r;
    r.pid = 4242;
    r.final_run = true;
    r.threads = 8;
    r.instructions = 123456789012ull;
    r.syscalls = 17;
    r.pmu_taken = true;
    r.events[r.num_events++] = EventResult{0, 1000000, false};
    r.events[r.num_events++] = EventResult{1, 0, true};
    char text[1024];
    const std::size_t n = format_results(r, text, sizeof text);
    ASSERT_GT(n, 0u);
    ProcessResults q;
    unsigned line = 0;
    ASSERT_EQ(parse_results(text, n, &q, &line), nullptr) << text;
    EXPECT_EQ(q.pid, 4242u);
    EXPECT_TRUE(q.final_run);
    EXPECT_EQ(q.threads, 8u);
    EXPECT_EQ(q.instructions, 123456789012ull);
    EXPECT_EQ(q.syscalls, 17u);
    EXPECT_TRUE(q.pmu_taken);
    ASSERT_EQ(q.num_events, 2u);
    EXPECT_EQ(q.events[0].value, 1000000u);
    EXPECT_FALSE(q.events[0].unsupported);
    EXPECT_TRUE(q.events[1].unsupported);
    // Files without the pmu_taken line (it is optional) read as not taken.
    const std::string old_file = "netburst-results 1\npid 7\nfinal 1\n";
    ASSERT_EQ(parse_results(old_file.data(), old_file.size(), &q, &line), nullptr);
    EXPECT_FALSE(q.pmu_taken);
    const std::string bad = "netburst-results 1\nevent 0 12\n";
    EXPECT_NE(parse_results(bad.data(), bad.size(), &q, &line), nullptr);
    EXPECT_EQ(line, 2u);
}

TEST(ResultsFile, MissingInstructionsRoundTripWithAFunctionNameOfSeveralWords) {
    ProcessResults r;
    r.missing.count = 1000;
    r.missing.first_pc = 0x10948b;
    std::snprintf(r.missing.first_extension, sizeof r.missing.first_extension, "SSSE3");
    std::snprintf(r.missing.first_symbol, sizeof r.missing.first_symbol, "scale(double*, unsigned long)");
    char text[1024];
    const std::size_t n = format_results(r, text, sizeof text);
    ASSERT_GT(n, 0u);
    ProcessResults q;
    unsigned line = 0;
    ASSERT_EQ(parse_results(text, n, &q, &line), nullptr) << text;
    EXPECT_EQ(q.missing.count, 1000u);
    EXPECT_EQ(q.missing.first_pc, 0x10948bu);
    EXPECT_STREQ(q.missing.first_extension, "SSSE3");
    EXPECT_STREQ(q.missing.first_symbol, "scale(double*, unsigned long)");
    // None ran: one line, no "first".
    const std::size_t m = format_results(ProcessResults{}, text, sizeof text);
    EXPECT_NE(std::string(text, m).find("missing 0\n"), std::string::npos);
    EXPECT_EQ(std::string(text, m).find("missing_first"), std::string::npos);
}

// What both synthetic kernel paths promise: everything at CPL 0, no conditional branch taken (the stand-ins take
// the usual way through), and every instruction followed by its branch target or its fall-through, so that the
// core's predictors see a real path.
void expect_kernel_path_shape(const KernelPath& path) {
    for (unsigned i = 0; i < path.length; ++i) {
        EXPECT_EQ(path.insns[i].cpl, 0) << i;
        EXPECT_FALSE(path.insns[i].cls == InsnClass::CondBranch && path.insns[i].taken) << i;
    }
    for (unsigned i = 0; i + 1 < path.length; ++i) {
        const Instruction& a = path.insns[i];
        const std::uint64_t next = a.taken ? a.target : a.pc + a.length;
        EXPECT_EQ(path.insns[i + 1].pc, next) << i;
    }
}

// doc/emulator-kernel-model.md states these numbers; a change to the path must change both.
TEST(KernelModel, CompositionMatchesTheDocumentation) {
    KernelPath path;
    build_kernel_path(0, &path);
    const KernelPathCounts c = count_kernel_path(path);
    EXPECT_EQ(c.instructions, 120u);
    EXPECT_EQ(c.loads, 32u);
    EXPECT_EQ(c.stores, 32u);
    EXPECT_EQ(c.conditional_branches, 5u);
    EXPECT_EQ(c.calls, 3u);
    EXPECT_EQ(c.returns, 3u);
    EXPECT_EQ(c.other_branches, 1u);
}

TEST(KernelModel, TimerInterruptCompositionMatchesTheDocumentation) {
    KernelPath path;
    build_timer_interrupt_path(0, &path);
    const KernelPathCounts c = count_kernel_path(path);
    EXPECT_EQ(c.instructions, 199u);
    EXPECT_EQ(c.loads, 53u);
    EXPECT_EQ(c.stores, 50u);
    EXPECT_EQ(c.conditional_branches, 9u);
    EXPECT_EQ(c.calls, 8u);
    EXPECT_EQ(c.returns, 8u);
    EXPECT_EQ(c.other_branches, 1u);
    EXPECT_EQ(c.microcode, 6u);
}

TEST(KernelModel, TimerInterruptControlFlowIsConsistent) {
    // As the system-call path: a real path for the predictors, calls and returns paired, and iretq back to the
    // interrupted instruction; the stack pointer comes back to where the processor's delivery left it.
    KernelPath path;
    build_timer_interrupt_path(1, &path);
    set_kernel_return(&path, 0x405678);
    expect_kernel_path_shape(path);
    const Instruction& iret = path.insns[path.length - 1];
    EXPECT_EQ(iret.target, 0x405678u);
    ASSERT_EQ(iret.num_mem, 1);
    EXPECT_EQ(iret.mem[0].address, path.insns[0].mem[0].address + 8) << "iretq reads the rip the delivery pushed";
    KernelPath other;
    build_timer_interrupt_path(0, &other);
    EXPECT_NE(path.insns[0].mem[0].address, other.insns[0].mem[0].address) << "each logical processor's own stack";
}

TEST(KernelModel, ControlFlowIsConsistent) {
    // sysretq returns to the user instruction after the system call.
    KernelPath path;
    build_kernel_path(1, &path);
    set_kernel_return(&path, 0x401234);
    expect_kernel_path_shape(path);
    EXPECT_EQ(path.insns[path.length - 1].target, 0x401234u);
    // Each logical processor has its own stack.
    KernelPath other;
    build_kernel_path(0, &other);
    EXPECT_NE(path.insns[5].mem[0].address, other.insns[5].mem[0].address);
}
