// The two-byte opcode map 0F (Intel SDM volume 2, Appendix A, Table A-3), legacy and VEX-encoded: the system and
// general-purpose opcodes, and the MMX, SSE, SSE2 and SSE3 ones a Pentium 4 has. The VEX column gives the common
// AVX forms the host's C library runs when the guest sees the host's CPUID; the others fall back to the IR. A VEX
// destination register is written whole (the upper part zeroed), so it is read only when it is also a source.
#include "emulator/x86/opcode_table.h"
#include "emulator/x86/operand_rules.h"

namespace netburst::emu::x86ops {

namespace {

using namespace rules;
using namespace row_names;

// The classes of an opcode's PS, PD, SS and SD forms.
constexpr ByPrefix<C> kSseFp{C::SsePackedSp, C::SsePackedDp, C::SseScalarSp, C::SseScalarDp};
constexpr ByPrefix<C> kSseDiv{C::SseDivSp, C::SseDivDp, C::SseDivSp, C::SseDivDp};
constexpr ByPrefix<C> kPacked{C::SsePackedSp, C::SsePackedDp, C::SsePackedSp, C::SsePackedSp};
constexpr ByPrefix<C> kScalar{C::SseScalarSp, C::SseScalarDp, C::SseScalarSp, C::SseScalarSp};
constexpr ByPrefix<E> kSse3With66OrF2{E::None, E::Sse3, E::None, E::Sse3};

// ---- Forms -------------------------------------------------------------------------------------------------------

// Register to register moves: movaps, movapd, movdqa, movdqu, movq mm, mm.
F register_move(const X86Decoded& d) { return d.mem ? F::None : F::FpRegMove; }
// movzx r32/r64, r8 (not movzx r16, r8).
F movzx_byte_form(const X86Decoded& d) { return !d.mem && (d.rex_w || !d.op66) ? F::MovzxByte : F::None; }

// ---- General-purpose and system operand rules ---------------------------------------------------------------------

void xgetbv(Builder& b) { b.read_gpr(kRcx); b.write_gpr(kRax, 4); b.write_gpr(kRdx, 4); }
void rdtscp(Builder& b) { b.write_gpr(kRax, 4); b.write_gpr(kRdx, 4); b.write_gpr(kRcx, 4); }
void rdtsc(Builder& b) { b.write_gpr(kRax, 4); b.write_gpr(kRdx, 4); }
// syscall: rcx and r11 take rip and rflags; the kernel (Linux ABI) reads rax and the six argument registers and
// returns in rax.
void syscall(Builder& b) {
    b.read_flags();
    b.read_gpr(kRax);
    b.read_gprs(reg_gpr(kRdi) | reg_gpr(kRsi) | reg_gpr(kRdx) | reg_gpr(kR10) | reg_gpr(kR8) | reg_gpr(kR9));
    b.write_gpr(kRax, 8);
    b.write_gpr(kRcx, 8);
    b.write_gpr(kR11, 8);
}
void cpuid(Builder& b) {
    b.read_gpr(kRax);
    b.read_gpr(kRcx);
    b.write_gprs(reg_gpr(kRax) | reg_gpr(kRbx) | reg_gpr(kRcx) | reg_gpr(kRdx));
}
void cmov(Builder& b) { b.read_flags(); b.read_E(G, b.opsize()); b.rmw_G(G, b.opsize()); }  // dest kept if false
void setcc(Builder& b) { b.read_flags(); b.write_E(G, 1); }
void bswap(Builder& b) { b.read_gpr(b.opcode_register()); b.write_gpr(b.opcode_register(), 8); }
// bt, bts, btr, btc: CF written, ZF kept.
void bt(Builder& b) { b.read_E(G, b.opsize()); b.read_G(G, b.opsize()); b.merge_flags(); }
void bts(Builder& b) { bt(b); b.write_E(G, b.opsize()); }
void bt_imm(Builder& b) { b.read_E(G, b.opsize()); b.merge_flags(); }
void bts_imm(Builder& b) { bt_imm(b); b.write_E(G, b.opsize()); }
// shld, shrd: a count of 0 keeps the flags.
void double_shift(Builder& b) { b.rmw_E(G, b.opsize()); b.read_G(G, b.opsize()); b.write_flags(); }
void double_shift_imm(Builder& b) {
    double_shift(b);
    if ((b.d().imm8() & (b.opsize() == 8 ? 0x3F : 0x1F)) == 0) b.read_flags();
}
void double_shift_cl(Builder& b) { double_shift(b); b.read_gpr(kRcx); b.read_flags(); }
void imul(Builder& b) { b.read_E(G, b.opsize()); b.rmw_G(G, b.opsize()); b.write_flags(); }
void cmpxchg(Builder& b) {  // compares with rax, writes r/m or rax
    b.read_gpr(kRax);
    b.rmw_E(G, b.wsize());
    b.read_G(G, b.wsize());
    b.write_gpr(kRax, b.wsize());
    b.write_flags();
}
void xadd(Builder& b) { b.rmw_E(G, b.wsize()); b.rmw_G(G, b.wsize()); b.write_flags(); }
void extend8(Builder& b) { b.read_E(G, 1); b.write_G(G, b.opsize()); }   // movzx, movsx r, r/m8
void extend16(Builder& b) { b.read_E(G, 2); b.write_G(G, b.opsize()); }  // movzx, movsx r, r/m16
// popcnt, bsf, bsr (tzcnt and lzcnt: a Pentium 4 runs them as bsf and bsr). The destination is undefined for a
// zero source: not read.
void bit_count(Builder& b) { b.read_E(G, b.opsize()); b.write_G(G, b.opsize()); b.write_flags(); }
void movnti(Builder& b) { b.address(); b.read_G(G, b.opsize()); }
// The x87, MMX and SSE state: fxsave, fxrstor, xsave, xrstor (rax and rdx hold the mask).
void save_state(Builder& b) { b.address(); b.read_x87(); b.read_all_st(); b.read_all_xmm(); }
void restore_state(Builder& b) { b.address(); b.write_x87(); b.write_all_st(); b.write_all_xmm(); }
void xsave(Builder& b) { save_state(b); b.read_gpr(kRax); b.read_gpr(kRdx); }
void xrstor(Builder& b) { restore_state(b); b.read_gpr(kRax); b.read_gpr(kRdx); }
void cmpxchg8b(Builder& b) {  // only ZF is written
    b.address();
    b.read_gprs(reg_gpr(kRax) | reg_gpr(kRdx) | reg_gpr(kRbx) | reg_gpr(kRcx));
    b.write_gpr(kRax, 8);
    b.write_gpr(kRdx, 8);
    b.merge_flags();
}
void rdrand(Builder& b) { b.write_E(G, b.opsize()); b.write_flags(); }

// ---- SIMD operand rules --------------------------------------------------------------------------------------------

// The MMX and SSE2 integer operations, dest = dest op src. pxor of a register with itself is a zero idiom on every
// Pentium 4; psubb/w/d/q on the 90 nm ones.
void pxor(Builder& b) {
    if (b.same_registers()) b.write_G(b.mmx_or_xmm());
    else rmw_v(b);
}
void psub(Builder& b) {
    if (b.prescott_idioms() && b.same_registers()) b.write_G(b.mmx_or_xmm());
    else rmw_v(b);
}
void xorps(Builder& b) {  // xorps, xorpd: a zero idiom on the 90 nm Pentium 4
    if (b.prescott_idioms() && b.same_registers()) b.write_G(X);
    else rmw_x(b);
}
void store_keep_upper(Builder& b) { b.read_E(X); store_x(b); }           // movss, movsd xmm, xmm (store form)
void store_vvvv(Builder& b) { b.read_xmm(b.d().vvvv); store_x(b); }       // vmovss, vmovsd xmm, xmm, xmm
void cvt_from_gpr(Builder& b) { b.read_E(G, b.gpr_size()); b.rmw_G(X); }  // cvtsi2ss, cvtsi2sd: the rest kept
void vcvt_from_gpr(Builder& b) { b.read_xmm(b.d().vvvv); b.read_E(G, b.gpr_size()); b.write_G(X); }
void movd_to(Builder& b) { b.read_E(G, b.gpr_size()); b.write_G(b.mmx_or_xmm()); }  // movd/movq mm or xmm, r/m
void movd_from(Builder& b) { b.read_G(b.mmx_or_xmm()); b.write_E(G, b.gpr_size()); }
void shift_by_imm(Builder& b) { b.rmw_E(b.mmx_or_xmm()); }                // on the r/m register
void vshift_by_imm(Builder& b) { b.read_E(X); b.write_xmm(b.d().vvvv); }  // vvvv = r/m shifted
void emms(Builder& b) { b.write_x87(); }
void vzero(Builder& b) { b.write_all_xmm(); }                               // vzeroupper, vzeroall
void pinsrw(Builder& b) { b.read_E(G, 4); b.rmw_G(b.mmx_or_xmm()); }
void pextrw(Builder& b) { b.read_E(b.mmx_or_xmm()); b.write_G(G, 4); }   // also pmovmskb
void maskmov(Builder& b) { b.read_E(b.mmx_or_xmm()); b.read_G(b.mmx_or_xmm()); b.read_gpr(kRdi); }  // to [rdi]

// ---- The rows ----------------------------------------------------------------------------------------------------

constexpr OpcodeRow kRows[] = {
    R(0x00).cls(C::Microcode),                                                       // sldt, str, lldt...
    R(0x01).regform().reg(1).rm(0, 1).cls(C::Microcode).ext(E::Monitor),             // monitor, mwait
    R(0x01).regform().reg(2).rm(0).cls(C::Microcode).ext(E::Xsave).ops(xgetbv),
    R(0x01).regform().reg(2).rm(1).cls(C::Microcode).ext(E::Xsave),                  // xsetbv
    R(0x01).regform().reg(2).rm(5, 6).cls(C::Microcode).ext(E::Rtm),                 // xend, xtest
    R(0x01).regform().reg(7).rm(1).cls(C::Microcode).ext(E::Rdtscp).ops(rdtscp),
    R(0x01).cls(C::Microcode),                                                       // system instructions
    R(0x02, 0x03).cls(C::Microcode),                                                 // lar, lsl
    R(0x05).cls(C::Syscall).ops(syscall),
    R(0x06, 0x09).cls(C::Microcode),                                                 // clts sysret invd wbinvd
    R(0x0B).cls(C::Microcode).ops(none),                                      // ud2
    R(0x0D).cls(C::Nop).ext(E::Prefetchw).ops(address),                       // prefetchw
    R(0x0E, 0x0F).legacy().cls(C::Mmx64),                                            // femms, 3DNow!
    R(0x0E, 0x0F).cls(C::SimdMove),

    // movups/pd, movss/sd: from memory they zero the rest of the register, between registers they merge.
    R(0x10).mem().pp(P0 | P66).cls(C::SimdMove).form(F::UnalignedLoad).both_ops(overwrite<X, X>),
    R(0x10).mem().cls(C::SimdMove).both_ops(overwrite<X, X>),
    R(0x10).pp(PF3).cls(C::SimdMove).form(F::MovssReg).ops(merge<X, X>).vex_ops(nds),
    R(0x10).pp(PF2).cls(C::SimdMove).form(F::MovsdReg).ops(merge<X, X>).vex_ops(nds),
    R(0x10).cls(C::SimdMove).form(F::FpRegMove).both_ops(overwrite<X, X>),
    R(0x11).mem().cls(C::SimdMove).both_ops(store_x),
    R(0x11).pp(PF3).cls(C::SimdMove).form(F::MovssReg).ops(store_keep_upper).vex_ops(store_vvvv),
    R(0x11).pp(PF2).cls(C::SimdMove).form(F::MovsdReg).ops(store_keep_upper).vex_ops(store_vvvv),
    R(0x11).cls(C::SimdMove).form(F::FpRegMove).both_ops(store_x),
    // movlps/pd, movhlps (12), movhps/pd, movlhps (16); movsldup, movddup, movshdup.
    R(0x12).pp(P0 | P66).cls(C::SimdMove).ops(merge<X, X>).vex_ops(nds),
    R(0x12).cls(C::SimdMove).ext(E::Sse3).both_ops(overwrite<X, X>),
    R(0x13).pp(P0 | P66).cls(C::SimdMove).both_ops(store_x),                              // movlps/pd m64
    R(0x13).cls(C::SimdMove).vex_ops(store_x),
    R(0x14).cls(kPacked).form(F::SseUnpackLow, F::SseUnpackLow, F::None, F::None).ops(rmw_x).vex_ops(nds),
    R(0x15).cls(kPacked).form(F::SseShuffle, F::SseShuffle, F::None, F::None).ops(rmw_x).vex_ops(nds),
    R(0x16).pp(P0 | P66).cls(C::SimdMove).ops(merge<X, X>).vex_ops(nds),
    R(0x16).pp(PF3).cls(C::SimdMove).ext(E::Sse3).both_ops(overwrite<X, X>),               // movshdup
    R(0x16).cls(C::SimdMove).both_ops(overwrite<X, X>),
    R(0x17).pp(P0 | P66).cls(C::SimdMove).both_ops(store_x),                              // movhps/pd m64
    R(0x17).cls(C::SimdMove).vex_ops(store_x),
    R(0x18).cls(C::Nop).ops(address),                                         // prefetch hints
    R(0x19, 0x1F).cls(C::Nop).ops(none),                                      // hint nops, endbr64
    R(0x28).cls(C::SimdMove).form(register_move).both_ops(overwrite<X, X>),               // movaps, movapd
    R(0x29).pp(P0 | P66).cls(C::SimdMove).form(register_move).both_ops(store_x),
    R(0x29).cls(C::SimdMove).form(register_move).vex_ops(store_x),
    // cvtpi2ps (the upper half kept), cvtpi2pd, cvtsi2ss, cvtsi2sd.
    R(0x2A).pp(P0).cls(kSseFp).ops(merge<X, M>).vex_ops(vcvt_from_gpr),
    R(0x2A).pp(P66).cls(kSseFp).ops(overwrite<X, M>).vex_ops(vcvt_from_gpr),
    R(0x2A).pp(PF2).w0().cls(kSseFp).form(F::CvtSi2Sd).ops(cvt_from_gpr).vex_ops(vcvt_from_gpr),
    R(0x2A).cls(kSseFp).ops(cvt_from_gpr).vex_ops(vcvt_from_gpr),
    R(0x2B).pp(P0 | P66).cls(C::SimdMove).both_ops(store_x),                              // movntps/pd
    R(0x2B).cls(C::SimdMove).vex_ops(store_x),
    // cvt(t)ps2pi, cvt(t)pd2pi; cvt(t)ss2si, cvt(t)sd2si.
    R(0x2C, 0x2D).pp(P0 | P66).cls(kSseFp).ops(overwrite<M, X>).vex_ops(xmm_to_gpr),
    R(0x2C, 0x2D).cls(kSseFp).form(F::None, F::None, F::None, F::CvtSd2Si).both_ops(xmm_to_gpr),
    R(0x2E, 0x2F).cls(kScalar).both_ops(compare_x),                                       // ucomiss/sd, comiss/sd
    R(0x31).cls(C::Microcode).ops(rdtsc),
    R(0x34).cls(C::Syscall).ops(i386_system_call),                                   // sysenter
    R(0x30, 0x35).cls(C::Microcode),                                                 // wrmsr rdmsr rdpmc sysexit
    R(0x40, 0x4F).form(F::Cmov).ops(cmov),

    R(0x50).cls(C::SimdMove).both_ops(xmm_to_gpr),                                        // movmskps/pd
    R(0x51).pp(P0 | P66).cls(kSseDiv).form(F::DivPs, F::DivPd, F::None, F::None).both_ops(overwrite<X, X>),  // sqrt
    R(0x51).cls(kSseDiv).form(F::None, F::None, F::DivSs, F::DivSd).ops(merge<X, X>).vex_ops(nds),
    R(0x52, 0x53).pp(P0 | P66).cls(kSseFp).form(F::SseRcp, F::None, F::None, F::None).ops(overwrite<X, X>),
    R(0x52, 0x53).cls(kSseFp).form(F::None, F::None, F::SseRcp, F::None).ops(merge<X, X>),  // rsqrt, rcp
    R(0x54, 0x56).cls(kPacked).form(F::SseLogic, F::SseLogic, F::None, F::None).ops(rmw_x).vex_ops(nds),
    R(0x57).cls(kPacked).form(F::SseLogic, F::SseLogic, F::None, F::None).ops(xorps).vex_ops(nds_zero_idiom),
    R(0x58).cls(kSseFp).form(F::SseAdd).ops(rmw_x).vex_ops(nds),              // add
    R(0x59).cls(kSseFp).form(F::SseMul).ops(rmw_x).vex_ops(nds),              // mul
    R(0x5A).pp(P0 | P66).cls(kSseFp).form(F::CvtPs2Pd, F::CvtPd2Ps, F::None, F::None).both_ops(overwrite<X, X>),
    R(0x5A).cls(kSseFp).form(F::None, F::None, F::CvtSs2Sd, F::CvtSd2Ss).ops(merge<X, X>).vex_ops(nds),
    R(0x5B).cls(C::SsePackedSp).form(F::CvtDq2Ps, F::None, F::None, F::None).both_ops(overwrite<X, X>),
    R(0x5C, 0x5D).cls(kSseFp).form(F::SseAdd).ops(rmw_x).vex_ops(nds),        // sub, min
    R(0x5E).cls(kSseDiv).form(F::DivPs, F::DivPd, F::DivSs, F::DivSd).ops(rmw_x).vex_ops(nds),
    R(0x5F).cls(kSseFp).form(F::SseAdd).ops(rmw_x).vex_ops(nds),              // max

    // MMX without a prefix, SSE2 integer with 66; F3 and F2 are not instructions here.
    R(0x60, 0x6D).pp(PF3 | PF2).cls(kSimdInt).vex_ops(nds),
    R(0x6C, 0x6D).pp(P0).cls(kSimdInt).vex_ops(nds),                                 // punpck*qdq: xmm only
    R(0x60, 0x62).cls(kSimdInt).form(F::MmxShift, F::XmmShift, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0x63).cls(kSimdInt).form(F::None, F::PackXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0x64, 0x66).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0x67).cls(kSimdInt).form(F::None, F::PackXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0x68, 0x6A).cls(kSimdInt).form(F::None, F::UnpackHighXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0x6B).cls(kSimdInt).form(F::None, F::PackXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0x6C).cls(kSimdInt).form(F::None, F::XmmShift, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0x6D).cls(kSimdInt).form(F::None, F::UnpackHighXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0x6E).regform().cls(C::SimdMove).form(F::MovdToMmx, F::MovdToXmm, F::None, F::None).both_ops(movd_to),
    R(0x6E).cls(C::SimdMove).both_ops(movd_to),
    R(0x6F).pp(PF3).mem().cls(C::SimdMove).form(F::UnalignedLoad).both_ops(overwrite<X, X>),  // movdqu
    R(0x6F).pp(PF3).cls(C::SimdMove).form(F::FpRegMove).both_ops(overwrite<X, X>),
    R(0x6F).cls(C::SimdMove).form(register_move).both_ops(overwrite_v),                   // movq mm, movdqa
    R(0x70).pp(P0).cls(kSimdInt).form(F::MmxShift).ops(overwrite<M, M>).vex_ops(overwrite<X, X>),  // pshufw
    R(0x70).cls(kSimdInt).form(F::None, F::PshufdXmm, F::XmmShift, F::XmmShift).both_ops(overwrite<X, X>),
    // Shifts by an immediate: 71, 72 /2 /4 /6; 73 /2 /6, and /3 /7 (psrldq, pslldq) on xmm only.
    R(0x71, 0x72).pp(P0 | P66).regform().reg(2, 4, 6).cls(kSimdInt)
        .form(F::MmxShift, F::XmmShift, F::None, F::None).ops(shift_by_imm).vex_ops(vshift_by_imm),
    R(0x71, 0x72).cls(kSimdInt).form(F::MmxShift, F::XmmShift, F::None, F::None).vex_ops(vshift_by_imm),
    R(0x73).pp(P66).regform().reg(3, 7).cls(kSimdInt).form(F::ByteShiftXmm).ops(shift_by_imm)
        .vex_ops(vshift_by_imm),
    R(0x73).pp(P66).reg(3, 7).cls(kSimdInt).form(F::ByteShiftXmm).vex_ops(vshift_by_imm),
    R(0x73).pp(P0 | P66).regform().reg(2, 6).cls(kSimdInt).form(F::MmxShift, F::XmmShift, F::None, F::None)
        .ops(shift_by_imm).vex_ops(vshift_by_imm),
    R(0x73).cls(kSimdInt).form(F::MmxShift, F::XmmShift, F::None, F::None).vex_ops(vshift_by_imm),
    R(0x74, 0x76).pp(PF3 | PF2).cls(kSimdInt).vex_ops(nds),
    R(0x74, 0x76).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(rmw_v).vex_ops(nds),  // pcmpeq
    R(0x77).legacy().cls(C::Mmx64).ops(emms),
    R(0x77).cls(C::SimdMove).vex_ops(vzero),
    R(0x7C, 0x7D).cls(kPacked).ext(kSse3With66OrF2).ops(rmw_x),              // haddpd/ps, hsubpd/ps
    R(0x7E).pp(PF3).cls(C::SimdMove).both_ops(overwrite<X, X>),                           // movq xmm, xmm/m64
    R(0x7E).regform().cls(C::SimdMove).form(F::MovdFromMmx, F::MovdFromXmm, F::None, F::None).both_ops(movd_from),
    R(0x7E).cls(C::SimdMove).form(movd_store_form).both_ops(movd_from),
    R(0x7F).pp(PF3).cls(C::SimdMove).form(register_move).both_ops(store_x),               // movdqu
    R(0x7F).cls(C::SimdMove).form(register_move).both_ops(store_v),                       // movq mm, movdqa

    R(0x80, 0x8F).cls(C::CondBranch).rel32().ops(read_flags),                // jcc
    R(0x90, 0x9F).form(F::Setcc).ops(setcc),
    R(0xA0, 0xA1).ops(push_pop),                                              // push, pop fs
    R(0xA2).cls(C::Microcode).ops(cpuid),
    R(0xA3).ops(bt),
    R(0xA4).w1().cls(C::IntShift).form(F::Shld64).ops(double_shift_imm),     // shld r64
    R(0xA4).cls(C::IntShift).form(F::DoubleShift).ops(double_shift_imm),     // shld
    R(0xA5).w1().cls(C::IntShift).form(F::ShldCl64).ops(double_shift_cl),
    R(0xA5).cls(C::IntShift).form(F::DoubleShift).ops(double_shift_cl),
    R(0xA8, 0xA9).ops(push_pop),                                              // push, pop gs
    R(0xAA).cls(C::Microcode),                                                       // rsm
    R(0xAB).ops(bts),
    R(0xAC).cls(C::IntShift).form(F::DoubleShift).ops(double_shift_imm),     // shrd
    R(0xAD).cls(C::IntShift).form(F::DoubleShift).ops(double_shift_cl),
    // Group 15: lfence, mfence, sfence; rdfsbase and friends; fxsave fxrstor ldmxcsr stmxcsr xsave xrstor
    // xsaveopt clflush.
    R(0xAE).regform().reg(5, 6, 7).pp(P0 | P66).cls(C::Fence).ops(none),
    R(0xAE).regform().reg(5, 6, 7).cls(C::Fence),
    R(0xAE).regform().reg(0, 1, 2, 3).cls(C::Microcode).ext(E::None, E::None, E::Fsgsbase, E::None),
    R(0xAE).regform().cls(C::Microcode),
    R(0xAE).reg(0).cls(C::Microcode).ops(save_state),
    R(0xAE).reg(1).cls(C::Microcode).ops(restore_state),
    R(0xAE).reg(2, 3, 7).cls(C::Microcode).ops(address),
    R(0xAE).reg(4, 6).cls(C::Microcode).ext(E::Xsave, E::None, E::None, E::None).ops(xsave),
    R(0xAE).reg(5).cls(C::Microcode).ext(E::Xsave, E::None, E::None, E::None).ops(xrstor),
    R(0xAF).cls(C::IntMul).form(imul_form).ops(imul),
    R(0xB0, 0xB1).ops(cmpxchg),
    R(0xB3).ops(bts),                                                         // btr
    R(0xB6).form(movzx_byte_form).ops(extend8),
    R(0xB7).form(on_register<F::MovExtend>).ops(extend16),
    R(0xB8).pp(PF3).ext(E::Popcnt).ops(bit_count),                            // popcnt (F3 only)
    R(0xB8),
    R(0xBA).reg(4).ops(bt_imm),
    R(0xBA).reg(5, 6, 7).ops(bts_imm),
    R(0xBA),
    R(0xBB).ops(bts),                                                         // btc
    R(0xBC).form(F::BitScan, F::BitScan, F::None, F::BitScan).ops(bit_count),  // bsf; F3: tzcnt
    R(0xBD).pp(PF3).ext(E::Lzcnt).ops(bit_count),
    R(0xBD).form(F::BitScan).ops(bit_count),                                  // bsr
    R(0xBE).form(on_register<F::MovExtend>).ops(extend8),
    R(0xBF).form(on_register<F::MovExtend>).ops(extend16),
    R(0xC0, 0xC1).ops(xadd),
    R(0xC2).cls(kSseFp).form(F::SseAdd).ops(rmw_x).vex_ops(nds),              // cmp
    R(0xC3).ops(movnti),
    R(0xC4).cls(kSimdInt).ops(pinsrw),
    R(0xC5).cls(kSimdInt).ops(pextrw),
    R(0xC6).cls(kPacked).form(F::SseShuffle, F::SseShuffle, F::None, F::None).ops(rmw_x).vex_ops(nds),
    // Group 9: cmpxchg8b/16b, xrstors, xsavec, xsaves; rdrand, rdseed (rdpid with F3).
    R(0xC7).mem().reg(1).w1().cls(C::Microcode).ext(E::Cx16).ops(cmpxchg8b),  // cmpxchg16b
    R(0xC7).mem().reg(1).cls(C::Microcode).ops(cmpxchg8b),
    R(0xC7).mem().reg(4).cls(C::Microcode).ext(E::Xsave).ops(xsave),
    R(0xC7).mem().reg(3, 5).cls(C::Microcode).ext(E::Xsave),
    R(0xC7).mem().cls(C::Microcode),
    R(0xC7).reg(6).cls(C::Microcode).ext(E::Rdrand).ops(rdrand),
    R(0xC7).reg(7).cls(C::Microcode).ext(E::Rdseed, E::Rdseed, E::None, E::Rdseed).ops(rdrand),
    R(0xC7).cls(C::Microcode),
    R(0xC8, 0xCF).w1().form(F::Bswap64).ops(bswap),
    R(0xC8, 0xCF).form(F::Bswap32).ops(bswap),
    R(0xD0).cls(kPacked).ext(kSse3With66OrF2).ops(rmw_x),                     // addsubpd/ps

    // The MMX and SSE2 integer block D1-FE, and the moves among it.
    R(0xD6).pp(P66).cls(C::SimdMove).both_ops(store_x),                                   // movq xmm/m64, xmm
    R(0xD6).pp(PF3).cls(C::SimdMove).form(on_register<F::Movq2dq>).ops(overwrite<X, M>).vex_ops(store_x),
    R(0xD6).pp(PF2).cls(C::SimdMove).form(on_register<F::Movdq2q>).ops(overwrite<M, X>).vex_ops(store_x),
    R(0xD6).cls(C::SimdMove).vex_ops(store_x),
    R(0xD7).cls(kSimdInt).ops(pextrw).vex_ops(xmm_to_gpr),                    // pmovmskb
    R(0xE6).cls(C::SsePackedDp).both_ops(overwrite<X, X>),                                // cvttpd2dq cvtdq2pd cvtpd2dq
    R(0xE7).cls(C::SimdMove).both_ops(store_v),                                           // movntq, movntdq
    R(0xF0).pp(PF2).cls(C::SimdMove).form(on_memory<F::UnalignedLoad>).ext(E::Sse3).ops(overwrite<X, X>),
    R(0xF0).cls(C::SimdMove).ops(overwrite<X, X>),
    R(0xF7).cls(C::SimdMove).ops(maskmov),                                    // maskmovq, maskmovdqu
    R(0xD5).pp(PF3 | PF2).cls(kSimdInt).form(F::PmulMmx).vex_ops(nds),
    R(0xE4, 0xE5).pp(PF3 | PF2).cls(kSimdInt).form(F::PmulMmx).vex_ops(nds),
    R(0xF4, 0xF5).pp(PF3 | PF2).cls(kSimdInt).form(F::PmulMmx).vex_ops(nds),
    R(0xEF).pp(PF3 | PF2).cls(kSimdInt).vex_ops(nds_zero_idiom),
    R(0xF8, 0xFB).pp(PF3 | PF2).cls(kSimdInt).vex_ops(nds_zero_idiom),
    R(0xD1, 0xFE).pp(PF3 | PF2).cls(kSimdInt).vex_ops(nds),
    R(0xD1, 0xD3).cls(kSimdInt).form(F::MmxShift, F::XmmShift, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xD4).cls(kSimdInt).form(F::MmxAlu, F::PaddqXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),  // paddq
    R(0xD5).cls(kSimdInt).form(F::PmulMmx, F::PmulXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xD8, 0xDF).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xE0).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xE1, 0xE2).cls(kSimdInt).form(F::MmxShift, F::XmmShift, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xE3).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xE4, 0xE5).cls(kSimdInt).form(F::PmulMmx, F::PmulXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xE8, 0xEE).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xEF).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(pxor).vex_ops(nds_zero_idiom),
    R(0xF1, 0xF3).cls(kSimdInt).form(F::MmxShift, F::XmmShift, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xF4, 0xF5).cls(kSimdInt).form(F::PmulMmx, F::PmulXmm, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xF6).cls(kSimdInt).form(F::Psadbw, F::Psadbw, F::None, F::None).ops(rmw_v).vex_ops(nds),
    R(0xF8, 0xFA).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(psub).vex_ops(nds_zero_idiom),
    R(0xFB).cls(kSimdInt).form(F::MmxAlu, F::PaddqXmm, F::None, F::None).ops(psub).vex_ops(nds_zero_idiom),
    R(0xFC, 0xFE).cls(kSimdInt).form(F::MmxAlu, F::XmmAlu, F::None, F::None).ops(rmw_v).vex_ops(nds),

    R(0x00, 0xFF).unknown(),
};

constexpr auto kIndex = index_rows<covered(kRows)>(kRows);
static_assert(every_opcode_has_a_row(kIndex), "the last row covers every opcode");

}  // namespace

extern const OpcodeMap kTwoByteMap = {kRows, sizeof kRows / sizeof kRows[0], kIndex.start, kIndex.order};

}  // namespace netburst::emu::x86ops
