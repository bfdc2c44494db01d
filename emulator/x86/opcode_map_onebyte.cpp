// The one-byte opcode map (Intel SDM volume 2, Appendix A, Table A-2) with the x87 escapes D8-DF (Tables A-7 to
// Operand roles and implicit operands are the SDM's; x86_instruction.h says what counts as a read.
#include "emulator/x86/opcode_table.h"
#include "emulator/x86/operand_rules.h"

namespace netburst::emu::x86ops {

namespace {

using namespace rules;
using namespace row_names;

// ---- Forms that depend on the operand size or the address ------------------------------------------------------

F by_size(unsigned size, F f8, F f16, F f32, F f64) {
    switch (size) {
    case 1: return f8;
    case 2: return f16;
    case 4: return f32;
    default: return f64;
    }
}
// The operand size of the opcode's w bit (1 for the byte form), else of the prefixes.
unsigned operand_size(const X86Decoded& d) { return (d.op & 1) == 0 ? 1 : d.rex_w ? 8 : d.op66 ? 2 : 4; }

F mul_form(const X86Decoded& d) { return by_size(operand_size(d), F::Mul8, F::Mul16, F::Mul32, F::Mul64); }
F div_form(const X86Decoded& d) { return by_size(operand_size(d), F::Div8, F::Div16, F::Div32, F::Div64); }
F idiv_form(const X86Decoded& d) { return by_size(operand_size(d), F::Idiv8, F::Idiv16, F::Idiv32, F::Idiv64); }

// lea with a base and an index (RIP-relative has neither): the scale and the displacement decide.
F lea_form(const X86Decoded& d) {
    if (!d.mem || d.base < 0 || d.index < 0) return F::None;
    if (d.scale > 1) return d.disp_size != 0 ? F::LeaScaledDisp : F::LeaScaled;
    return d.disp_size != 0 ? F::LeaIndexDisp : F::None;
}

// Group 2 by 1 (D0, D1), an immediate (C0, C1) or cl (D2, D3): /0 rol, /1 ror, /2 rcl, /3 rcr, /4 shl, /5 shr,
// /6 sal, /7 sar. shl, shr, sar of a 32-bit register (and shl of a 64-bit one) by a constant have measured forms;
// bytes and words keep the class's figure (not measured).
F shift_form(const X86Decoded& d) {
    if (d.reg == 2 || d.reg == 3) return F::RotateCarry;
    const bool wide = d.rex_w && (d.op & 1) != 0;
    // By cl: a 64-bit register's right shifts and rotates take Prescott's slow 64-bit path (shl and sal do not).
    if (d.op == 0xD2 || d.op == 0xD3) return wide && d.reg != 4 && d.reg != 6 ? F::ShiftCl64 : F::ShiftCl;
    if (d.reg <= 1) return wide ? F::Rotate64 : F::Rotate;
    if (wide && (d.reg == 5 || d.reg == 7)) return F::Shr64;
    const bool by_constant = d.op == 0xC1 || d.op == 0xD1;
    if (by_constant && !d.op66 && (d.reg == 4 || d.reg == 5 || d.reg == 7)) return F::ShiftImm;
    return F::None;
}

// ---- Operand rules -----------------------------------------------------------------------------------------------

// The ALU rows 00-3F and group 1 (80-83): what the operation does beyond reading its sources and writing its
// destination. Zeroing: sub and xor of a register with itself do not depend on it (the zero idiom).
enum class Alu { Plain, Carry, Zeroing, Compare };

template <Alu K>
void alu_result(Builder& b, bool e_dest) {
    if (K != Alu::Compare) {
        if (e_dest) b.write_E(G, b.wsize());
        else b.write_G(G, b.wsize());
    }
    if (K == Alu::Carry) b.read_flags();
    b.write_flags();
}
template <Alu K>
void alu_modrm(Builder& b, bool e_dest) {
    if (!(K == Alu::Zeroing && b.same_registers())) {
        b.read_E(G, b.wsize());
        b.read_G(G, b.wsize());
    }
    alu_result<K>(b, e_dest);
}
template <Alu K> void alu_acc(Builder& b) {  // op al/rax, imm
    b.read_gpr(kRax);
    if (K != Alu::Compare) b.write_gpr(kRax, b.wsize());
    if (K == Alu::Carry) b.read_flags();
    b.write_flags();
}
// An ALU row's six opcodes: after the w bit, op r/m, r; op r, r/m; op al/rax, imm.
template <Alu K> void alu(Builder& b) {
    const unsigned form = (b.d().op & 7) >> 1;
    if (form == 0) alu_modrm<K>(b, true);
    else if (form == 1) alu_modrm<K>(b, false);
    else alu_acc<K>(b);
}
template <Alu K> void alu_imm(Builder& b) {                           // group 1: op r/m, imm
    b.read_E(G, b.wsize());
    alu_result<K>(b, true);
}

void push_r(Builder& b) { b.read_gpr(b.opcode_register()); b.push_pop(); }
void inc_dec_r(Builder& b) {  // 40-4F in 32-bit mode: CF kept
    b.read_gpr(b.opcode_register());
    b.write_gpr(b.opcode_register(), b.opsize());
    b.merge_flags();
}
void pop_r(Builder& b) { b.push_pop(); b.write_gpr(b.opcode_register(), b.d().op66 ? 2 : 8); }
void movsxd(Builder& b) { b.read_E(G, 4); b.write_G(G, b.opsize()); }
void imul_imm(Builder& b) { b.read_E(G, b.opsize()); b.write_G(G, b.opsize()); b.write_flags(); }
void test_EG(Builder& b) { b.read_E(G, b.wsize()); b.read_G(G, b.wsize()); b.write_flags(); }
void xchg_EG(Builder& b) { b.rmw_E(G, b.wsize()); b.rmw_G(G, b.wsize()); }
void mov_EG(Builder& b) { b.read_G(G, b.wsize()); b.write_E(G, b.wsize()); }
void mov_GE(Builder& b) { b.read_E(G, b.wsize()); b.write_G(G, b.wsize()); }
void mov_E_sreg(Builder& b) { b.write_E(G, b.opsize()); }  // a register destination gets the selector zero-extended
void mov_sreg_E(Builder& b) { b.read_E(G, 2); }
void lea(Builder& b) { b.address(); b.write_G(G, b.opsize()); }
void pop_E(Builder& b) { b.push_pop(); b.write_E(G, b.d().op66 ? 2 : 8); }
void xchg_rax(Builder& b) {
    const unsigned r = b.opcode_register();
    b.read_gpr(kRax);
    b.read_gpr(r);
    b.write_gpr(kRax, b.opsize());
    b.write_gpr(r, b.opsize());
}
void nop_or_xchg_r8(Builder& b) {  // 90 is nop (and pause); with REX.B it is xchg r8, rax
    if (b.d().rex_b) xchg_rax(b);
}
void cbw(Builder& b) { b.read_gpr(kRax); b.write_gpr(kRax, b.opsize()); }  // cbw, cwde, cdqe
void cwd(Builder& b) { b.read_gpr(kRax); b.write_gpr(kRdx, b.opsize()); }  // cwd, cdq, cqo
void pushf(Builder& b) { b.read_flags(); b.push_pop(); }
void popf(Builder& b) { b.push_pop(); b.write_flags(); }
void sahf(Builder& b) { b.read_gpr(kRax); b.merge_flags(); }  // SF ZF AF PF CF from ah, OF kept
void lahf(Builder& b) { b.read_flags(); b.write_gpr(kRax, 1); }
void load_acc(Builder& b) { b.write_gpr(kRax, b.wsize()); }  // mov al/rax, moffs
void read_acc(Builder& b) { b.read_gpr(kRax); }              // mov moffs, al/rax; out imm8, al/eax
void test_acc(Builder& b) { b.read_gpr(kRax); b.write_flags(); }
void mov_r8_imm(Builder& b) { b.write_gpr(b.byte_register(b.opcode_register()), 1); }
void mov_r_imm(Builder& b) { b.write_gpr(b.opcode_register(), b.opsize()); }
void mov_E_imm(Builder& b) { b.write_E(G, b.wsize()); }
void enter(Builder& b) { b.push_pop(); b.read_gpr(kRbp); b.write_gpr(kRbp, 8); }
void leave(Builder& b) { b.read_gpr(kRbp); b.write_gpr(kRsp, 8); b.write_gpr(kRbp, 8); }  // rsp = rbp, pop rbp
void xlat(Builder& b) { b.read_gpr(kRbx); b.read_gpr(kRax); b.write_gpr(kRax, 1); }  // al = [rbx + al]
void loop(Builder& b) { b.read_gpr(kRcx); b.write_gpr(kRcx, 8); }
void loop_cc(Builder& b) { b.read_flags(); loop(b); }
void jrcxz(Builder& b) { b.read_gpr(kRcx); }
// in and out: al for the byte form, else ax or eax (no 64-bit port access).
unsigned port_size(const Builder& b) { return (b.d().op & 1) ? (b.d().op66 ? 2 : 4) : 1; }
void in_imm(Builder& b) { b.write_gpr(kRax, port_size(b)); }
void in_dx(Builder& b) { b.read_gpr(kRdx); b.write_gpr(kRax, port_size(b)); }
void out_dx(Builder& b) { b.read_gpr(kRdx); b.read_gpr(kRax); }

// 32-bit mode only. daa, das: al and the flags; aaa, aas: ax; aam, aad: ax, with SF, ZF and PF written.
void adjust_al(Builder& b) { b.read_gpr(kRax); b.write_gpr(kRax, 1); b.merge_flags(); }
void adjust_ax(Builder& b) { b.read_gpr(kRax); b.write_gpr(kRax, 2); b.merge_flags(); }
void adjust_ax_imm(Builder& b) { b.read_gpr(kRax); b.write_gpr(kRax, 2); b.write_flags(); }
// pusha stores the eight registers (esp as it was); popa loads them, all but esp, which moves past them.
void pusha(Builder& b) {
    for (unsigned r = 0; r < 8; ++r) b.read_gpr(r);
    b.push_pop();
}
void popa(Builder& b) {
    for (unsigned r = 0; r < 8; ++r)
        if (r != kRsp) b.write_gpr(r, b.opsize());
    b.push_pop();
}
void bound(Builder& b) { b.read_G(G, b.opsize()); b.address(); }                 // #BR when out of bounds
void arpl(Builder& b) { b.rmw_E(G, 2); b.read_G(G, 2); b.merge_flags(); }        // ZF only
void load_far_pointer(Builder& b) { b.address(); b.write_G(G, b.opsize()); }     // les, lds: and es or ds
void into(Builder& b) { b.read_flags(); }

// Group 2. Rotates keep SF, ZF, AF and PF and rcl/rcr shift CF in; a count of 0 (cl, or an immediate masked to 0)
// leaves every flag as it was.
void rotate(Builder& b) { b.rmw_E(G, b.wsize()); b.merge_flags(); }
void shift_one(Builder& b) { b.rmw_E(G, b.wsize()); b.write_flags(); }
void shift_imm(Builder& b) {
    shift_one(b);
    const unsigned mask = b.wsize() == 8 ? 0x3F : 0x1F;
    if ((b.d().imm8() & mask) == 0) b.read_flags();
}
void shift_cl(Builder& b) { rotate(b); b.read_gpr(kRcx); }

// Group 3 (F6, F7) and group 4/5 (FE, FF).
void test_E_imm(Builder& b) { b.read_E(G, b.wsize()); b.write_flags(); }
void not_E(Builder& b) { b.rmw_E(G, b.wsize()); }  // flags unaffected
void neg_E(Builder& b) { b.rmw_E(G, b.wsize()); b.write_flags(); }
// mul, imul: rdx:rax = rax * r/m (ax = al * r/m8), CF and OF defined, SF ZF AF PF undefined. div, idiv: rax (and
// rdx) by r/m into the same registers; the flags are undefined, neither read nor written.
template <bool Divide>
void mul_div(Builder& b) {
    const unsigned size = b.wsize();
    b.read_E(G, size);
    b.read_gpr(kRax);
    if (size == 1) {
        b.write_gpr(kRax, 2);
    } else {
        if (Divide) b.read_gpr(kRdx);
        b.write_gpr(kRax, size);
        b.write_gpr(kRdx, size);
    }
    if (!Divide) b.write_flags();
}
void inc_dec(Builder& b) { b.rmw_E(G, b.wsize()); b.merge_flags(); }  // CF kept
void call_E(Builder& b) { b.read_E(G, 8); b.push_pop(); }
void jmp_E(Builder& b) { b.read_E(G, 8); }
void push_E(Builder& b) { b.read_E(G, b.d().op66 ? 2 : 8); b.push_pop(); }

// String instructions: the direction flag, rsi and/or rdi, and rcx with a rep prefix.
void string_common(Builder& b) {
    b.read_flags();  // DF
    if (b.d().rep) {
        b.read_gpr(kRcx);
        b.write_gpr(kRcx, 8);
    }
}
void source(Builder& b) { b.read_gpr(kRsi); b.write_gpr(kRsi, 8); }
void destination(Builder& b) { b.read_gpr(kRdi); b.write_gpr(kRdi, 8); }
void movs(Builder& b) { string_common(b); source(b); destination(b); }
void cmps(Builder& b) { movs(b); b.write_flags(); }
void stos(Builder& b) { string_common(b); b.read_gpr(kRax); destination(b); }
void lods(Builder& b) { string_common(b); source(b); b.write_gpr(kRax, b.wsize()); }
void scas(Builder& b) { stos(b); b.write_flags(); }
void ins(Builder& b) { string_common(b); b.read_gpr(kRdx); destination(b); }
void outs(Builder& b) { string_common(b); b.read_gpr(kRdx); source(b); }

// x87. Stack registers are named from TOP before the instruction (instruction.h); the status word is a register of
// its own, written by the comparisons and read by fnstsw, so that arithmetic does not chain through it. "E" is the
// ModRM operand: st(i) or memory.
void fop_st0(Builder& b) { b.read_st_E(); b.rmw_st(0); }                     // st(0) op= E
void fop_sti(Builder& b) { b.read_st(0); b.rmw_st(b.st_i()); }               // st(i) op= st(0)
void fopp_sti(Builder& b) { fop_sti(b); b.x87_pop(); }                       // st(i) op= st(0), pop
void fcom(Builder& b) { b.read_st(0); b.read_st_E(); b.write_x87(); }       // compare st(0) with E
void fcomp(Builder& b) { fcom(b); b.x87_pop(); }
void fcompp(Builder& b) { b.read_st(0); b.read_st(1); b.write_x87(); b.x87_pop2(); }
void fcomi(Builder& b) { b.read_st(0); b.read_st(b.st_i()); b.write_flags(); }  // compare into the flags
void fcomip(Builder& b) { fcomi(b); b.x87_pop(); }
void fld(Builder& b) { b.read_st_E(); b.x87_push(); }                        // fld E, fild, fbld
void fst(Builder& b) { b.read_st(0); b.write_st_E(); }                       // fst E, fist
void fstp(Builder& b) { fst(b); b.x87_pop(); }                               // fstp E, fistp, fisttp, fbstp
void fxch(Builder& b) { b.x87_exchange(b.st_i()); }
void fcmov(Builder& b) { b.read_flags(); b.read_st(b.st_i()); b.rmw_st(0); }
void fpush(Builder& b) { b.x87_push(); }                                     // fld1, fldz, fldpi...
void funary(Builder& b) { b.rmw_st(0); }                                     // fchs, fabs, fsqrt, fsin...
void ftst(Builder& b) { b.read_st(0); b.write_x87(); }                       // ftst, fxam
void fbinary_pop(Builder& b) { b.read_st(0); b.rmw_st(1); b.x87_pop(); }     // fyl2x, fpatan: st(1) op= st(0)
void fpush_result(Builder& b) { b.rmw_st(0); b.x87_push(); }                 // fptan, fxtract, fsincos
void fscale(Builder& b) { b.read_st(1); b.rmw_st(0); }                       // st(0) op= st(1)
void fprem(Builder& b) { fscale(b); b.write_x87(); }                         // fprem, fprem1: C0-C3 too
void fdecstp(Builder& b) { b.write_x87(); b.x87_top(kX87Push); }
void fincstp(Builder& b) { b.write_x87(); b.x87_pop(); }
void fcontrol(Builder& b) { b.address(); b.write_x87(); }                    // fldcw, fldenv, fnclex, ffree
void fstatus(Builder& b) { b.address(); b.read_x87(); }                      // fnstcw, fnstenv, fnstsw m16
void ffreep(Builder& b) { b.write_x87(); b.x87_pop(); }
void fnstsw_ax(Builder& b) { b.read_x87(); b.write_gpr(kRax, 2); }
void frstor(Builder& b) { b.address(); b.write_x87(); b.write_all_st(); }
void fnsave(Builder& b) { b.address(); b.read_x87(); b.read_all_st(); b.write_x87(); }  // it reinitialises

// ---- The rows ----------------------------------------------------------------------------------------------------

constexpr OpcodeRow kRows[] = {
    // The ALU rows (x6 and x7 are not instructions in 64-bit mode).
    R(0x00, 0x05).ops(alu<Alu::Plain>),                                              // add
    R(0x08, 0x0D).form(F::Logic).ops(alu<Alu::Plain>),                              // or
    R(0x10, 0x15).form(F::AdcSbb).ops(alu<Alu::Carry>),                             // adc
    R(0x18, 0x1D).form(F::AdcSbb).ops(alu<Alu::Carry>),                             // sbb
    R(0x20, 0x25).form(F::Logic).ops(alu<Alu::Plain>),                              // and
    R(0x28, 0x2D).ops(alu<Alu::Zeroing>),                                            // sub
    R(0x30, 0x35).form(F::Logic).ops(alu<Alu::Zeroing>),                            // xor
    R(0x38, 0x3D).ops(alu<Alu::Compare>),                                            // cmp

    // 32-bit mode's own rows. A segment register's load is a microcoded flow; so are the decimal adjustments.
    R(0x06).only32().ops(push_pop),                                                  // push es
    R(0x0E).only32().ops(push_pop),                                                  // push cs
    R(0x16).only32().ops(push_pop),                                                  // push ss
    R(0x1E).only32().ops(push_pop),                                                  // push ds
    R(0x07).only32().cls(C::Microcode).ops(push_pop),                               // pop es
    R(0x17).only32().cls(C::Microcode).ops(push_pop),                               // pop ss
    R(0x1F).only32().cls(C::Microcode).ops(push_pop),                               // pop ds
    R(0x27).only32().cls(C::Microcode).ops(adjust_al),                              // daa
    R(0x2F).only32().cls(C::Microcode).ops(adjust_al),                              // das
    R(0x37).only32().cls(C::Microcode).ops(adjust_ax),                              // aaa
    R(0x3F).only32().cls(C::Microcode).ops(adjust_ax),                              // aas
    R(0x40, 0x47).only32().form(F::IncDec).ops(inc_dec_r),                          // inc r32 (REX in 64-bit mode)
    R(0x48, 0x4F).only32().form(F::IncDec).ops(inc_dec_r),                          // dec r32
    R(0x60).only32().cls(C::Microcode).ops(pusha),
    R(0x61).only32().cls(C::Microcode).ops(popa),
    R(0x62).only32().cls(C::Microcode).ops(bound),                                  // EVEX with a register ModRM
    R(0x63).only32().cls(C::Microcode).ops(arpl),                                   // movsxd in 64-bit mode
    R(0x9E).only32().ops(sahf),                                                     // no LAHF64 needed
    R(0x9F).only32().ops(lahf),
    R(0xC4, 0xC5).only32().cls(C::Microcode).ops(load_far_pointer),                 // VEX with a register ModRM
    R(0xCE).only32().cls(C::Microcode).ops(into),
    R(0xD4, 0xD5).only32().cls(C::Microcode).ops(adjust_ax_imm),                    // aam, aad

    R(0x50, 0x57).ops(push_r),
    R(0x58, 0x5F).ops(pop_r),
    R(0x63).w1().regform().form(F::MovExtend).ops(movsxd),                           // movsxd r64, r32
    R(0x63).ops(movsxd),
    R(0x68).ops(push_pop),                                                           // push imm
    R(0x69).cls(C::IntMul).form(imul_form).ops(imul_imm),
    R(0x6A).ops(push_pop),
    R(0x6B).cls(C::IntMul).form(imul_form).ops(imul_imm),
    R(0x6C, 0x6D).cls(C::StringOp).string_op().ops(ins),
    R(0x6E, 0x6F).cls(C::StringOp).string_op().ops(outs),
    R(0x70, 0x7F).cls(C::CondBranch).rel8().ops(read_flags),                        // jcc

    R(0x82).only64(),                                                                // 32-bit mode: 80 again
    R(0x80, 0x83).reg(2, 3).form(F::AdcSbb).ops(alu_imm<Alu::Carry>),               // group 1: adc, sbb
    R(0x80, 0x83).reg(7).ops(alu_imm<Alu::Compare>),                                // cmp
    R(0x80, 0x83).reg(1, 4, 6).form(F::Logic).ops(alu_imm<Alu::Plain>),              // or and xor
    R(0x80, 0x83).ops(alu_imm<Alu::Plain>),                                         // add sub
    R(0x84, 0x85).form(F::Logic).ops(test_EG),
    R(0x86, 0x87).mem().cls(C::Microcode).ops(xchg_EG),                             // implicitly locked
    R(0x86, 0x87).ops(xchg_EG),
    R(0x88, 0x89).ops(mov_EG),
    R(0x8A).mem().form(F::LoadByte).ops(mov_GE),                                    // merges into the register
    R(0x8A, 0x8B).ops(mov_GE),
    R(0x8C).ops(mov_E_sreg),
    R(0x8D).form(lea_form).ops(lea),
    R(0x8E).ops(mov_sreg_E),
    R(0x8F).reg(0).ops(pop_E),
    R(0x8F),
    R(0x90).pp(PF3).cls(C::Halt).ops(nop_or_xchg_r8),                               // pause
    R(0x90).cls(C::Nop).ops(nop_or_xchg_r8),
    R(0x91, 0x97).ops(xchg_rax),
    R(0x98).ops(cbw),
    R(0x99).ops(cwd),
    R(0x9A),                                                                         // call far
    R(0x9B).cls(C::Nop).ops(none),                                                  // fwait
    R(0x9C).ops(pushf),
    R(0x9D).cls(C::Microcode).ops(popf),                                            // rewrites the flags register
    R(0x9E).ext(E::Lahf64).ops(sahf),
    R(0x9F).ext(E::Lahf64).ops(lahf),
    R(0xA0, 0xA1).ops(load_acc),
    R(0xA2, 0xA3).ops(read_acc),
    R(0xA4, 0xA5).cls(C::StringOp).string_op().ops(movs),
    R(0xA6, 0xA7).cls(C::StringOp).string_op().comparing().ops(cmps),
    R(0xA8, 0xA9).form(F::Logic).ops(test_acc),
    R(0xAA, 0xAB).cls(C::StringOp).string_op().ops(stos),
    R(0xAC, 0xAD).cls(C::StringOp).string_op().ops(lods),
    R(0xAE, 0xAF).cls(C::StringOp).string_op().comparing().ops(scas),
    R(0xB0, 0xB7).ops(mov_r8_imm),
    R(0xB8, 0xBF).ops(mov_r_imm),

    R(0xC0, 0xC1).reg(0, 1, 2, 3).cls(C::IntShift).form(shift_form).ops(rotate),    // group 2 by imm8
    R(0xC0, 0xC1).cls(C::IntShift).form(shift_form).ops(shift_imm),
    R(0xC2, 0xC3).cls(C::Return).ops(push_pop),
    R(0xC6, 0xC7).regform().reg(7).rm(0).ext(E::Rtm),                                // xabort, xbegin
    R(0xC6, 0xC7).reg(0).ops(mov_E_imm),
    R(0xC6, 0xC7),
    R(0xC8).cls(C::Microcode).ops(enter),
    R(0xC9).ops(leave),
    R(0xCA, 0xCB).cls(C::Return),                                                   // far ret
    R(0xCC).cls(C::Microcode),                                                      // int3
    R(0xCD).cls(C::Syscall).ops(i386_system_call),                                  // int n: int $0x80
    R(0xCF).cls(C::Return),                                                         // iret
    R(0xD0, 0xD1).reg(0, 1, 2, 3).cls(C::IntShift).form(shift_form).ops(rotate),    // group 2 by 1
    R(0xD0, 0xD1).cls(C::IntShift).form(shift_form).ops(shift_one),
    R(0xD2, 0xD3).cls(C::IntShift).form(shift_form).ops(shift_cl),                  // group 2 by cl
    R(0xD7).ops(xlat),

    // x87 (D8-DF): by escape byte, memory or register operand and ModRM.reg. D8, DC: fadd fmul fcom fcomp fsub
    // fsubr fdiv fdivr (m32/m64, st(0) op= st(i); DC's registers st(i) op= st(0)); DA, DE: the same on integers,
    // DA's registers fcmovcc and fucompp, DE's the popping forms.
    R(0xD8).reg(0, 4, 5).cls(C::X87Arith).form(F::Fadd).ops(fop_st0),
    R(0xD8).reg(1).cls(C::X87Arith).form(F::Fmul).ops(fop_st0),
    R(0xD8).reg(2).cls(C::X87Arith).ops(fcom),
    R(0xD8).reg(3).cls(C::X87Arith).ops(fcomp),
    R(0xD8).reg(6, 7).cls(C::X87Div).form(F::Fdiv).ops(fop_st0),
    R(0xD9).reg(0).cls(C::X87Move).ops(fld),                                        // fld m32, fld st(i)
    R(0xD9).mem().reg(1, 3).cls(C::X87Move).ops(fstp),
    R(0xD9).mem().reg(2).cls(C::X87Move).ops(fst),
    R(0xD9).mem().reg(4, 5).cls(C::Microcode).ops(fcontrol),                        // fldenv, fldcw
    R(0xD9).mem().reg(6).cls(C::Microcode).ops(fstatus),                            // fnstenv
    R(0xD9).mem().reg(7).cls(C::X87Move).ops(fstatus),                              // fnstcw
    R(0xD9).reg(1).cls(C::X87Move).ops(fxch),
    R(0xD9).reg(2).cls(C::Nop).ops(none),                                           // fnop
    R(0xD9).reg(3).cls(C::X87Move).ops(fstp),                                       // fstp1 (an alias of fstp)
    R(0xD9).reg(4).rm(0, 1).cls(C::X87Arith).form(F::FchsFabs).ops(funary),        // fchs, fabs
    R(0xD9).reg(4).cls(C::X87Arith).ops(ftst),                                      // ftst, fxam
    R(0xD9).reg(5).cls(C::X87Move).ops(fpush),                                      // fld1 fldl2t ... fldz
    R(0xD9).reg(6).rm(0).cls(C::X87Complex).ops(funary),                            // f2xm1
    R(0xD9).reg(6).rm(1, 3).cls(C::X87Complex).ops(fbinary_pop),                    // fyl2x, fpatan
    R(0xD9).reg(6).rm(2, 4).cls(C::X87Complex).ops(fpush_result),                   // fptan, fxtract
    R(0xD9).reg(6).rm(5).cls(C::X87Complex).ops(fprem),                             // fprem1
    R(0xD9).reg(6).rm(6).cls(C::X87Move).ops(fdecstp),
    R(0xD9).reg(6).rm(7).cls(C::X87Move).ops(fincstp),
    R(0xD9).reg(7).rm(0).cls(C::X87Complex).ops(fprem),
    R(0xD9).reg(7).rm(1).cls(C::X87Complex).ops(fbinary_pop),                       // fyl2xp1
    R(0xD9).reg(7).rm(2).cls(C::X87Div).form(F::Fsqrt).ops(funary),
    R(0xD9).reg(7).rm(3).cls(C::X87Complex).ops(fpush_result),                      // fsincos
    R(0xD9).reg(7).rm(5).cls(C::X87Complex).ops(fscale),
    R(0xD9).reg(7).cls(C::X87Complex).ops(funary),                                  // frndint, fsin, fcos
    R(0xDA).mem().reg(0, 1, 4, 5).cls(C::X87Arith).ops(fop_st0),
    R(0xDA).mem().reg(2).cls(C::X87Arith).ops(fcom),
    R(0xDA).mem().reg(3).cls(C::X87Arith).ops(fcomp),
    R(0xDA).mem().reg(6, 7).cls(C::X87Div).ops(fop_st0),
    R(0xDA).reg(0, 1, 2, 3).cls(C::X87Move).ops(fcmov),
    R(0xDA).reg(5).rm(1).cls(C::X87Arith).ops(fcompp),                              // fucompp
    R(0xDA).cls(C::X87Arith).ops(none),
    R(0xDB).mem().reg(0, 5).cls(C::X87Move).ops(fld),                               // fild m32, fld m80
    R(0xDB).mem().reg(1).cls(C::X87Move).ext(E::Sse3).ops(fstp),                    // fisttp m32
    R(0xDB).mem().reg(3, 7).cls(C::X87Move).ops(fstp),                              // fistp m32, fstp m80
    R(0xDB).mem().reg(2).cls(C::X87Move).ops(fst),
    R(0xDB).mem().reg(4, 6).cls(C::Microcode).ops(address),
    R(0xDB).reg(0, 1, 2, 3).cls(C::X87Move).ops(fcmov),
    R(0xDB).reg(4).cls(C::Microcode).ops(fcontrol),                                 // fnclex, fninit
    R(0xDB).reg(5, 6).cls(C::X87Arith).ops(fcomi),                                  // fucomi, fcomi
    R(0xDB).reg(7).cls(C::X87Arith).ops(none),
    R(0xDC).mem().reg(0, 4, 5).cls(C::X87Arith).form(F::Fadd).ops(fop_st0),
    R(0xDC).mem().reg(1).cls(C::X87Arith).form(F::Fmul).ops(fop_st0),
    R(0xDC).mem().reg(6, 7).cls(C::X87Div).form(F::Fdiv).ops(fop_st0),
    R(0xDC).reg(0, 4, 5).cls(C::X87Arith).form(F::Fadd).ops(fop_sti),
    R(0xDC).reg(1).cls(C::X87Arith).form(F::Fmul).ops(fop_sti),
    R(0xDC).reg(2).cls(C::X87Arith).ops(fcom),                                      // fcom2 (an alias)
    R(0xDC).reg(3).cls(C::X87Arith).ops(fcomp),                                     // fcomp3 (an alias)
    R(0xDC).reg(6, 7).cls(C::X87Div).form(F::Fdiv).ops(fop_sti),
    R(0xDD).reg(0).mem().cls(C::X87Move).ops(fld),                                  // fld m64
    R(0xDD).reg(1).mem().cls(C::X87Move).ext(E::Sse3).ops(fstp),                    // fisttp m64
    R(0xDD).reg(2).cls(C::X87Move).ops(fst),                                        // fst m64, fst st(i)
    R(0xDD).reg(3).cls(C::X87Move).ops(fstp),
    R(0xDD).reg(4).mem().cls(C::Microcode).ops(frstor),
    R(0xDD).reg(5).mem().cls(C::X87Move).ops(address),
    R(0xDD).reg(6).mem().cls(C::Microcode).ops(fnsave),
    R(0xDD).reg(7).mem().cls(C::X87Move).ops(fstatus),                              // fnstsw m16
    R(0xDD).reg(0).cls(C::X87Move).ops(fcontrol),                                   // ffree (the tag word)
    R(0xDD).reg(1).cls(C::X87Move).ops(fxch),                                       // fxch4 (an alias)
    R(0xDD).reg(4).cls(C::X87Arith).ops(fcom),                                      // fucom
    R(0xDD).reg(5).cls(C::X87Arith).ops(fcomp),                                     // fucomp
    R(0xDD).cls(C::X87Move).ops(none),
    R(0xDE).mem().reg(0, 1, 4, 5).cls(C::X87Arith).ops(fop_st0),
    R(0xDE).mem().reg(2).cls(C::X87Arith).ops(fcom),
    R(0xDE).mem().reg(3).cls(C::X87Arith).ops(fcomp),
    R(0xDE).mem().reg(6, 7).cls(C::X87Div).ops(fop_st0),
    R(0xDE).reg(0, 4, 5).cls(C::X87Arith).form(F::Fadd).ops(fopp_sti),
    R(0xDE).reg(1).cls(C::X87Arith).form(F::Fmul).ops(fopp_sti),
    R(0xDE).reg(2).cls(C::X87Arith).ops(fcomp),                                     // fcomp5 (an alias)
    R(0xDE).reg(3).cls(C::X87Arith).ops(fcompp),
    R(0xDE).reg(6, 7).cls(C::X87Div).form(F::Fdiv).ops(fopp_sti),
    R(0xDF).mem().reg(0, 5).cls(C::X87Move).ops(fld),                               // fild m16, fild m64
    R(0xDF).mem().reg(1).cls(C::X87Move).ext(E::Sse3).ops(fstp),                    // fisttp m16
    R(0xDF).mem().reg(2).cls(C::X87Move).ops(fst),
    R(0xDF).mem().reg(4).cls(C::X87Complex).ops(fld),                               // fbld
    R(0xDF).mem().reg(6).cls(C::X87Complex).ops(fstp),                              // fbstp
    R(0xDF).mem().reg(3, 7).cls(C::X87Move).ops(fstp),                              // fistp m16, fistp m64
    R(0xDF).reg(2, 3).cls(C::X87Move).ops(fstp),                                    // fstp8, fstp9 (aliases)
    R(0xDF).reg(4).rm(0).cls(C::X87Move).ops(fnstsw_ax),
    R(0xDF).reg(0).cls(C::X87Move).ops(ffreep),
    R(0xDF).reg(1).cls(C::X87Move).ops(fxch),                                       // fxch7 (an alias)
    R(0xDF).reg(5, 6).cls(C::X87Arith).ops(fcomip),                                 // fucomip, fcomip
    R(0xDF).cls(C::X87Move).ops(none),

    R(0xE0, 0xE1).cls(C::CondBranch).rel8().ops(loop_cc),                           // loopne, loope
    R(0xE2).cls(C::CondBranch).rel8().ops(loop),
    R(0xE3).cls(C::CondBranch).rel8().ops(jrcxz),
    R(0xE4, 0xE5).cls(C::Microcode).ops(in_imm),
    R(0xE6, 0xE7).cls(C::Microcode).ops(read_acc),                                  // out imm8
    R(0xE8).cls(C::DirectCall).rel32().ops(push_pop),
    R(0xE9).cls(C::DirectJump).rel32().ops(none),
    R(0xEB).cls(C::DirectJump).rel8().ops(none),
    R(0xEC, 0xED).cls(C::Microcode).ops(in_dx),
    R(0xEE, 0xEF).cls(C::Microcode).ops(out_dx),
    R(0xF1).cls(C::Microcode),                                                      // int1
    R(0xF4).cls(C::Halt).ops(none),
    R(0xF5).ops(merge_flags),                                                       // cmc
    R(0xF6, 0xF7).reg(0, 1).form(F::Logic).ops(test_E_imm),                                        // group 3
    R(0xF6, 0xF7).reg(2).form(F::NegNot).ops(not_E),
    R(0xF6, 0xF7).reg(3).form(F::NegNot).ops(neg_E),
    R(0xF6, 0xF7).reg(4, 5).cls(C::IntMul).form(mul_form).ops(mul_div<false>),                 // mul, imul
    R(0xF6, 0xF7).reg(6).cls(C::IntDiv).form(div_form).ops(mul_div<true>),
    R(0xF6, 0xF7).reg(7).cls(C::IntDiv).form(idiv_form).ops(mul_div<true>),
    R(0xF8, 0xF9).ops(merge_flags),                                                 // clc, stc
    R(0xFA, 0xFB).cls(C::Microcode),                                                // cli, sti
    R(0xFC, 0xFD).ops(merge_flags),                                                 // cld, std
    R(0xFE, 0xFF).reg(0, 1).form(F::IncDec).ops(inc_dec),                           // groups 4 and 5
    R(0xFF).reg(2).cls(C::IndirectCall).ops(call_E),
    R(0xFF).reg(3).cls(C::IndirectCall),                                            // far call
    R(0xFF).reg(4).cls(C::IndirectJump).ops(jmp_E),
    R(0xFF).reg(5).cls(C::IndirectJump),                                            // far jmp
    R(0xFF).reg(6).ops(push_E),

    R(0x00, 0xFF).unknown(),  // prefixes, far calls and jumps, and opcodes that are not instructions in 64-bit mode
};

constexpr auto kIndex = index_rows<covered(kRows)>(kRows);
static_assert(every_opcode_has_a_row(kIndex), "the last row covers every opcode");

}  // namespace

extern const OpcodeMap kOneByteMap = {kRows, sizeof kRows / sizeof kRows[0], kIndex.start, kIndex.order};

}  // namespace netburst::emu::x86ops
