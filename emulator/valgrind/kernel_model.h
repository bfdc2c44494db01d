// The synthetic kernel paths (doc/emulator-kernel-model.md): fixed CPL-0 instruction sequences that the tool runs
// through the core model, so that counters with an ESCR's OS bits set see kernel work of a documented size instead
// of a silent zero.
// - The system-call path runs after every guest system call. It is shaped like Linux's x86-64 entry
//   (entry_SYSCALL_64, do_syscall_64, the exit work and sysretq), or for an i386 program its i386 entry
//   (system_call, restore_all and iret), with a fixed stand-in for the service routine; it does not depend on
//   which system call ran.
// - The timer-interrupt path runs at the periodic tick, which interrupts user code on a real machine whether or
//   not the program makes system calls. It is shaped like Linux's local APIC timer interrupt taken from user mode
//   (the interrupt entry, the tick's accounting and scheduler work, the EOI, iretq) with fixed stand-ins for the
//   work; it is the same at every tick.
//
// Freestanding.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"

namespace netburst::emu::vg {

struct KernelPath {
    static constexpr unsigned kMaxLength = 320;
    unsigned length = 0;
    Instruction insns[kMaxLength];
};

// What the path is made of; doc/emulator-kernel-model.md states these numbers and a unit test holds them.
struct KernelPathCounts {
    unsigned instructions = 0;
    unsigned loads = 0;
    unsigned stores = 0;
    unsigned conditional_branches = 0;  // none is taken
    unsigned calls = 0;                 // direct and indirect
    unsigned returns = 0;
    unsigned other_branches = 0;        // sysretq, iretq
    unsigned microcode = 0;             // swapgs, rdtsc, wrmsr, locked read-modify-writes
};

// Which kernel the paths are shaped like: the x86-64 one for x86-64 programs, and for i386 programs the i386 kernel
// a Pentium 4 of their day ran (entered by int $0x80, left by iret; doc/emulator-kernel-model.md).
enum class KernelAbi { kLinux64, kLinux32 };

// Builds the path for logical processor lp (its kernel stack and per-CPU area are its own). The last instruction
// (sysretq or iret) returns to user mode; set its target with set_kernel_return.
void build_kernel_path(unsigned lp, KernelPath* out, KernelAbi abi);
// Builds the timer-interrupt path for logical processor lp. Its last instruction (iretq or iret) returns to the
// interrupted user instruction; set it with set_kernel_return.
void build_timer_interrupt_path(unsigned lp, KernelPath* out, KernelAbi abi);
void set_kernel_return(KernelPath* path, std::uint64_t user_address);
KernelPathCounts count_kernel_path(const KernelPath& path);

}  // namespace netburst::emu::vg
