// The synthetic kernel paths (emulator/valgrind/kernel_model.h): their documented composition and a consistent
// control flow.
#include <gtest/gtest.h>

#include "emulator/valgrind/kernel_model.h"

using namespace netburst::emu;
using namespace netburst::emu::vg;

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
    build_kernel_path(0, &path, KernelAbi::kLinux64);
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
    build_timer_interrupt_path(0, &path, KernelAbi::kLinux64);
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
    build_timer_interrupt_path(1, &path, KernelAbi::kLinux64);
    set_kernel_return(&path, 0x405678);
    expect_kernel_path_shape(path);
    const Instruction& iret = path.insns[path.length - 1];
    EXPECT_EQ(iret.target, 0x405678u);
    ASSERT_EQ(iret.num_mem, 1);
    EXPECT_EQ(iret.mem[0].address, path.insns[0].mem[0].address + 8) << "iretq reads the rip the delivery pushed";
    KernelPath other;
    build_timer_interrupt_path(0, &other, KernelAbi::kLinux64);
    EXPECT_NE(path.insns[0].mem[0].address, other.insns[0].mem[0].address) << "each logical processor's own stack";
}

TEST(KernelModel, ControlFlowIsConsistent) {
    // sysretq returns to the user instruction after the system call.
    KernelPath path;
    build_kernel_path(1, &path, KernelAbi::kLinux64);
    set_kernel_return(&path, 0x401234);
    expect_kernel_path_shape(path);
    EXPECT_EQ(path.insns[path.length - 1].target, 0x401234u);
    // Each logical processor has its own stack.
    KernelPath other;
    build_kernel_path(0, &other, KernelAbi::kLinux64);
    EXPECT_NE(path.insns[5].mem[0].address, other.insns[5].mem[0].address);
}

// The i386 kernel's paths (an i386 program's system calls and ticks): doc/emulator-kernel-model.md states these
// numbers too.
TEST(KernelModel, TheI386PathsCompositionMatchesTheDocumentation) {
    KernelPath path;
    build_kernel_path(0, &path, KernelAbi::kLinux32);
    KernelPathCounts c = count_kernel_path(path);
    EXPECT_EQ(c.instructions, 86u);
    EXPECT_EQ(c.loads, 26u);
    EXPECT_EQ(c.stores, 17u);
    EXPECT_EQ(c.conditional_branches, 6u);
    EXPECT_EQ(c.calls, 1u);
    EXPECT_EQ(c.returns, 1u);
    EXPECT_EQ(c.other_branches, 1u);
    EXPECT_EQ(c.microcode, 6u);  // three segment-register loads in, three pops of them out
    build_timer_interrupt_path(0, &path, KernelAbi::kLinux32);
    c = count_kernel_path(path);
    EXPECT_EQ(c.instructions, 199u);
    EXPECT_EQ(c.loads, 51u);
    EXPECT_EQ(c.stores, 44u);
    EXPECT_EQ(c.conditional_branches, 11u);
    EXPECT_EQ(c.calls, 7u);
    EXPECT_EQ(c.returns, 7u);
    EXPECT_EQ(c.other_branches, 1u);
    EXPECT_EQ(c.microcode, 10u);
}

TEST(KernelModel, TheI386PathsAre32BitAndReturnWhereTheDeliveryLeftTheStack) {
    for (int timer = 0; timer < 2; ++timer) {
        KernelPath path;
        if (timer) build_timer_interrupt_path(1, &path, KernelAbi::kLinux32);
        else build_kernel_path(1, &path, KernelAbi::kLinux32);
        set_kernel_return(&path, 0x8049abc);
        expect_kernel_path_shape(path);
        for (unsigned i = 0; i < path.length; ++i) {
            EXPECT_LT(path.insns[i].pc, 1ull << 32) << i;
            for (unsigned m = 0; m < path.insns[i].num_mem; ++m) {
                EXPECT_LT(path.insns[i].mem[m].address, 1ull << 32) << i;
                EXPECT_EQ(path.insns[i].mem[m].size, 4) << i;
            }
        }
        // iret reads the eip that the processor's delivery pushed, a word above the path's first push.
        const Instruction& iret = path.insns[path.length - 1];
        EXPECT_EQ(iret.target, 0x8049abcu);
        ASSERT_EQ(iret.num_mem, 1);
        EXPECT_EQ(iret.mem[0].address, path.insns[0].mem[0].address + 4) << timer;
        KernelPath other;
        if (timer) build_timer_interrupt_path(0, &other, KernelAbi::kLinux32);
        else build_kernel_path(0, &other, KernelAbi::kLinux32);
        EXPECT_NE(path.insns[0].mem[0].address, other.insns[0].mem[0].address) << "each logical processor's stack";
    }
}
