// The registers an x86-64 instruction reads and writes, from its bytes, as the architecture defines its operands.
//
// The tool needs every instruction's register reads exactly. VEX's IR cannot give them: even at optimisation level
// 0 VEX removes redundant GETs and propagates copies and constants within a superblock, so a register read turns
// into a temporary defined by an earlier instruction, or into a constant, depending on where the block was cut
// (doc/emulator-valgrind.md). The bytes do not change with the block.
//
// What counts as a read (Intel SDM, volume 2, each instruction's operand encoding table and "Flags Affected"):
// - ModRM reg and r/m operands by role: a destination-only operand (mov, movzx, lea, setcc, movaps) is written, not
//   read; a read-modify-write one (add, shl, addps) is both; a source (cmp, test, the second operand) is read;
// - the base and index registers of a memory operand;
// - implicit operands: rax/rdx of mul, div, cdq; rcx of shifts by cl, loop, rep; rsi/rdi of string operations;
//   rsp of push, pop, call, ret, leave, enter; rbp of leave and enter;
// - partial registers: writing an 8- or 16-bit register keeps the rest of the register, so it reads it; a 32-bit
//   write zeroes the upper half and reads nothing;
// - the flags: every flag consumer, and every instruction that writes only some of the flags and keeps the others
//   (inc, dec, rotates, shifts whose count may be 0, bt, clc, cld, sahf). DF is a flag: string operations read it;
// - xmm registers, including the scalar and partial forms that merge into their destination (movss/movsd between
//   registers, movlps, cvtsi2sd, cvtss2sd, sqrtss), which read it; MMX registers, which are the x87 stack's bit;
// - the x87 stack as one register: every x87 instruction reads it (TOP at least);
// - dependency-breaking zero idioms read nothing (Intel's IA-32 Optimization Reference Manual, "Clearing
//   Registers and Dependency Breaking Idioms": the Pentium 4 recognises xor, sub and pxor of a register with
//   itself; the 90 nm Pentium 4, models 3 and later, also xorps, xorpd and psubb/w/d/q).
//
// Freestanding: no allocation, no C library; the Valgrind tool links it.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"
#include "emulator/x86/x86_decode.h"

namespace netburst::emu {

struct X86Operands {
    bool known = false;  // false: an encoding whose operands this decoder does not give (the caller falls back)
    RegMask reads = 0;
    RegMask writes = 0;
};

struct X86OperandOptions {
    bool prescott_idioms = false;  // models 3 and later: xorps, xorpd, psub* of a register with itself are zeroing
};

X86Operands x86_operands(const X86Decoded& d, X86OperandOptions options);
X86Operands x86_operands(const std::uint8_t* bytes, unsigned length, X86OperandOptions options);

}  // namespace netburst::emu
