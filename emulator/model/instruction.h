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

// Register dependencies for timing.
//   bits 0-15   the sixteen general registers (rax=0 ... r15=15, x86 encoding order);
//   bit 16      the flags;
//   bit 17      the x87 status and control words (TOP, condition codes, precision): fnstsw, fldcw, fninit, fxsave;
//   bits 18-33  xmm0-xmm15;
//   bits 34-41  the x87 stack registers st(0)-st(7), numbered from TOP *before* the instruction: a push writes
//               st(7), the register that becomes st(0);
//   bits 42-49  mm0-mm7, which are the x87 physical registers R0-R7 (the core maps both onto the same registers);
//   bits 50-51  (writes only) how the instruction moves TOP: one push, one pop, or two pops (fcompp, fucompp);
//   bit 52      (writes only) fxch: exchange the two stack registers the writes name, by renaming.
// The front end describes the stack relative to TOP because TOP is a run-time value; the core keeps TOP and maps
// st(i) onto physical registers (Core::execute), so that independent x87 chains are independent, as on the
// hardware (the stack's registers are ordinary renamed registers: SDM Vol. 1 8.1.2). fxch is taken to rename, adding
// no latency to the chains through it: a stated assumption, consistent with the dumps' FXCH st(i) L 1 / T 1 (#570,
// Northwood and Prescott), which one renaming uop per cycle also gives.
using RegMask = std::uint64_t;
constexpr RegMask kRegFlags = RegMask{1} << 16;
constexpr RegMask kRegX87 = RegMask{1} << 17;
constexpr RegMask reg_gpr(unsigned n) { return RegMask{1} << n; }
constexpr RegMask reg_xmm(unsigned n) { return RegMask{1} << (18 + n); }
constexpr unsigned kRegStBit = 34;
constexpr unsigned kRegMmBit = 42;
constexpr RegMask reg_st(unsigned i) { return RegMask{1} << (kRegStBit + (i & 7)); }
constexpr RegMask reg_mm(unsigned n) { return RegMask{1} << (kRegMmBit + (n & 7)); }
constexpr RegMask kRegStMask = RegMask{0xFF} << kRegStBit;
constexpr RegMask kRegMmMask = RegMask{0xFF} << kRegMmBit;
constexpr unsigned kX87TopShift = 50;
constexpr RegMask kX87Push = RegMask{1} << kX87TopShift;
constexpr RegMask kX87Pop = RegMask{2} << kX87TopShift;
constexpr RegMask kX87Pop2 = RegMask{3} << kX87TopShift;
constexpr RegMask kX87TopMask = RegMask{3} << kX87TopShift;
constexpr RegMask kX87Exchange = RegMask{1} << 52;
// Every bit the core must map before it uses a mask as physical registers.
constexpr RegMask kRegStackMask = kRegStMask | kRegMmMask | kX87TopMask | kX87Exchange;

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
    RegMask address = 0;          // the general registers a ModRM memory operand's address is formed from (base,
                                  // index); 0: not known, and every general register read counts
    std::uint8_t imm_bits = 0;    // the immediate operand's width as a two's-complement number (0x7fff: 16, 0x8000:
                                  // 17, -1: 1); 0: no immediate, or not known. The trace cache stores a wide one in
                                  // two slots (CoreConfig::tc_imm_bits)
    const RegisterSnapshot* regs = nullptr;  // may be null
};

constexpr bool is_branch(InsnClass c) {
    return c == InsnClass::CondBranch || c == InsnClass::DirectJump || c == InsnClass::IndirectJump ||
           c == InsnClass::DirectCall || c == InsnClass::IndirectCall || c == InsnClass::Return;
}

}  // namespace netburst::emu
