// The synthetic system-call path (doc/emulator-kernel-model.md): a fixed CPL-0 instruction sequence that the tool
// runs through the core model after every guest system call, so that counters with an ESCR's OS bits set see
// kernel work of a documented size instead of a silent zero. It is shaped like Linux's x86-64 entry
// (entry_SYSCALL_64, do_syscall_64, the exit work and sysretq) with a fixed stand-in for the service routine;
// it does not depend on which system call ran.
//
// Freestanding.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"

namespace netburst::emu::vg {

struct KernelPath {
    static constexpr unsigned kMaxLength = 128;
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
    unsigned other_branches = 0;        // sysretq
};

// Builds the path for logical processor lp (its kernel stack and per-CPU area are its own). The last instruction
// (sysretq) returns to user mode; set its target with set_kernel_return.
void build_kernel_path(unsigned lp, KernelPath* out);
void set_kernel_return(KernelPath* path, std::uint64_t user_address);
KernelPathCounts count_kernel_path(const KernelPath& path);

}  // namespace netburst::emu::vg
