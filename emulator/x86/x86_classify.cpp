#include "emulator/x86/x86_classify.h"

#include "emulator/x86/x86_form.h"

namespace netburst::emu {

namespace {

using C = InsnClass;

std::int32_t read_rel(const X86Decoded& d, unsigned size) {
    // A direct branch's displacement is the instruction's last `size` bytes.
    if (d.length < size) return 0;
    std::uint32_t v = 0;
    for (unsigned k = 0; k < size; ++k) v |= static_cast<std::uint32_t>(d.bytes[d.length - size + k]) << (8 * k);
    if (size == 1) return static_cast<std::int8_t>(v);
    if (size == 2) return static_cast<std::int16_t>(v);
    return static_cast<std::int32_t>(v);
}

// SSE floating point by mandatory prefix: PS, PD, SS, SD.
C sse_fp(Pp pp) {
    switch (pp) {
    case Pp::None: return C::SsePackedSp;
    case Pp::P66: return C::SsePackedDp;
    case Pp::F3: return C::SseScalarSp;
    case Pp::F2: return C::SseScalarDp;
    }
    return C::SsePackedSp;
}
C sse_div(Pp pp) { return (pp == Pp::None || pp == Pp::F3) ? C::SseDivSp : C::SseDivDp; }
// MMX on 64-bit registers, or (with 66) the SSE2 integer form on 128-bit registers.
C simd_int(Pp pp, bool vex) { return (pp == Pp::P66 || vex) ? C::Simd128Int : C::Mmx64; }

// x87 escapes D8-DF. reg is ModRM bits 5:3, rm bits 2:0, mem whether it addresses memory.
C classify_x87(std::uint8_t op, std::uint8_t modrm, bool mem) {
    const unsigned reg = (modrm >> 3) & 7;
    const unsigned rm = modrm & 7;
    switch (op) {
    case 0xD8: case 0xDC:  // fadd fmul fcom fcomp fsub fsubr fdiv fdivr (m32/m64 or st(i))
        return reg >= 6 ? C::X87Div : C::X87Arith;
    case 0xDA:  // fiadd..fidivr m32int; register forms fcmovcc, fucompp
        if (mem) return reg >= 6 ? C::X87Div : C::X87Arith;
        return reg < 4 ? C::X87Move : C::X87Arith;
    case 0xDE:  // fiadd..fidivr m16int; faddp fmulp fcompp fsubrp fsubp fdivrp fdivp
        return reg >= 6 ? C::X87Div : C::X87Arith;
    case 0xD9:
        if (mem) {
            // fld m32, -, fst, fstp, fldenv, fldcw, fnstenv, fnstcw
            if (reg == 4 || reg == 5 || reg == 6) return C::Microcode;
            return C::X87Move;
        }
        switch (reg) {
        case 0: case 1: return C::X87Move;                      // fld st(i), fxch
        case 2: return C::Nop;                                  // fnop
        case 3: return C::X87Move;                              // fstp1 (undocumented alias)
        case 4: return C::X87Arith;                             // fchs fabs ftst fxam
        case 5: return C::X87Move;                              // fld1 fldl2t fldl2e fldpi fldlg2 fldln2 fldz
        case 6: return (rm == 6 || rm == 7) ? C::X87Move        // fdecstp fincstp
                                            : C::X87Complex;    // f2xm1 fyl2x fptan fpatan fxtract fprem1
        default:
            if (rm == 2) return C::X87Div;                      // fsqrt
            return C::X87Complex;                               // fprem fyl2xp1 fsincos frndint fscale fsin fcos
        }
    case 0xDB:
        if (mem) return (reg == 4 || reg == 6) ? C::Microcode : C::X87Move;  // fild fisttp fist fistp fld/fstp m80
        if (reg < 4) return C::X87Move;                                      // fcmovcc
        if (reg == 4) return C::Microcode;                                   // fclex, finit
        return C::X87Arith;                                                  // fucomi, fcomi
    case 0xDD:
        if (mem) return (reg == 4 || reg == 6) ? C::Microcode : C::X87Move;  // frstor, fnsave; fld/fst m64, fnstsw
        return (reg == 4 || reg == 5) ? C::X87Arith : C::X87Move;            // fucom(p); ffree, fst(p) st(i)
    default:  // DF
        if (mem) return (reg == 4 || reg == 6) ? C::X87Complex : C::X87Move;  // fbld, fbstp; fild/fist(p) m16/m64
        if (reg == 5 || reg == 6) return C::X87Arith;                         // fucomip, fcomip
        return C::X87Move;                                                    // ffreep, fnstsw ax
    }
}

// The one-byte map.
X86Class classify_map0(std::uint8_t op, const X86Decoded& c) {
    X86Class r;
    if (op < 0x40) {
        r.known = (op & 7) < 6;  // the rest are invalid in 64-bit mode
        return r;
    }
    if (op >= 0x50 && op <= 0x5F) return r;                        // push, pop
    if (op >= 0x70 && op <= 0x7F) {
        r.cls = C::CondBranch;
        r.has_rel = true;
        r.rel = read_rel(c, 1);
        return r;
    }
    if (op >= 0x80 && op <= 0x8B) {                                // group 1, test, xchg, mov
        if ((op == 0x86 || op == 0x87) && c.mem) r.cls = C::Microcode;  // xchg with memory is implicitly locked
        return r;
    }
    if (op >= 0x91 && op <= 0x9F) {                                // xchg rax, cbw, cwd, pushf, popf, sahf, lahf
        if (op == 0x9B) r.cls = C::Nop;                            // fwait
        if (op == 0x9D) r.cls = C::Microcode;                      // popf rewrites the flags register
        return r;
    }
    if ((op >= 0xA4 && op <= 0xA7) || (op >= 0xAA && op <= 0xAF) || (op >= 0x6C && op <= 0x6F)) {
        r.cls = C::StringOp;                                       // movs cmps stos lods scas ins outs
        r.rep = c.rep;
        r.compares = op == 0xA6 || op == 0xA7 || op == 0xAE || op == 0xAF;
        return r;
    }
    if (op >= 0xB0 && op <= 0xBF) return r;                        // mov imm
    if (op >= 0xD8 && op <= 0xDF) {
        r.cls = classify_x87(op, c.modrm, c.mem);
        return r;
    }
    switch (op) {
    case 0x63: case 0x68: case 0x6A: case 0x8C: case 0x8D: case 0x8E: case 0x8F:
    case 0xA0: case 0xA1: case 0xA2: case 0xA3: case 0xA8: case 0xA9:
    case 0xC6: case 0xC7: case 0xC9: case 0xD7: case 0xF5: case 0xF8: case 0xF9: case 0xFC: case 0xFD:
        return r;                                                  // movsxd, push imm, mov seg, lea, pop r/m,
                                                                   // mov moffs, test imm, mov r/m imm, leave,
                                                                   // xlat, cmc, clc, stc, cld, std
    case 0x69: case 0x6B:
        r.cls = C::IntMul;
        return r;
    case 0x90:
        r.cls = c.pp == Pp::F3 ? C::Halt : C::Nop;                 // pause, nop
        return r;
    case 0xC0: case 0xC1: case 0xD0: case 0xD1: case 0xD2: case 0xD3:
        r.cls = C::IntShift;
        return r;
    case 0xC2: case 0xC3: case 0xCA: case 0xCB:
        r.cls = C::Return;
        return r;
    case 0xCF:                                                     // iret
        r.cls = C::Return;
        return r;
    case 0xC8: case 0xCC: case 0xF1: case 0xE4: case 0xE5: case 0xE6: case 0xE7:
    case 0xEC: case 0xED: case 0xEE: case 0xEF: case 0xFA: case 0xFB:
        r.cls = C::Microcode;                                      // enter, int3, int1, in, out, cli, sti
        return r;
    case 0xCD:
        r.cls = C::Syscall;                                        // int n
        return r;
    case 0xE0: case 0xE1: case 0xE2: case 0xE3:
        r.cls = C::CondBranch;                                     // loopne, loope, loop, jrcxz
        r.has_rel = true;
        r.rel = read_rel(c, 1);
        return r;
    case 0xE8:
        r.cls = C::DirectCall;
        r.has_rel = true;
        r.rel = read_rel(c, 4);
        return r;
    case 0xE9: case 0xEB:
        r.cls = C::DirectJump;
        r.has_rel = true;
        r.rel = read_rel(c, op == 0xEB ? 1 : 4);
        return r;
    case 0xF4:
        r.cls = C::Halt;
        return r;
    case 0xF6: case 0xF7:                                          // group 3
        if (c.reg == 4 || c.reg == 5) r.cls = C::IntMul;
        else if (c.reg >= 6) r.cls = C::IntDiv;
        return r;
    case 0xFE:
        r.known = c.reg < 2;
        return r;
    case 0xFF:                                                     // group 5
        switch (c.reg) {
        case 2: case 3: r.cls = C::IndirectCall; break;
        case 4: case 5: r.cls = C::IndirectJump; break;
        case 7: r.known = false; break;
        default: break;                                            // inc, dec, push
        }
        return r;
    default:
        r.known = false;
        return r;
    }
}

// The 0F map (also VEX/EVEX map 1).
X86Class classify_map1(std::uint8_t op, const X86Decoded& c) {
    X86Class r;
    const Pp pp = c.pp;
    if (op >= 0x80 && op <= 0x8F) {
        r.cls = C::CondBranch;
        r.has_rel = true;
        r.rel = read_rel(c, 4);
        return r;
    }
    if ((op >= 0x40 && op <= 0x4F) || (op >= 0x90 && op <= 0x9F) || (op >= 0xC8 && op <= 0xCF)) return r;  // cmovcc, setcc, bswap
    if (op >= 0x18 && op <= 0x1F) {                               // prefetch hints, nop r/m, endbr
        r.cls = C::Nop;
        return r;
    }
    if (op >= 0x60 && op <= 0x6D) {                               // punpck*, pack*, pcmpgt*
        r.cls = simd_int(pp, c.vex);
        return r;
    }
    if ((op >= 0xD1 && op <= 0xFE) && op != 0xD6 && op != 0xE6 && op != 0xE7 && op != 0xF0 && op != 0xF7) {
        r.cls = simd_int(pp, c.vex);                               // MMX / SSE2 integer arithmetic
        return r;
    }
    switch (op) {
    case 0x05: case 0x34:
        r.cls = C::Syscall;                                        // syscall, sysenter
        return r;
    case 0x00: case 0x01: case 0x02: case 0x03: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0B:
    case 0x30: case 0x31: case 0x32: case 0x33: case 0x35: case 0xA2: case 0xAA:
        r.cls = C::Microcode;                                      // system instructions, wrmsr, rdtsc, rdmsr,
        return r;                                                  // rdpmc, sysexit, cpuid, rsm, ud2
    case 0x0D:
        r.cls = C::Nop;                                            // prefetchw
        return r;
    case 0x0E: case 0x0F: case 0x77:
        r.cls = c.vex ? C::SimdMove : C::Mmx64;                    // femms, 3DNow!, emms; vzeroupper/all
        return r;
    case 0x10: case 0x11: case 0x12: case 0x13: case 0x16: case 0x17: case 0x28: case 0x29: case 0x2B:
    case 0x50: case 0xD6: case 0xE7: case 0xF7: case 0xF0:
        r.cls = C::SimdMove;                                       // movups/ss/sd, movl/hps/pd, movaps, movntps,
        return r;                                                  // movmskps, movq, movntq/dq, maskmovq, lddqu
    case 0x6E: case 0x6F: case 0x7E: case 0x7F:
        r.cls = C::SimdMove;                                       // movd, movq, movdqa, movdqu
        return r;
    case 0x14: case 0x15: case 0xC6:                               // unpcklps/pd, unpckhps/pd, shufps/pd
    case 0x54: case 0x55: case 0x56: case 0x57:                    // and, andn, or, xor ps/pd
        r.cls = pp == Pp::P66 ? C::SsePackedDp : C::SsePackedSp;
        return r;
    case 0x2A:                                                     // cvtpi2ps cvtpi2pd cvtsi2ss cvtsi2sd
    case 0x2C: case 0x2D:                                          // cvt(t)ps2pi cvt(t)pd2pi cvt(t)ss2si cvt(t)sd2si
    case 0x2E: case 0x2F:                                          // ucomiss/sd, comiss/sd
        if (op >= 0x2E) r.cls = pp == Pp::P66 ? C::SseScalarDp : C::SseScalarSp;
        else r.cls = sse_fp(pp);
        return r;
    case 0x51: case 0x5E:                                          // sqrt, div
        r.cls = sse_div(pp);
        return r;
    case 0x52: case 0x53: case 0x58: case 0x59: case 0x5C: case 0x5D: case 0x5F: case 0xC2:
        r.cls = sse_fp(pp);                                        // rsqrt rcp add mul sub min max cmp
        return r;
    case 0x5A:                                                     // cvtps2pd cvtpd2ps cvtss2sd cvtsd2ss, by source
        r.cls = sse_fp(pp);
        return r;
    case 0x5B:                                                     // cvtdq2ps cvtps2dq cvttps2dq
        r.cls = C::SsePackedSp;
        return r;
    case 0xE6:                                                     // cvttpd2dq cvtdq2pd cvtpd2dq
        r.cls = C::SsePackedDp;
        return r;
    case 0x7C: case 0x7D: case 0xD0:                               // hadd, hsub, addsub (ps with F2, pd with 66)
        r.cls = pp == Pp::P66 ? C::SsePackedDp : C::SsePackedSp;
        return r;
    case 0x70: case 0x71: case 0x72: case 0x73: case 0x74: case 0x75: case 0x76: case 0xC4: case 0xC5:
        r.cls = simd_int(pp, c.vex);                               // pshuf*, shifts by immediate, pcmpeq, pinsrw,
        return r;                                                  // pextrw
    case 0xA0: case 0xA1: case 0xA8: case 0xA9:                    // push/pop fs, gs
    case 0xA3: case 0xAB: case 0xB3: case 0xBB: case 0xBA:         // bt bts btr btc
    case 0xB6: case 0xB7: case 0xBE: case 0xBF:                    // movzx movsx
    case 0xB8: case 0xBC: case 0xBD:                               // popcnt, bsf/tzcnt, bsr/lzcnt
    case 0xC3:                                                     // movnti
        return r;
    case 0xA4: case 0xA5: case 0xAC: case 0xAD:
        r.cls = C::IntShift;                                       // shld, shrd
        return r;
    case 0xAF:
        r.cls = C::IntMul;
        return r;
    case 0xB0: case 0xB1: case 0xC0: case 0xC1:                    // cmpxchg, xadd
        if (c.lock) r.cls = C::Microcode;
        return r;
    case 0xC7:                                                     // cmpxchg8b/16b, rdrand, rdseed
        r.cls = C::Microcode;
        return r;
    case 0xAE:                                                     // group 15
        if (!c.mem && c.reg >= 5) {
            r.cls = C::Fence;                                      // lfence, mfence, sfence
            return r;
        }
        r.cls = C::Microcode;                                      // fxsave fxrstor ldmxcsr stmxcsr xsave xrstor
        return r;                                                  // clflush
    default:
        r.known = false;
        return r;
    }
}

// The 0F38 map (SSSE3, SSE4.1/4.2, and AVX forms).
X86Class classify_map2(std::uint8_t op, const X86Decoded& c) {
    X86Class r;
    if (op == 0xF0 || op == 0xF1) {                                // movbe, crc32
        if (c.pp == Pp::F2 || !c.vex) return r;
    }
    if (c.vex && op >= 0xF2) return r;                             // BMI: andn, bzhi, pdep, pext, shlx...
    switch (op) {
    case 0x14: case 0x15:                                          // blendvps/pd
        r.cls = op == 0x14 ? C::SsePackedSp : C::SsePackedDp;
        return r;
    case 0x18: case 0x1A: case 0x2A:                               // vbroadcastss/f128, movntdqa
        r.cls = C::SimdMove;
        return r;
    case 0x19:
        r.cls = C::SimdMove;                                       // vbroadcastsd
        return r;
    default:
        break;
    }
    if ((op >= 0x96 && op <= 0xBF) || op == 0x0C || op == 0x0D || op == 0x0E || op == 0x0F) {
        // FMA and vpermilps/pd, vtestps/pd: floating point; the width comes from VEX.W (not decoded here), so
        // count them as packed single precision.
        r.cls = C::SsePackedSp;
        return r;
    }
    r.cls = simd_int(c.pp, c.vex);
    return r;
}

// The 0F3A map.
X86Class classify_map3(std::uint8_t op, const X86Decoded& c) {
    X86Class r;
    switch (op) {
    case 0x08: case 0x0C: case 0x40:                               // roundps, blendps, dpps
        r.cls = C::SsePackedSp;
        return r;
    case 0x09: case 0x0D: case 0x41:                               // roundpd, blendpd, dppd
        r.cls = C::SsePackedDp;
        return r;
    case 0x0A:                                                     // roundss
        r.cls = C::SseScalarSp;
        return r;
    case 0x0B:                                                     // roundsd
        r.cls = C::SseScalarDp;
        return r;
    case 0x17: case 0x21:                                          // extractps, insertps
        r.cls = C::SsePackedSp;
        return r;
    case 0xF0:                                                     // rorx (BMI2)
        r.cls = C::IntShift;
        return r;
    default:
        r.cls = simd_int(c.pp, c.vex);
        return r;
    }
}

}  // namespace

X86Class classify_x86(const std::uint8_t* bytes, unsigned length) {
    const X86Decoded d = decode_x86(bytes, length);
    X86Class r;
    if (!d.has_opcode) {
        r.known = false;
        return r;
    }
    switch (d.map) {
    case 0: r = classify_map0(d.op, d); break;
    case 1: r = classify_map1(d.op, d); break;
    case 2: r = classify_map2(d.op, d); break;
    case 3: r = classify_map3(d.op, d); break;
    default:  // EVEX maps 5/6 (AVX512-FP16) and reserved maps
        r.cls = C::SsePackedSp;
        r.known = false;
        break;
    }
    if (d.lock && (r.cls == C::IntAlu || r.cls == C::IntShift)) r.cls = C::Microcode;  // locked read-modify-write
    r.form = x86_form(d, r.cls);
    r.memory_form = d.mem;
    r.lock = d.lock;
    return r;
}

bool is_valgrind_special_sequence(const std::uint8_t* bytes, unsigned length) {
    // rol rdi,3; rol rdi,13; rol rdi,61; rol rdi,51 (valgrind.h, amd64)
    static constexpr std::uint8_t kPreamble[16] = {0x48, 0xC1, 0xC7, 0x03, 0x48, 0xC1, 0xC7, 0x0D,
                                                   0x48, 0xC1, 0xC7, 0x3D, 0x48, 0xC1, 0xC7, 0x33};
    if (length < sizeof kPreamble) return false;
    for (unsigned i = 0; i < sizeof kPreamble; ++i)
        if (bytes[i] != kPreamble[i]) return false;
    return true;
}

}  // namespace netburst::emu
