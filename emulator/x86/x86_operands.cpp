// The operand rules of the general-purpose, system and x87 instructions (the one-byte map and the 0F map's integer
// opcodes). The SSE, MMX and VEX rules are in x86_operands_simd.cpp. Operand roles and implicit operands are the
// Intel SDM's (volume 2); x86_operands.h says what counts as a read.
#include "emulator/x86/x86_operands.h"

#include "emulator/x86/x86_operand_builder.h"

namespace netburst::emu {

namespace {

using namespace x86ops;
constexpr File G = File::Gpr;

// The eight operations of the ALU rows 00-3F and of group 1 (80, 81, 83), by opcode bits 5:3 or ModRM.reg.
enum Alu : unsigned { kAdd, kOr, kAdc, kSbb, kAnd, kSub, kXor, kCmp };

// An ALU operation on a ModRM operand pair. e_dest: the r/m operand is the destination (else the reg operand).
void alu_modrm(Builder& b, unsigned op, unsigned size, bool e_dest) {
    // xor and sub of a register with itself: the result does not depend on the register (the zero idiom).
    const bool zero_idiom = (op == kXor || op == kSub) && b.same_registers();
    if (!zero_idiom) {
        b.read_E(G, size);
        b.read_G(G, size);
    }
    if (op != kCmp) {
        if (e_dest) b.write_E(G, size);
        else b.write_G(G, size);
    }
    if (op == kAdc || op == kSbb) b.read_flags();
    b.write_flags();
}

// An ALU operation with an immediate source on the r/m operand (group 1) or on the accumulator (xx4, xx5).
void alu_immediate(Builder& b, unsigned op, unsigned size, bool accumulator) {
    if (accumulator) {
        b.read_gpr(kRax);
        if (op != kCmp) b.write_gpr(kRax, size);
    } else {
        b.read_E(G, size);
        if (op != kCmp) b.write_E(G, size);
    }
    if (op == kAdc || op == kSbb) b.read_flags();
    b.write_flags();
}

// Group 2: rol ror rcl rcr shl shr sal sar, by 1 (D0, D1), by an immediate (C0, C1) or by cl (D2, D3).
void shift_group(Builder& b, unsigned size) {
    const X86Decoded& d = b.d();
    b.rmw_E(G, size);
    b.write_flags();
    const bool by_cl = d.op == 0xD2 || d.op == 0xD3;
    if (by_cl) b.read_gpr(kRcx);
    // Rotates keep SF, ZF, AF and PF; rcl and rcr shift CF in; a count of 0 (cl, or an immediate masked to 0)
    // leaves every flag as it was.
    const unsigned mask = size == 8 ? 0x3F : 0x1F;
    const bool zero_count = (d.op == 0xC0 || d.op == 0xC1) && (d.imm8() & mask) == 0;
    if (d.reg < 4 || by_cl || zero_count) b.read_flags();
}

// Group 3 (F6, F7): test, not, neg, mul, imul, div, idiv.
bool group3(Builder& b, unsigned size) {
    switch (b.d().reg) {
    case 0: case 1:  // test r/m, imm
        b.read_E(G, size);
        b.write_flags();
        return true;
    case 2:  // not: flags unaffected
        b.rmw_E(G, size);
        return true;
    case 3:  // neg
        b.rmw_E(G, size);
        b.write_flags();
        return true;
    case 4: case 5:  // mul, imul: rdx:rax = rax * r/m (ax = al * r/m8); CF and OF defined, SF ZF AF PF undefined
        b.read_E(G, size);
        b.read_gpr(kRax);
        if (size == 1) {
            b.write_gpr(kRax, 2);
        } else {
            b.write_gpr(kRax, size);
            b.write_gpr(kRdx, size);
        }
        b.write_flags();
        return true;
    default:  // div, idiv: rax (and rdx) by r/m; the flags are undefined, neither read nor written
        b.read_E(G, size);
        b.read_gpr(kRax);
        if (size == 1) {
            b.write_gpr(kRax, 2);
        } else {
            b.read_gpr(kRdx);
            b.write_gpr(kRax, size);
            b.write_gpr(kRdx, size);
        }
        return true;
    }
}

// movs cmps stos lods scas ins outs (A4-A7, AA-AF, 6C-6F): the direction flag, rsi/rdi, and rcx with rep.
void string_op(Builder& b) {
    const X86Decoded& d = b.d();
    const unsigned size = (d.op & 1) ? b.opsize() : 1;
    b.read_flags();  // DF
    if (d.rep) {
        b.read_gpr(kRcx);
        b.write_gpr(kRcx, 8);
    }
    auto source = [&] { b.read_gpr(kRsi); b.write_gpr(kRsi, 8); };
    auto destination = [&] { b.read_gpr(kRdi); b.write_gpr(kRdi, 8); };
    switch (d.op & 0xFE) {
    case 0xA4: source(); destination(); break;                                     // movs
    case 0xA6: source(); destination(); b.write_flags(); break;                    // cmps
    case 0xAA: b.read_gpr(kRax); destination(); break;                             // stos
    case 0xAC: source(); b.write_gpr(kRax, size); break;                           // lods
    case 0xAE: b.read_gpr(kRax); destination(); b.write_flags(); break;            // scas
    case 0x6C: b.read_gpr(kRdx); destination(); break;                             // ins
    default: b.read_gpr(kRdx); source(); break;                                    // outs
    }
}

// The x87 escapes D8-DF (SDM Vol. 2, each instruction's page; the opcode map's tables ). Stack
// registers are named from TOP before the instruction (instruction.h); the status word is a register of its own,
// written by the comparisons and read by fnstsw, so that arithmetic does not chain through it.
void x87_memory(Builder& b) {
    const X86Decoded& d = b.d();
    const unsigned reg = d.reg;
    auto arith = [&] {                      // D8, DA, DC, DE: st(0) op= m (fcom/fcomp only compare)
        b.read_st(0);
        if (reg == 2 || reg == 3) b.write_x87();
        else b.write_st(0);
        if (reg == 3) b.x87_pop();
    };
    auto load_store = [&](bool load80_at_5, bool store80_at_7) {  // D9, DB, DD, DF: the loads and stores
        switch (reg) {
        case 0: b.x87_push(); break;                              // fld, fild
        case 1: case 3: b.read_st(0); b.x87_pop(); break;         // fisttp, fstp, fistp
        case 2: b.read_st(0); break;                              // fst, fist
        case 5: if (load80_at_5) b.x87_push(); break;             // fld m80, fild m64
        case 7: if (store80_at_7) { b.read_st(0); b.x87_pop(); } break;  // fstp m80, fistp m64
        default: break;
        }
    };
    switch (d.op) {
    case 0xD8: case 0xDA: case 0xDC: case 0xDE: arith(); break;
    case 0xD9:
        if (reg == 4 || reg == 5) b.write_x87();                  // fldenv, fldcw
        else if (reg == 6 || reg == 7) b.read_x87();              // fnstenv, fnstcw
        else load_store(false, false);
        break;
    case 0xDB: load_store(true, true); break;                     // fld m80 (/5), fstp m80 (/7)
    case 0xDD:
        if (reg == 4) { b.write_x87(); b.write_all_st(); }        // frstor
        else if (reg == 6) { b.read_x87(); b.read_all_st(); b.write_x87(); }  // fnsave (reinitialises)
        else if (reg == 7) b.read_x87();                          // fnstsw m16
        else load_store(false, false);
        break;
    default:                                                      // DF
        if (reg == 4) b.x87_push();                               // fbld
        else if (reg == 6) { b.read_st(0); b.x87_pop(); }         // fbstp
        else load_store(true, true);                              // fild m64 (/5), fistp m64 (/7)
        break;
    }
}

void x87_register(Builder& b) {
    const X86Decoded& d = b.d();
    const unsigned reg = d.reg, i = d.rm_n & 7;
    auto compare = [&](bool to_flags) {
        b.read_st(0);
        b.read_st(i);
        if (to_flags) b.write_flags();
        else b.write_x87();
    };
    switch (d.op) {
    case 0xD8:                                                    // st(0) op= st(i)
        if (reg == 2 || reg == 3) compare(false);                 // fcom, fcomp
        else { b.read_st(i); b.rmw_st(0); }
        if (reg == 3) b.x87_pop();
        break;
    case 0xD9:
        switch (reg) {
        case 0: b.read_st(i); b.x87_push(); break;                // fld st(i)
        case 1: b.x87_exchange(i); break;                         // fxch
        case 2: break;                                            // fnop
        case 3: b.read_st(0); b.write_st(i); b.x87_pop(); break;  // fstp1 (an alias of fstp st(i))
        case 4:
            if (i == 0 || i == 1) b.rmw_st(0);                    // fchs, fabs
            else { b.read_st(0); b.write_x87(); }                 // ftst, fxam
            break;
        case 5: b.x87_push(); break;                              // fld1, fldl2t, fldl2e, fldpi, fldlg2, fldln2, fldz
        default: {                                                // D9 F0-FF
            const unsigned k = d.modrm & 0x0F;
            switch (k) {
            case 0x1: case 0x3: case 0x9:                         // fyl2x, fpatan, fyl2xp1: st(1) op= st(0), pop
                b.read_st(0); b.rmw_st(1); b.x87_pop(); break;
            case 0x2: case 0x4: case 0xB:                         // fptan, fxtract, fsincos: st(0) and a push
                b.rmw_st(0); b.x87_push(); break;
            case 0x5: case 0x8: case 0xD:                         // fprem1, fprem, fscale: st(0) op= st(1)
                b.read_st(1); b.rmw_st(0); if (k != 0xD) b.write_x87(); break;
            case 0x6: b.write_x87(); b.x87_top(kX87Push); break;     // fdecstp
            case 0x7: b.write_x87(); b.x87_pop(); break;          // fincstp
            default: b.rmw_st(0); break;                          // f2xm1, fsqrt, frndint, fsin, fcos
            }
            break;
        }
        }
        break;
    case 0xDA:
        if (reg < 4) { b.read_flags(); b.read_st(i); b.rmw_st(0); }  // fcmovb, fcmove, fcmovbe, fcmovu
        else if (d.modrm == 0xE9) { b.read_st(0); b.read_st(1); b.write_x87(); b.x87_pop2(); }  // fucompp
        break;
    case 0xDB:
        if (reg < 4) { b.read_flags(); b.read_st(i); b.rmw_st(0); }  // fcmovnb, fcmovne, fcmovnbe, fcmovnu
        else if (reg == 4) b.write_x87();                         // fnclex, fninit (and obsolete no-ops)
        else if (reg == 5 || reg == 6) compare(true);             // fucomi, fcomi
        break;
    case 0xDC:                                                    // st(i) op= st(0)
        if (reg == 2 || reg == 3) compare(false);                 // fcom2, fcomp3 (aliases)
        else { b.read_st(0); b.rmw_st(i); }
        if (reg == 3) b.x87_pop();
        break;
    case 0xDD:
        switch (reg) {
        case 0: b.write_x87(); break;                             // ffree (the tag word)
        case 1: b.x87_exchange(i); break;                         // fxch4 (an alias)
        case 2: case 3: b.read_st(0); b.write_st(i); if (reg == 3) b.x87_pop(); break;  // fst, fstp st(i)
        case 4: case 5: compare(false); if (reg == 5) b.x87_pop(); break;             // fucom, fucomp
        default: break;
        }
        break;
    case 0xDE:                                                    // st(i) op= st(0), pop
        if (reg == 3) { b.read_st(0); b.read_st(1); b.write_x87(); b.x87_pop2(); break; }  // fcompp
        if (reg == 2) { compare(false); b.x87_pop(); break; }    // fcomp5 (an alias)
        b.read_st(0); b.rmw_st(i); b.x87_pop();
        break;
    default:                                                      // DF
        if (d.modrm == 0xE0) { b.read_x87(); b.write_gpr(kRax, 2); }  // fnstsw ax
        else if (reg == 0) { b.write_x87(); b.x87_pop(); }        // ffreep
        else if (reg == 5 || reg == 6) { compare(true); b.x87_pop(); }  // fucomip, fcomip
        else if (reg == 1) b.x87_exchange(i);                     // fxch7 (an alias)
        else if (reg == 2 || reg == 3) { b.read_st(0); b.write_st(i); b.x87_pop(); }  // fstp8, fstp9 (aliases)
        break;
    }
}

void x87(Builder& b) {
    b.address();
    if (b.d().mem) x87_memory(b);
    else x87_register(b);
}

X86Operands map0(Builder& b) {
    const X86Decoded& d = b.d();
    const std::uint8_t op = d.op;
    const unsigned v = b.opsize();
    const unsigned size = (op & 1) ? v : 1;  // the byte/full-size pairs of most rows
    if (op < 0x40) {
        if ((op & 7) >= 6) return b.unknown();  // prefixes, and opcodes invalid in 64-bit mode
        if ((op & 7) < 4) alu_modrm(b, op >> 3, size, (op & 2) == 0);
        else alu_immediate(b, op >> 3, size, true);
        return b.result();
    }
    // The register encoded in the opcode's low three bits, extended by REX.B.
    const unsigned opreg = (op & 7) | (d.rex_b ? 8u : 0u);
    if (op >= 0x50 && op <= 0x57) {  // push r
        b.read_gpr(opreg);
        b.push_pop();
        return b.result();
    }
    if (op >= 0x58 && op <= 0x5F) {  // pop r
        b.push_pop();
        b.write_gpr(opreg, d.op66 ? 2 : 8);
        return b.result();
    }
    if (op >= 0x70 && op <= 0x7F) {  // jcc
        b.read_flags();
        return b.result();
    }
    if (op >= 0x91 && op <= 0x97) {  // xchg rax, r
        b.read_gpr(kRax);
        b.read_gpr(opreg);
        b.write_gpr(kRax, v);
        b.write_gpr(opreg, v);
        return b.result();
    }
    if ((op >= 0xA4 && op <= 0xA7) || (op >= 0xAA && op <= 0xAF) || (op >= 0x6C && op <= 0x6F)) {
        string_op(b);
        return b.result();
    }
    if (op >= 0xB0 && op <= 0xB7) {  // mov r8, imm8
        b.write_gpr(!d.rex && opreg >= 4 && opreg < 8 ? opreg - 4 : opreg, 1);
        return b.result();
    }
    if (op >= 0xB8 && op <= 0xBF) {  // mov r, imm
        b.write_gpr(opreg, v);
        return b.result();
    }
    if (op >= 0xD8 && op <= 0xDF) {
        x87(b);
        return b.result();
    }
    switch (op) {
    case 0x63:  // movsxd r, r/m32
        b.read_E(G, 4);
        b.write_G(G, v);
        break;
    case 0x68: case 0x6A:  // push imm
        b.push_pop();
        break;
    case 0x69: case 0x6B:  // imul r, r/m, imm
        b.read_E(G, v);
        b.write_G(G, v);
        b.write_flags();
        break;
    case 0x80: case 0x81: case 0x83:
        alu_immediate(b, d.reg, size, false);
        break;
    case 0x84: case 0x85:  // test r/m, r
        b.read_E(G, size);
        b.read_G(G, size);
        b.write_flags();
        break;
    case 0x86: case 0x87:  // xchg r/m, r
        b.rmw_E(G, size);
        b.rmw_G(G, size);
        break;
    case 0x88: case 0x89:  // mov r/m, r
        b.read_G(G, size);
        b.write_E(G, size);
        break;
    case 0x8A: case 0x8B:  // mov r, r/m
        b.read_E(G, size);
        b.write_G(G, size);
        break;
    case 0x8C:  // mov r/m, sreg (a register destination gets the selector zero-extended)
        b.write_E(G, d.mem ? 2 : v);
        break;
    case 0x8D:  // lea
        b.address();
        b.write_G(G, v);
        break;
    case 0x8E:  // mov sreg, r/m
        b.read_E(G, 2);
        break;
    case 0x8F:  // pop r/m
        if (d.reg != 0) return b.unknown();
        b.push_pop();
        b.write_E(G, d.op66 ? 2 : 8);
        break;
    case 0x90:  // nop, pause; with REX.B, xchg r8, rax
        if (d.rex_b) {
            b.read_gpr(kRax);
            b.read_gpr(kR8);
            b.write_gpr(kRax, v);
            b.write_gpr(kR8, v);
        }
        break;
    case 0x98:  // cbw, cwde, cdqe
        b.read_gpr(kRax);
        b.write_gpr(kRax, v);
        break;
    case 0x99:  // cwd, cdq, cqo
        b.read_gpr(kRax);
        b.write_gpr(kRdx, v);
        break;
    case 0x9B:  // fwait
        break;
    case 0x9C:  // pushf
        b.read_flags();
        b.push_pop();
        break;
    case 0x9D:  // popf
        b.push_pop();
        b.write_flags();
        break;
    case 0x9E:  // sahf: SF ZF AF PF CF from ah, OF kept
        b.read_gpr(kRax);
        b.merge_flags();
        break;
    case 0x9F:  // lahf
        b.read_flags();
        b.write_gpr(kRax, 1);
        break;
    case 0xA0: case 0xA1:  // mov al/rax, moffs
        b.write_gpr(kRax, size);
        break;
    case 0xA2: case 0xA3:  // mov moffs, al/rax
        b.read_gpr(kRax);
        break;
    case 0xA8: case 0xA9:  // test al/rax, imm
        b.read_gpr(kRax);
        b.write_flags();
        break;
    case 0xC0: case 0xC1: case 0xD0: case 0xD1: case 0xD2: case 0xD3:
        shift_group(b, size);
        break;
    case 0xC2: case 0xC3:  // ret
        b.push_pop();
        break;
    case 0xC6: case 0xC7:  // mov r/m, imm (other /digits are xabort, xbegin)
        if (d.reg != 0) return b.unknown();
        b.write_E(G, size);
        break;
    case 0xC8:  // enter
        b.push_pop();
        b.read_gpr(kRbp);
        b.write_gpr(kRbp, 8);
        break;
    case 0xC9:  // leave: rsp = rbp, then pop rbp
        b.read_gpr(kRbp);
        b.write_gpr(kRsp, 8);
        b.write_gpr(kRbp, 8);
        break;
    case 0xD7:  // xlat: al = [rbx + al]
        b.read_gpr(kRbx);
        b.read_gpr(kRax);
        b.write_gpr(kRax, 1);
        break;
    case 0xE0: case 0xE1:  // loopne, loope
        b.read_flags();
        [[fallthrough]];
    case 0xE2:  // loop
        b.read_gpr(kRcx);
        b.write_gpr(kRcx, 8);
        break;
    case 0xE3:  // jrcxz
        b.read_gpr(kRcx);
        break;
    case 0xE4: case 0xE5:  // in al/eax, imm8
        b.write_gpr(kRax, op == 0xE4 ? 1 : (d.op66 ? 2 : 4));
        break;
    case 0xE6: case 0xE7:  // out imm8, al/eax
        b.read_gpr(kRax);
        break;
    case 0xEC: case 0xED:  // in al/eax, dx
        b.read_gpr(kRdx);
        b.write_gpr(kRax, op == 0xEC ? 1 : (d.op66 ? 2 : 4));
        break;
    case 0xEE: case 0xEF:  // out dx, al/eax
        b.read_gpr(kRdx);
        b.read_gpr(kRax);
        break;
    case 0xE8:  // call rel
        b.push_pop();
        break;
    case 0xE9: case 0xEB: case 0xF4:  // jmp rel, hlt
        break;
    case 0xF5: case 0xF8: case 0xF9: case 0xFC: case 0xFD:  // cmc, clc, stc, cld, std: one flag, the others kept
        b.merge_flags();
        break;
    case 0xF6: case 0xF7:
        return group3(b, size) ? b.result() : b.unknown();
    case 0xFE: case 0xFF:
        switch (d.reg) {
        case 0: case 1:  // inc, dec: CF kept
            b.rmw_E(G, size);
            b.merge_flags();
            break;
        case 2:  // call r/m
            if (op == 0xFE) return b.unknown();
            b.read_E(G, 8);
            b.push_pop();
            break;
        case 4:  // jmp r/m
            if (op == 0xFE) return b.unknown();
            b.read_E(G, 8);
            break;
        case 6:  // push r/m
            if (op == 0xFE) return b.unknown();
            b.read_E(G, d.op66 ? 2 : 8);
            b.push_pop();
            break;
        default:  // far call and jmp
            return b.unknown();
        }
        break;
    default:  // int3, int n, iret, far returns, cli, sti and opcodes invalid in 64-bit mode
        return b.unknown();
    }
    return b.result();
}

// The 0F map's general-purpose and system opcodes; false: a SIMD opcode (or one this table does not know).
bool map1_integer(Builder& b, X86Operands& out) {
    const X86Decoded& d = b.d();
    const std::uint8_t op = d.op;
    const unsigned v = b.opsize();
    const unsigned size = (op & 1) ? v : 1;
    if (op >= 0x40 && op <= 0x4F) {  // cmovcc: the destination is kept when the condition is false
        b.read_flags();
        b.read_E(G, v);
        b.rmw_G(G, v);
    } else if (op >= 0x80 && op <= 0x8F) {  // jcc
        b.read_flags();
    } else if (op >= 0x90 && op <= 0x9F) {  // setcc
        b.read_flags();
        b.write_E(G, 1);
    } else if (op >= 0xC8 && op <= 0xCF) {  // bswap
        const unsigned r = (op & 7) | (d.rex_b ? 8u : 0u);
        b.read_gpr(r);
        b.write_gpr(r, 8);
    } else if (op >= 0x18 && op <= 0x1F) {  // prefetch hints (they compute an address), hint nops, endbr64
        if (op == 0x18) b.address();
    } else {
        switch (op) {
        case 0x01:  // group 7: only the user-mode forms glibc runs
            if (d.modrm == 0xD0) {  // xgetbv
                b.read_gpr(kRcx);
                b.write_gpr(kRax, 4);
                b.write_gpr(kRdx, 4);
            } else if (d.modrm == 0xF9) {  // rdtscp
                b.write_gpr(kRax, 4);
                b.write_gpr(kRdx, 4);
                b.write_gpr(kRcx, 4);
            } else {
                out = b.unknown();
                return true;
            }
            break;
        case 0x05:  // syscall: rcx and r11 take rip and rflags; the kernel (Linux ABI) reads rax and the six
                    // argument registers and returns in rax
            b.read_flags();
            b.read_gpr(kRax);
            b.read_gprs(reg_gpr(kRdi) | reg_gpr(kRsi) | reg_gpr(kRdx) | reg_gpr(kR10) | reg_gpr(kR8) | reg_gpr(kR9));
            b.write_gpr(kRax, 8);
            b.write_gpr(kRcx, 8);
            b.write_gpr(kR11, 8);
            break;
        case 0x0B:  // ud2
            break;
        case 0x0D:  // prefetchw
            b.address();
            break;
        case 0x31:  // rdtsc
            b.write_gpr(kRax, 4);
            b.write_gpr(kRdx, 4);
            break;
        case 0xA2:  // cpuid
            b.read_gpr(kRax);
            b.read_gpr(kRcx);
            b.write_gprs(reg_gpr(kRax) | reg_gpr(kRbx) | reg_gpr(kRcx) | reg_gpr(kRdx));
            break;
        case 0xA0: case 0xA1: case 0xA8: case 0xA9:  // push/pop fs, gs
            b.push_pop();
            break;
        case 0xA3: case 0xAB: case 0xB3: case 0xBB:  // bt bts btr btc r/m, r: CF written, ZF kept
            b.read_E(G, v);
            b.read_G(G, v);
            if (op != 0xA3) b.write_E(G, v);
            b.merge_flags();
            break;
        case 0xBA:  // bt bts btr btc r/m, imm
            if (d.reg < 4) {
                out = b.unknown();
                return true;
            }
            b.read_E(G, v);
            if (d.reg != 4) b.write_E(G, v);
            b.merge_flags();
            break;
        case 0xA4: case 0xA5: case 0xAC: case 0xAD: {  // shld, shrd by imm or cl: a count of 0 keeps the flags
            b.rmw_E(G, v);
            b.read_G(G, v);
            b.write_flags();
            const bool by_cl = op == 0xA5 || op == 0xAD;
            if (by_cl) b.read_gpr(kRcx);
            if (by_cl || (d.imm8() & (v == 8 ? 0x3F : 0x1F)) == 0) b.read_flags();
            break;
        }
        case 0xAE:  // group 15
            if (!d.mem) {
                if (d.reg < 5 || d.rep) {  // rdfsbase and friends
                    out = b.unknown();
                    return true;
                }
                break;  // lfence, mfence, sfence
            }
            b.address();
            switch (d.reg) {
            case 0: b.read_x87(); b.read_all_st(); b.read_all_xmm(); break;                                      // fxsave
            case 1: b.write_x87(); b.write_all_st(); b.write_all_xmm(); break;                                    // fxrstor
            case 2: case 3: case 7: break;                                                        // ldmxcsr, stmxcsr,
                                                                                                  // clflush
            case 4: case 6:                                                                       // xsave, xsaveopt
                b.read_gpr(kRax); b.read_gpr(kRdx); b.read_x87(); b.read_all_st(); b.read_all_xmm(); break;
            default:                                                                              // xrstor
                b.read_gpr(kRax); b.read_gpr(kRdx); b.write_x87(); b.write_all_st(); b.write_all_xmm(); break;
            }
            break;
        case 0xAF:  // imul r, r/m
            b.read_E(G, v);
            b.rmw_G(G, v);
            b.write_flags();
            break;
        case 0xB0: case 0xB1:  // cmpxchg r/m, r: compares with rax, writes r/m or rax
            b.read_gpr(kRax);
            b.rmw_E(G, size);
            b.read_G(G, size);
            b.write_gpr(kRax, size);
            b.write_flags();
            break;
        case 0xB6: case 0xB7: case 0xBE: case 0xBF:  // movzx, movsx
            b.read_E(G, (op & 1) ? 2 : 1);
            b.write_G(G, v);
            break;
        case 0xB8:  // popcnt (F3); without F3 it is not an x86-64 instruction
            if (d.pp != Pp::F3) {
                out = b.unknown();
                return true;
            }
            [[fallthrough]];
        case 0xBC: case 0xBD:  // bsf, bsr (tzcnt and lzcnt with F3: a Pentium 4 runs them as bsf and bsr). The
                               // destination is undefined for a zero source: not read.
            b.read_E(G, v);
            b.write_G(G, v);
            b.write_flags();
            break;
        case 0xC0: case 0xC1:  // xadd
            b.rmw_E(G, size);
            b.rmw_G(G, size);
            b.write_flags();
            break;
        case 0xC3:  // movnti
            b.address();
            b.read_G(G, v);
            break;
        case 0xC7:  // group 9
            if (d.mem && d.reg == 1) {  // cmpxchg8b/16b: only ZF is written
                b.address();
                b.read_gprs(reg_gpr(kRax) | reg_gpr(kRdx) | reg_gpr(kRbx) | reg_gpr(kRcx));
                b.write_gpr(kRax, 8);
                b.write_gpr(kRdx, 8);
                b.merge_flags();
            } else if (d.mem && d.reg == 4) {  // xsavec
                b.address();
                b.read_gpr(kRax);
                b.read_gpr(kRdx);
                b.read_x87();
                b.read_all_st();
                b.read_all_xmm();
            } else if (!d.mem && (d.reg == 6 || d.reg == 7)) {  // rdrand, rdseed
                b.write_E(G, v);
                b.write_flags();
            } else {
                out = b.unknown();
                return true;
            }
            break;
        default:
            return false;
        }
    }
    out = b.result();
    return true;
}

}  // namespace

X86Operands x86_operands(const X86Decoded& d, X86OperandOptions options) {
    if (!d.has_opcode || (d.has_modrm && d.imm_pos > d.length) || d.evex) return X86Operands{};
    Builder b(d);
    if (d.vex) return simd_operands(b, options);
    switch (d.map) {
    case 0:
        return map0(b);
    case 1: {
        X86Operands out;
        if (map1_integer(b, out)) return out;
        return simd_operands(b, options);
    }
    default:  // 0F38 and 0F3A: SSSE3 and SSE4, which no Pentium 4 has; a few the host's C library runs
        return simd_operands(b, options);
    }
}

X86Operands x86_operands(const std::uint8_t* bytes, unsigned length, X86OperandOptions options) {
    return x86_operands(decode_x86(bytes, length), options);
}

}  // namespace netburst::emu
