// One executed instruction, as the emulator's front ends (trace files, the Valgrind tool) describe it.
//
// This is the only input of the core model. It says what the program did (the correct path), not how a Pentium 4
// would do it: decomposition into uops, prediction, caching and timing are the core model's business.
//
// Freestanding: plain data, used inside the Valgrind tool.
#pragma once

#include <cstdint>

#include "emulator/model/insn_form.h"

namespace netburst::emu {

// Instruction classes, fine enough to drive every event the model counts: the FP/SIMD uop events need x87 vs
// SSE scalar/packed, SP vs DP, and MMX; the branch events need the branch kinds.
enum class InsnClass : std::uint8_t {
    Nop,
    IntAlu,        // add, sub, logic, compare, test, mov, lea, inc/dec: double-speed ALU work
    IntShift,      // shifts and rotates (a slow path on NetBurst)
    IntMul,
    IntDiv,
    CondBranch,    // Jcc
    DirectJump,    // JMP rel
    IndirectJump,  // JMP r/m
    DirectCall,    // CALL rel
    IndirectCall,  // CALL r/m
    Return,        // RET
    X87Arith,      // fadd, fmul, fsub, fcom, ...: x87_FP_uop
    X87Div,        // fdiv, fsqrt: long latency x87
    X87Complex,    // transcendental and other microcoded x87 (fsin, fptan, ...): microcode ROM
    X87Move,       // fld, fst, fxch, fild, fist: x87_SIMD_moves_uop, not x87_FP_uop
    SseScalarSp,   // addss, mulss, ...: scalar_SP_uop
    SseScalarDp,   // addsd, ...: scalar_DP_uop
    SsePackedSp,   // addps, ...: packed_SP_uop
    SsePackedDp,   // addpd, ...: packed_DP_uop
    SseDivSp,      // divss/divps/sqrt*: long latency, counted as scalar/packed SP by the width flag
    SseDivDp,
    Mmx64,         // MMX on 64-bit registers: 64bit_MMX_uop
    Simd128Int,    // SSE2 integer on 128-bit registers: 128bit_MMX_uop
    SimdMove,      // movaps/movdqa/movq/movd and SIMD loads/stores: x87_SIMD_moves_uop
    StringOp,      // rep movs/stos/cmps...: microcode ROM
    Microcode,     // cpuid, rdtsc, xchg with memory, other long microcode flows
    Fence,         // lfence, sfence, mfence
    Syscall,       // syscall/int/sysenter: the user-to-kernel transition
    Halt,          // hlt, pause
    Count_
};

struct MemOperand {
    std::uint64_t address = 0;  // linear address
    std::uint8_t size = 0;      // bytes (1-16; x87 10-byte and 16-byte SSE accesses are common)
    bool is_store = false;
};

// General registers at the start of the instruction, for PEBS records. Optional: a trace may omit them.
struct RegisterSnapshot {
    std::uint64_t rflags = 0, rip = 0;
    std::uint64_t rax = 0, rbx = 0, rcx = 0, rdx = 0, rsi = 0, rdi = 0, rbp = 0, rsp = 0;
    std::uint64_t r8 = 0, r9 = 0, r10 = 0, r11 = 0, r12 = 0, r13 = 0, r14 = 0, r15 = 0;
};

// Register dependencies for timing. Bits 0-15: the sixteen general registers (rax=0 ... r15=15, x86 encoding
// order); 16: flags; 17: the x87 stack as a whole; 18-33: xmm0-xmm15 (MMX registers alias the x87 stack bit).
using RegMask = std::uint64_t;
constexpr RegMask kRegFlags = RegMask{1} << 16;
constexpr RegMask kRegX87 = RegMask{1} << 17;
constexpr RegMask reg_gpr(unsigned n) { return RegMask{1} << n; }
constexpr RegMask reg_xmm(unsigned n) { return RegMask{1} << (18 + n); }

constexpr unsigned kMaxMemOperands = 2;

struct Instruction {
    std::uint64_t pc = 0;
    std::uint8_t length = 1;      // bytes, 1-15
    InsnClass cls = InsnClass::IntAlu;
    InsnForm form = InsnForm::None;  // a finer timing than the class's, when the front end knows it
    std::uint8_t thread = 0;      // logical processor 0 or 1
    std::uint8_t cpl = 3;         // 0 for kernel (OS), 3 for user (USR)
    std::uint8_t num_mem = 0;
    MemOperand mem[kMaxMemOperands];
    bool taken = false;           // branches: the direction the program took
    std::uint64_t target = 0;     // branches: where it went when taken (returns and indirect: the actual target)
    std::uint8_t rep_count_log2 = 0;  // string ops: log2 of the iteration count (microcode flow length), 0 if unknown
    RegMask reads = 0;            // registers read (0: unknown; the model then assumes no dependencies)
    RegMask writes = 0;           // registers written
    const RegisterSnapshot* regs = nullptr;  // may be null
};

constexpr bool is_branch(InsnClass c) {
    return c == InsnClass::CondBranch || c == InsnClass::DirectJump || c == InsnClass::IndirectJump ||
           c == InsnClass::DirectCall || c == InsnClass::IndirectCall || c == InsnClass::Return;
}

}  // namespace netburst::emu
