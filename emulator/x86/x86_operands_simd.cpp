// The operand rules of the SSE, SSE2, SSE3 and MMX instructions (0F map) and of the common VEX (AVX, AVX2, BMI)
// encodings. Operand roles are the Intel SDM's (volume 2); x86_operands.h says what counts as a read.
#include "emulator/x86/x86_operand_builder.h"

namespace netburst::emu::x86ops {

namespace {

constexpr File G = File::Gpr;
constexpr File X = File::Xmm;
constexpr File M = File::Mmx;

// dest = dest op src: packed and scalar arithmetic, logic, compares, unpacks, shuffles.
void rmw(Builder& b, File f) {
    b.read_E(f);
    b.rmw_G(f);
}
// dest = f(src), the whole destination written: full-width moves and conversions.
void overwrite(Builder& b, File dest, File src) {
    b.read_E(src);
    b.write_G(dest);
}
// dest's low element = f(src), the rest of dest kept: sqrtss, cvtss2sd, cvtsi2sd, movlps m64...
void merge(Builder& b, File dest, File src) {
    b.read_E(src);
    b.rmw_G(dest);
}
// r/m = reg: stores, and register moves in the store direction.
void store(Builder& b, File f) {
    b.read_G(f);
    b.write_E(f);
}
// A general register's operand size for movd/movq and the conversions to and from integers: REX.W 8, else 4.
unsigned gpr_size(const Builder& b) { return b.d().rex_w ? 8 : 4; }

// The MMX and SSE2 integer opcodes that operate on mm without 66 and on xmm with it, dest = dest op src.
bool is_integer_rmw(std::uint8_t op) {
    if (op >= 0x60 && op <= 0x6D) return true;  // punpck*, packss*, pcmpgt*, packus*, punpck*qdq
    if (op >= 0x74 && op <= 0x76) return true;  // pcmpeq*
    if (op >= 0xD1 && op <= 0xFE) return op != 0xD6 && op != 0xD7 && op != 0xE6 && op != 0xE7 && op != 0xF0 &&
                                         op != 0xF7;
    return false;
}

X86Operands legacy(Builder& b, X86OperandOptions options) {
    const X86Decoded& d = b.d();
    const std::uint8_t op = d.op;
    const Pp pp = d.pp;
    const bool ps = pp == Pp::None, pd = pp == Pp::P66, ss = pp == Pp::F3, sd = pp == Pp::F2;
    const File vf = pd ? X : M;  // MMX without 66, SSE2 on xmm with it

    if (is_integer_rmw(op)) {
        if (!(ps || pd)) return b.unknown();
        if ((op == 0x6C || op == 0x6D) && !pd) return b.unknown();  // punpcklqdq, punpckhqdq: xmm only
        // pxor of a register with itself on every Pentium 4; psubb/w/d/q on the 90 nm ones.
        const bool zero_idiom = b.same_registers() &&
                                (op == 0xEF || (options.prescott_idioms && op >= 0xF8 && op <= 0xFB));
        if (zero_idiom) b.write_G(vf);
        else rmw(b, vf);
        return b.result();
    }
    switch (op) {
    case 0x10:  // movups, movupd; movss, movsd: from memory they zero the rest, between registers they merge
        if ((ss || sd) && !d.mem) merge(b, X, X);
        else overwrite(b, X, X);
        break;
    case 0x11:
        if ((ss || sd) && !d.mem) b.read_E(X);  // the destination's upper part is kept
        store(b, X);
        break;
    case 0x12: case 0x16:  // movlps/movhps m64, movhlps/movlhps (ps); movlpd/movhpd (pd); movddup, movsldup,
                           // movshdup
        if (ps || pd) merge(b, X, X);
        else overwrite(b, X, X);
        break;
    case 0x13: case 0x17: case 0x2B: case 0x29:  // movlps/pd, movhps/pd m64; movntps/pd; movaps/pd store
        if (!(ps || pd)) return b.unknown();
        store(b, X);
        break;
    case 0x14: case 0x15: case 0xC6:  // unpcklps/pd, unpckhps/pd, shufps/pd
    case 0x58: case 0x59: case 0x5C: case 0x5D: case 0x5E: case 0x5F: case 0xC2:  // add mul sub min div max cmp
        rmw(b, X);
        break;
    case 0x54: case 0x55: case 0x56: case 0x57:  // and, andn, or, xor ps/pd
        if (op == 0x57 && options.prescott_idioms && b.same_registers()) b.write_G(X);
        else rmw(b, X);
        break;
    case 0x28:  // movaps, movapd
        overwrite(b, X, X);
        break;
    case 0x2A:
        if (ps) merge(b, X, M);                 // cvtpi2ps: the upper half is kept
        else if (pd) overwrite(b, X, M);        // cvtpi2pd
        else {                                  // cvtsi2ss, cvtsi2sd: the rest of the register is kept
            b.read_E(G, gpr_size(b));
            b.rmw_G(X);
        }
        break;
    case 0x2C: case 0x2D:
        if (ps || pd) overwrite(b, M, X);       // cvt(t)ps2pi, cvt(t)pd2pi
        else {                                  // cvt(t)ss2si, cvt(t)sd2si
            b.read_E(X);
            b.write_G(G, gpr_size(b));
        }
        break;
    case 0x2E: case 0x2F:  // ucomiss/sd, comiss/sd
        b.read_E(X);
        b.read_G(X);
        b.write_flags();
        break;
    case 0x50:  // movmskps/pd
        b.read_E(X);
        b.write_G(G, gpr_size(b));
        break;
    case 0x51: case 0x52: case 0x53: case 0x5A:  // sqrt, rsqrt, rcp; cvtps2pd cvtpd2ps cvtss2sd cvtsd2ss
        if (ss || sd) merge(b, X, X);
        else overwrite(b, X, X);
        break;
    case 0x5B: case 0xE6: case 0xF0:  // cvtdq2ps cvtps2dq cvttps2dq; cvttpd2dq cvtdq2pd cvtpd2dq; lddqu
        overwrite(b, X, X);
        break;
    case 0x6E:  // movd/movq mm or xmm, r/m
        b.read_E(G, gpr_size(b));
        b.write_G(vf);
        break;
    case 0x6F:  // movq mm; movdqa, movdqu
        overwrite(b, ss ? X : vf, ss ? X : vf);
        break;
    case 0x70:  // pshufw; pshufd, pshufhw, pshuflw
        overwrite(b, ps ? M : X, ps ? M : X);
        break;
    case 0x71: case 0x72: case 0x73: {  // shifts by an immediate, on the r/m register
        const unsigned r = d.reg;
        const bool valid = r == 2 || r == 6 || (r == 4 && op != 0x73) || ((r == 3 || r == 7) && op == 0x73 && pd);
        if (!valid || !(ps || pd) || d.mem) return b.unknown();
        b.rmw_E(vf);
        break;
    }
    case 0x77:  // emms
        b.write_x87();
        break;
    case 0x7C: case 0x7D: case 0xD0:  // haddpd/ps, hsubpd/ps, addsubpd/ps
        rmw(b, X);
        break;
    case 0x7E:
        if (ss) overwrite(b, X, X);             // movq xmm, xmm/m64
        else {                                  // movd/movq r/m, mm or xmm
            b.read_G(vf);
            b.write_E(G, gpr_size(b));
        }
        break;
    case 0x7F:  // movq mm store; movdqa, movdqu store
        store(b, ss ? X : vf);
        break;
    case 0xC4:  // pinsrw
        b.read_E(G, 4);
        b.rmw_G(vf);
        break;
    case 0xC5:  // pextrw
        b.read_E(vf);
        b.write_G(G, 4);
        break;
    case 0xD6:
        if (pd) store(b, X);                    // movq xmm/m64, xmm (a register destination's upper half zeroed)
        else if (ss) overwrite(b, X, M);        // movq2dq
        else if (sd) overwrite(b, M, X);        // movdq2q
        else return b.unknown();
        break;
    case 0xD7:  // pmovmskb
        b.read_E(vf);
        b.write_G(G, 4);
        break;
    case 0xE7:  // movntq, movntdq
        store(b, vf);
        break;
    case 0xF7:  // maskmovq, maskmovdqu: the store goes to [rdi]
        b.read_E(vf);
        b.read_G(vf);
        b.read_gpr(kRdi);
        break;
    default:
        return b.unknown();
    }
    return b.result();
}

// The few SSSE3, SSE4.2 and movbe forms the host's C library runs (string functions) when the guest sees the host's CPUID.
X86Operands legacy_0f38_0f3a(Builder& b) {
    const X86Decoded& d = b.d();
    const File vf = d.pp == Pp::P66 ? X : M;
    if (d.map == 2 && d.op == 0x00 && (d.pp == Pp::None || d.pp == Pp::P66)) {  // pshufb
        rmw(b, vf);
    } else if (d.map == 3 && d.op == 0x0F && (d.pp == Pp::None || d.pp == Pp::P66)) {  // palignr
        rmw(b, vf);
    } else if (d.map == 2 && (d.op == 0xF0 || d.op == 0xF1) && d.mem && d.pp != Pp::F2 && d.pp != Pp::F3) {
        if (d.op == 0xF0) b.read_E(G);                                     // movbe r, m
        else b.read_G(G, b.opsize());                                      // movbe m, r
        if (d.op == 0xF0) b.write_G(G, b.opsize());
        else b.write_E(G, b.opsize());
    } else if (d.map == 2 && d.op == 0x17 && d.pp == Pp::P66) {  // ptest
        b.read_E(X);
        b.read_G(X);
        b.write_flags();
    } else if (d.map == 3 && d.op >= 0x60 && d.op <= 0x63 && d.pp == Pp::P66) {
        // pcmpestrm, pcmpestri, pcmpistrm, pcmpistri: explicit lengths in rax and rdx for the "e" forms; the
        // index goes to ecx, the mask to xmm0
        b.read_E(X);
        b.read_G(X);
        if (d.op <= 0x61) b.read_gprs(reg_gpr(kRax) | reg_gpr(kRdx));
        if (d.op & 1) b.write_gpr(kRcx, 4);
        else b.write_xmm(0);
        b.write_flags();
    } else {
        return b.unknown();
    }
    return b.result();
}

// VEX-encoded instructions (AVX, AVX2, BMI1/2): no Pentium 4 runs them, but the host's C library does when the
// guest sees the host's CPUID. The common forms only; the rest fall back to the IR. A VEX destination register is
// written whole (the upper part zeroed), so it is read only when it is also a source.
X86Operands vex(Builder& b) {
    const X86Decoded& d = b.d();
    const std::uint8_t op = d.op;
    auto nds = [&] {  // dest = vvvv op r/m
        b.read_xmm(d.vvvv);
        b.read_E(X);
        b.write_G(X);
    };
    if (d.map == 1) {
        if (op >= 0xD1 && op <= 0xFE && op != 0xD6 && op != 0xD7 && op != 0xE6 && op != 0xE7 && op != 0xF0 &&
            op != 0xF7) {
            // Integer arithmetic and logic; vpxor/vpsub* of a register with itself do not read it.
            const bool zero_idiom = (op == 0xEF || (op >= 0xF8 && op <= 0xFB)) && !d.mem && d.rm_n == d.vvvv;
            if (zero_idiom) b.write_G(X);
            else nds();
            return b.result();
        }
        if ((op >= 0x60 && op <= 0x6D) || (op >= 0x74 && op <= 0x76) || (op >= 0x54 && op <= 0x5F && op != 0x5A &&
                                                                          op != 0x5B) ||
            op == 0x14 || op == 0x15 || op == 0xC2 || op == 0xC6) {
            if (op == 0x57 && !d.mem && d.rm_n == d.vvvv) b.write_G(X);  // vxorps/pd zero idiom
            else nds();
            return b.result();
        }
        switch (op) {
        case 0x10: case 0x28: case 0x6F: case 0x12: case 0x16:
            if (op == 0x10 && (d.pp == Pp::F3 || d.pp == Pp::F2) && !d.mem) nds();  // vmovss/sd x, x, x
            else if ((op == 0x12 || op == 0x16) && d.pp != Pp::F3 && d.pp != Pp::F2) nds();  // vmovlps/hps...
            else overwrite(b, X, X);
            return b.result();
        case 0x11: case 0x29: case 0x7F: case 0xE7: case 0x2B: case 0x13: case 0x17:
            if (op == 0x11 && (d.pp == Pp::F3 || d.pp == Pp::F2) && !d.mem) b.read_xmm(d.vvvv);
            store(b, X);
            return b.result();
        case 0x6E:  // vmovd/vmovq xmm, r/m
            b.read_E(G, gpr_size(b));
            b.write_G(X);
            return b.result();
        case 0x7E:
            if (d.pp == Pp::F3) overwrite(b, X, X);
            else {
                b.read_G(X);
                b.write_E(G, gpr_size(b));
            }
            return b.result();
        case 0xD6:
            store(b, X);
            return b.result();
        case 0xD7: case 0x50:  // vpmovmskb, vmovmskps/pd
            b.read_E(X);
            b.write_G(G, gpr_size(b));
            return b.result();
        case 0x70:  // vpshufd/hw/lw
        case 0x51: case 0x5A: case 0x5B: case 0xE6:  // (scalar forms read vvvv: below)
            if ((d.pp == Pp::F3 || d.pp == Pp::F2) && (op == 0x51 || op == 0x5A)) nds();
            else overwrite(b, X, X);
            return b.result();
        case 0x2A:  // vcvtsi2ss/sd
            b.read_xmm(d.vvvv);
            b.read_E(G, gpr_size(b));
            b.write_G(X);
            return b.result();
        case 0x2C: case 0x2D:  // vcvt(t)ss2si, vcvt(t)sd2si
            b.read_E(X);
            b.write_G(G, gpr_size(b));
            return b.result();
        case 0x2E: case 0x2F:
            b.read_E(X);
            b.read_G(X);
            b.write_flags();
            return b.result();
        case 0x71: case 0x72: case 0x73:  // shifts by immediate: vvvv = r/m shifted
            b.read_E(X);
            b.write_xmm(d.vvvv);
            return b.result();
        case 0x77:  // vzeroupper, vzeroall
            b.write_all_xmm();
            return b.result();
        default:
            return b.unknown();
        }
    }
    if (d.map == 2) {
        switch (op) {
        case 0x00: case 0x04: case 0x0B: case 0x1C: case 0x1D: case 0x1E:  // vpshufb vpmaddubsw vpmulhrsw vpabs*
            if (op >= 0x1C) overwrite(b, X, X);
            else nds();
            return b.result();
        case 0x17:  // vptest
            b.read_E(X);
            b.read_G(X);
            b.write_flags();
            return b.result();
        case 0x18: case 0x19: case 0x58: case 0x59: case 0x78: case 0x79:  // vbroadcast*, vpbroadcast*
            overwrite(b, X, X);
            return b.result();
        case 0x38: case 0x39: case 0x3A: case 0x3B: case 0x3C: case 0x3D: case 0x3E: case 0x3F:  // vpmin*/vpmax*
        case 0x29: case 0x37: case 0x40:  // vpcmpeqq, vpcmpgtq, vpmulld
            nds();
            return b.result();
        case 0xF2:  // andn r, vvvv, r/m
            b.read_gpr(d.vvvv);
            b.read_E(G, b.opsize());
            b.write_G(G, b.opsize());
            b.write_flags();
            return b.result();
        case 0xF3:  // blsr, blsmsk, blsi: vvvv = f(r/m)
            if (d.reg < 1 || d.reg > 3) return b.unknown();
            b.read_E(G, b.opsize());
            b.write_gpr(d.vvvv, b.opsize());
            b.write_flags();
            return b.result();
        case 0xF5: case 0xF6: case 0xF7:
            if (op == 0xF6 && d.pp != Pp::F2) return b.unknown();
            b.read_E(G, b.opsize());
            if (op == 0xF6) {  // mulx: rdx * r/m into reg:vvvv, flags kept
                b.read_gpr(kRdx);
                b.write_G(G, b.opsize());
                b.write_gpr(d.vvvv, b.opsize());
                return b.result();
            }
            b.read_gpr(d.vvvv);  // the index, mask, count or control
            if (op == 0xF5 && d.pp == Pp::None) b.write_flags();  // bzhi
            else if (op == 0xF7 && d.pp == Pp::None) b.write_flags();  // bextr
            b.write_G(G, b.opsize());  // bzhi, pdep, pext, sarx, shlx, shrx, bextr
            return b.result();
        default:
            return b.unknown();
        }
    }
    if (d.map == 3) {
        switch (op) {
        case 0x0F:  // vpalignr
            nds();
            return b.result();
        case 0xF0:  // rorx
            b.read_E(G, b.opsize());
            b.write_G(G, b.opsize());
            return b.result();
        default:
            return b.unknown();
        }
    }
    return b.unknown();
}

}  // namespace

X86Operands simd_operands(Builder& b, X86OperandOptions options) {
    if (b.d().vex) return vex(b);
    return b.d().map == 1 ? legacy(b, options) : legacy_0f38_0f3a(b);
}

}  // namespace netburst::emu::x86ops
