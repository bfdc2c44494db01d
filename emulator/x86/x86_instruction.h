// One decode of an x86 instruction (of an x86-64 program, or of an i386 one: X86Mode) answers everything the tool
// asks of its bytes: the emulator's class and timing form, the registers it reads and writes, and the
// instruction-set extension it needs.
//
// Valgrind tells the tool where each guest instruction starts and how long it is, and its IR gives the memory
// accesses; what the IR cannot tell is the kind of work (x87 or SSE, scalar or packed, a microcoded flow), the
// operation's timing form, and the register reads (VEX's IR optimiser turns a register read into a temporary or a
// constant depending on where the block was cut: doc/emulator-valgrind.md). The bytes do not change with the block.
// The decoder front (x86_decode.h) reads the encoding once; the opcode table (opcode_table.h) has one row per
// opcode, ModRM.reg group or prefix variant, and the row gives all four answers.
//
// What counts as a register read (Intel SDM, volume 2, each instruction's operand encoding table and "Flags
// Affected"):
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
#include "emulator/x86/guest_isa.h"
#include "emulator/x86/x86_decode.h"

namespace netburst::emu {

struct X86Operands {
    bool known = false;  // false: an encoding whose operands the table does not give (the caller falls back)
    RegMask reads = 0;
    RegMask writes = 0;
    RegMask address = 0;  // the base and index registers of a ModRM memory operand (Instruction::address)
};

struct X86OperandOptions {
    bool prescott_idioms = false;  // models 3 and later: xorps, xorpd, psub* of a register with itself are zeroing
    X86Mode mode = X86Mode::Long64;  // the program's mode: 64-bit, or the 32-bit mode of an i386 program
};

struct X86Instruction {
    InsnClass cls = InsnClass::IntAlu;
    InsnForm form = InsnForm::None;  // emulator/model/insn_form.h
    bool known = true;         // false: an encoding the table does not know; cls is then IntAlu
    bool memory_form = false;  // the ModRM byte addresses memory
    bool rep = false;          // a string instruction with REP/REPE/REPNE
    bool compares = false;     // cmps/scas: with REPE/REPNE the comparison can also end the repetition
    bool lock = false;         // LOCK prefix
    bool has_rel = false;      // a direct branch: it goes to pc + length + rel
    std::int32_t rel = 0;
    std::uint8_t imm_bits = 0;  // the immediate's width as a signed number (Instruction::imm_bits); 0: none
    X86Operands operands;
    vg::GuestExtension extension = vg::GuestExtension::None;  // None: every Pentium 4 has it
};

// Decodes the instruction occupying bytes[0, length). length is the length Valgrind decoded (1-15); the decoder
// never reads past it.
X86Instruction decode_instruction(const std::uint8_t* bytes, unsigned length, X86OperandOptions options = {});

// True when bytes start Valgrind's client-request "special instruction" preamble (four rotates of rdi, or of edi in
// 32-bit mode, that together do nothing). Under Valgrind the whole sequence is the call into the tool, not guest
// work.
bool is_valgrind_special_sequence(const std::uint8_t* bytes, unsigned length, X86Mode mode = X86Mode::Long64);

}  // namespace netburst::emu
