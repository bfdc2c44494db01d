#include "emulator/x86/x86_form.h"

namespace netburst::emu {

namespace {

using F = InsnForm;

// The operand size of a general-register instruction: 1 for the byte opcodes (even opcode in the groups that pair
// byte and full-size forms), else 2, 4 or 8 from the prefixes.
unsigned operand_size(const X86Decoded& d, bool byte_op) {
    if (byte_op) return 1;
    if (d.rex_w) return 8;
    return d.op66 ? 2 : 4;
}

F by_size(unsigned size, F f8, F f16, F f32, F f64) {
    switch (size) {
    case 1: return f8;
    case 2: return f16;
    case 4: return f32;
    default: return f64;
    }
}

// Shift and rotate groups C0/C1 (imm8), D0/D1 (by 1), D2/D3 (by cl): /0 rol, /1 ror, /2 rcl, /3 rcr, /4 shl,
// /5 shr, /6 sal, /7 sar.
F shift_group(const X86Decoded& d) {
    const unsigned reg = d.reg;
    if (reg == 2 || reg == 3) return F::RotateCarry;
    if (d.op == 0xD2 || d.op == 0xD3) return F::ShiftCl;
    const bool wide = d.rex_w && (d.op & 1) != 0;
    if (reg <= 1) return wide ? F::Rotate64 : F::Rotate;
    if (wide && (reg == 5 || reg == 7)) return F::Shr64;
    // shl, shr, sar of a 32-bit register (and shl of a 64-bit one) by 1 or an immediate; bytes and words keep the
    // class's figure (not measured).
    const bool by_constant = d.op == 0xC1 || d.op == 0xD1;
    if (by_constant && !d.op66 && (reg == 4 || reg == 5 || reg == 7)) return F::ShiftImm;
    return F::None;
}

F map0(const X86Decoded& d) {
    const std::uint8_t op = d.op;
    // adc (10-15) and sbb (18-1D) in the ALU block, and /2, /3 of group 1 (80, 81, 83).
    if ((op >= 0x10 && op <= 0x15) || (op >= 0x18 && op <= 0x1D)) return F::AdcSbb;
    if (op == 0x8A && d.mem) return F::LoadByte;
    if (op == 0x63 && d.rex_w && !d.mem) return F::MovExtend;  // movsxd r64, r32
    if (op == 0xFE || op == 0xFF) return d.reg <= 1 ? F::IncDec : F::None;
    if ((op == 0x80 || op == 0x81 || op == 0x83) && (d.reg == 2 || d.reg == 3)) return F::AdcSbb;
    if (op == 0x8D && d.mem && d.base >= 0 && d.index >= 0) {  // lea with base and index (RIP-relative has none)
        if (d.scale > 1) return d.disp_size != 0 ? F::LeaScaledDisp : F::LeaScaled;
        return d.disp_size != 0 ? F::LeaIndexDisp : F::None;
    }
    if (op == 0xC0 || op == 0xC1 || (op >= 0xD0 && op <= 0xD3)) return shift_group(d);
    if (op == 0x69 || op == 0x6B) return by_size(operand_size(d, false), F::None, F::Imul16, F::Imul32, F::Imul64);
    if (op == 0xF6 || op == 0xF7) {
        const unsigned size = operand_size(d, op == 0xF6);
        if (d.reg == 4 || d.reg == 5) return by_size(size, F::Mul8, F::Mul16, F::Mul32, F::Mul64);
        if (d.reg == 6) return by_size(size, F::Div8, F::Div16, F::Div32, F::Div64);
        if (d.reg == 7) return by_size(size, F::Idiv8, F::Idiv16, F::Idiv32, F::Idiv64);
        if (d.reg == 2 || d.reg == 3) return F::NegNot;
        return F::None;
    }
    if (op >= 0xD8 && op <= 0xDF) {
        // x87: D8 (m32 and st, st(i)), DC (m64 and st(i), st), DE (the popping forms); /0 add, /1 mul, /4-/5 sub,
        // /6-/7 div. fchs and fabs are D9 E0 and D9 E1; fsqrt D9 FA.
        if (op == 0xD8 || op == 0xDC || (op == 0xDE && !d.mem)) {  // DE with memory: fiadd..fidivr m16int
            switch (d.reg) {
            case 0: case 4: case 5: return F::Fadd;
            case 1: return F::Fmul;
            case 6: case 7: return F::Fdiv;
            default: return F::None;
            }
        }
        if (op == 0xD9 && !d.mem) {
            if (d.modrm == 0xE0 || d.modrm == 0xE1) return F::FchsFabs;
            if (d.modrm == 0xFA) return F::Fsqrt;
        }
        return F::None;
    }
    return F::None;
}

// The 0F map, legacy (not VEX) encodings: the instructions a Pentium 4 has.
F map1(const X86Decoded& d) {
    const std::uint8_t op = d.op;
    const Pp pp = d.pp;
    const bool xmm = pp == Pp::P66;  // the SSE2 integer form; without 66 the MMX one
    if (op >= 0x40 && op <= 0x4F) return F::Cmov;
    if (op >= 0x90 && op <= 0x9F) return F::Setcc;
    if ((op == 0xBE || op == 0xBF || op == 0xB7) && !d.mem) return F::MovExtend;  // movsx r8/r16, movzx r16
    if (op == 0xB6 && !d.mem && operand_size(d, false) >= 4) return F::MovzxByte;
    if (op >= 0xC8 && op <= 0xCF) return d.rex_w ? F::Bswap64 : F::Bswap32;
    switch (op) {
    case 0xBC: case 0xBD: return pp == Pp::F3 ? F::None : F::BitScan;  // F3: tzcnt/lzcnt, not on NetBurst
    case 0xA4: case 0xA5: case 0xAC: case 0xAD: return F::DoubleShift;
    case 0xAF: return by_size(operand_size(d, false), F::None, F::Imul16, F::Imul32, F::Imul64);
    case 0x58: case 0x5C: case 0x5D: case 0x5F: case 0xC2: return F::SseAdd;  // add sub min max cmp
    case 0x59: return F::SseMul;
    case 0x52: case 0x53: return (pp == Pp::None || pp == Pp::F3) ? F::SseRcp : F::None;
    case 0x54: case 0x55: case 0x56: case 0x57: return (pp == Pp::None || pp == Pp::P66) ? F::SseLogic : F::None;
    case 0x14: return (pp == Pp::None || pp == Pp::P66) ? F::SseUnpackLow : F::None;
    case 0x15: case 0xC6: return (pp == Pp::None || pp == Pp::P66) ? F::SseShuffle : F::None;
    case 0x51: case 0x5E:  // sqrt, div
        switch (pp) {
        case Pp::None: return F::DivPs;
        case Pp::P66: return F::DivPd;
        case Pp::F3: return F::DivSs;
        case Pp::F2: return F::DivSd;
        }
        return F::None;
    case 0x5B: return pp == Pp::None ? F::CvtDq2Ps : F::None;
    case 0x2A: return (pp == Pp::F2 && !d.rex_w) ? F::CvtSi2Sd : F::None;
    case 0x2C: case 0x2D: return pp == Pp::F2 ? F::CvtSd2Si : F::None;  // cvttsd2si, cvtsd2si
    case 0x5A:
        switch (pp) {
        case Pp::None: return F::CvtPs2Pd;
        case Pp::P66: return F::CvtPd2Ps;
        case Pp::F3: return F::CvtSs2Sd;
        case Pp::F2: return F::CvtSd2Ss;
        }
        return F::None;
    case 0x6E:  // movd/movq mm or xmm, r/m
        if (d.mem) return F::None;
        if (pp == Pp::None) return F::MovdToMmx;
        return pp == Pp::P66 ? F::MovdToXmm : F::None;
    case 0x7E:  // movd/movq r/m, mm or xmm (F3 0F 7E is movq xmm, xmm/m64)
        if (d.mem) return F::None;
        if (pp == Pp::None) return F::MovdFromMmx;
        return pp == Pp::P66 ? F::MovdFromXmm : F::None;
    case 0xD6:
        if (d.mem) return F::None;
        if (pp == Pp::F2) return F::Movdq2q;
        return pp == Pp::F3 ? F::Movq2dq : F::None;
    case 0xD5: case 0xE5: case 0xE4: case 0xF5: case 0xF4:  // pmullw pmulhw pmulhuw pmaddwd pmuludq
        return xmm ? F::PmulXmm : F::PmulMmx;
    case 0xF6: return (pp == Pp::None || xmm) ? F::Psadbw : F::None;
    case 0xD4: case 0xFB: return xmm ? F::PaddqXmm : (pp == Pp::None ? F::MmxAlu : F::None);  // paddq, psubq
    // The MMX ALU's operations: compares, saturating and wrapping adds and subtracts, logic, average, min/max.
    case 0x64: case 0x65: case 0x66: case 0x74: case 0x75: case 0x76:
    case 0xD8: case 0xD9: case 0xDA: case 0xDB: case 0xDC: case 0xDD: case 0xDE: case 0xDF:
    case 0xE0: case 0xE3: case 0xE8: case 0xE9: case 0xEA: case 0xEB: case 0xEC: case 0xED: case 0xEE: case 0xEF:
    case 0xF8: case 0xF9: case 0xFA: case 0xFC: case 0xFD: case 0xFE:
        return xmm ? F::XmmAlu : (pp == Pp::None ? F::MmxAlu : F::None);
    // The MMX shift/shuffle unit's: shifts by a register, low unpacks.
    case 0xD1: case 0xD2: case 0xD3: case 0xE1: case 0xE2: case 0xF1: case 0xF2: case 0xF3:
    case 0x60: case 0x61: case 0x62:
        return xmm ? F::XmmShift : (pp == Pp::None ? F::MmxShift : F::None);
    case 0x6C: return xmm ? F::XmmShift : F::None;  // punpcklqdq
    case 0x71: case 0x72: return xmm ? F::XmmShift : (pp == Pp::None ? F::MmxShift : F::None);  // by an immediate
    case 0x73:  // psrlq, psllq by an immediate; psrldq, pslldq (xmm only)
        if (xmm) return (d.reg == 3 || d.reg == 7) ? F::ByteShiftXmm : F::XmmShift;
        return pp == Pp::None ? F::MmxShift : F::None;
    case 0x70:  // pshufw mm; pshufd, pshuflw, pshufhw xmm
        switch (pp) {
        case Pp::None: return F::MmxShift;
        case Pp::P66: return F::PshufdXmm;
        default: return F::XmmShift;
        }
    case 0x68: case 0x69: case 0x6A: case 0x6D: return xmm ? F::UnpackHighXmm : F::None;  // punpckh bw wd dq qdq
    case 0x63: case 0x67: case 0x6B: return xmm ? F::PackXmm : F::None;                  // packsswb packuswb packssdw
    case 0x28: case 0x29: return d.mem ? F::None : F::FpRegMove;                           // movaps, movapd
    case 0x6F: case 0x7F:  // movq mm, mm; movdqa/movdqu xmm, xmm
        if (d.mem) return op == 0x6F && pp == Pp::F3 ? F::UnalignedLoad : F::None;  // movdqu xmm, m128
        return F::FpRegMove;
    case 0xF0: return d.mem && pp == Pp::F2 ? F::UnalignedLoad : F::None;            // lddqu
    case 0x10: case 0x11:
        if (d.mem) return op == 0x10 && (pp == Pp::None || pp == Pp::P66) ? F::UnalignedLoad : F::None;
        if (pp == Pp::F3) return F::MovssReg;
        if (pp == Pp::F2) return F::MovsdReg;
        return F::FpRegMove;  // movups, movupd
    default: return F::None;
    }
}

}  // namespace

InsnForm x86_form(const X86Decoded& d, InsnClass cls) {
    // Microcoded and locked flows keep their class's timing; VEX and EVEX encodings postdate NetBurst.
    if (!d.has_opcode || d.vex || cls == InsnClass::Microcode) return F::None;
    switch (d.map) {
    case 0: return map0(d);
    case 1: return map1(d);
    default: return F::None;
    }
}

}  // namespace netburst::emu
