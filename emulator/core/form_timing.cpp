// Per-form latency (L) and reciprocal throughput (T) in core cycles, for Willamette/Northwood (NW: models 0-2)
// and Prescott (PR: models 3, 4, 6).
//
// Sources, as in tests/fidelity/measured.tsv: the InstLatX86/InstLatX64 dumps of the GitHub repository
// InstLatx64/InstLatx64 (directory GenuineIntel/), cited by test number:
//   NW   GenuineIntel0000F29_P4_Northwood_InstLatX86.txt (Pentium 4 2.80 GHz, F/2/9, everest_bench 2.4.257);
//   PR   GenuineIntel0000F41_P4_Prescott_InstLatX86.txt (Celeron D 2.53 GHz, F/4/1, same tool build);
//   X64  GenuineIntel0000F43_P4_Prescott_InstLatX64.txt (Pentium 4 3.20 GHz, F/4/3), the only 64-bit Prescott dump.
// The dumps print the same test numbers in the NW and PR files. Latencies are kept to the half cycle the core
// counts in; throughputs to whole cycles (a unit's busy time), and to half cycles for the integer forms the
// double-speed ALUs would otherwise issue twice a cycle. A value of 0 means "no source: the class's figure".
// Willamette (models 0, 1) has no dump; it takes Northwood's figures, as the rest of its parameters do.
#include "emulator/core/form_timing.h"

namespace netburst::emu {

namespace {

struct Pair {
    double latency;
    double throughput;
    double merge = 0;  // the destination's latency, for a form that merges into it
    double high = 0;   // the high half's latency, for a one-operand multiply (dx, edx, rdx)
};
struct Row {
    InsnForm form;
    Pair nw;
    Pair pr;
    // Only double-speed ALU 0 (port 0) executes it: Intel's optimization manual (248966, "Execution Units and
    // Issue Ports", the figure of the four ports) gives ALU 0 "ADD/SUB, Logic, Store Data, Branches" and ALU 1
    // only "ADD/SUB". The dumps agree: AND (#142) T 0.50 / 0.46 and NOT (#166) 0.50 / 0.58, one ALU's two per
    // cycle, against ADD's (#72) 0.34 / 0.35, the front end's three per cycle over both ALUs.
    bool alu0 = false;
    // Executed by the MMX shift/shuffle unit (MMX_SHFT), which is not the MMX ALU (uop_decode.cpp, apply_form).
    bool mmx_shift = false;
};

// L and T as the sources print them; the conversion to ticks and busy cycles is form_timing()'s.
constexpr Pair LT(double l, double t) { return {l, t}; }
// ... and the latency from the destination's old value, where it differs from L (the merging forms).
constexpr Pair LTM(double l, double t, double merge) { return {l, t, merge}; }
// ... and the latency to the high half (dx, edx, rdx) of a one-operand multiply, which the dumps time apart from
// the low half's: "MUL r32 (edx)" and "MUL r32 (eax)" are two tests.
constexpr Pair LTH(double l, double t, double high) { return {l, t, 0, high}; }
constexpr Pair none() { return {0, 0}; }

constexpr Row kRows[] = {
    // --- Integer -------------------------------------------------------------------------------------------
    {InsnForm::LoadByte, LT(3, 0), LT(5, 0)},           // #24 MOV r8, [m8]: load-to-use, one cycle more than #21's
                                                        // MOV r32, [m32] (2 / 4): the merge into the old value
    {InsnForm::IncDec, LT(0.7, 0), LT(1, 0)},          // #203 INC r32 (T 0.68 / 1 is the chain through the flags
                                                        // it keeps: not a unit's figure)
    {InsnForm::NegNot, LT(0.5, 0.5), LT(1, 0.5), true},  // #162 NEG r32, #166 NOT r32 (PR T 0.50 / 0.58)
    {InsnForm::Logic, LT(0.5, 0.5), LT(1, 0.5), true},   // #142 AND r32, r32 (PR T 0.46); OR, XOR, TEST alike
    {InsnForm::MovExtend, LT(0.5, 0.5), LT(1, 0.5)},    // #44 MOVSX r32, r8, #46 MOVSX r32, r16, #52 MOVZX r32, r16;
                                                        // X64 #48 MOVSXD r64, r32: L 1 on Prescott
    {InsnForm::ShiftImm, LT(4, 1), LT(1, 0.58)},        // #223 SHL, #235 SHR, #247 SAR r32, imm8; X64 #224 SHL r64: 1
    {InsnForm::AdcSbb, LT(7, 1), LT(10, 1)},            // #118 ADC r32, r32; #126 SBB; X64 #119 ADC r64: L 10.
                                                        // Their T (7 / 10, = L) is a chain too: every copy reads
                                                        // the CF the one before wrote, so it is not an issue rate.
                                                        // Assumed: one per cycle. GMP's Prescott loops need copies
                                                        // on independent carries to overlap: pentium4/mod_34lsub1
                                                        // 3.25 c/l = 6 adc per 19.5 cycles (T <= 3.25); generic
                                                        // aorrlsh1_n 13 c/l = two CF chains of 5 adc/sbb per
                                                        // 52 cycles (T <= 5.2)
    {InsnForm::LeaIndexDisp, LT(1, 0), LT(2, 0)},      // #209 LEA r32, [r+r+disp8]
    {InsnForm::LeaScaled, LT(4, 1), LT(2, 0.81)},       // #212 LEA r32, [r+r*8]; scales 2 and 4 not measured: *8's
                                                        // figure (the scaling is the slow part, whatever the factor)
    {InsnForm::LeaScaledDisp, LT(5, 0), LT(3, 0)},      // #215 LEA r32, [r+r*8+disp8]
    {InsnForm::Cmov, LTM(6.1, 1, 0.5), LTM(9.5, 0.5, 1)},  // #41 CMOVNZ r32, r32; X64 #42: 9.5. L is from the
                                                        // source (and, assumed, the flags): the dumps' L tests use
                                                        // one register as both operands (they say "diff. reg. set"
                                                        // where that cannot be, and name SBB's "r1_32, r2_32" as
                                                        // the exception). The destination's old value is not
                                                        // measured alone; T 0.5 on Prescott, each destination
                                                        // rewritten every few copies, bounds it at 4. Assumed: an
                                                        // ADD's latency (#72: NW 0.5, PR 1), the select's last step.
    {InsnForm::ShiftCl, LT(6, 6), LT(2, 2)},            // #227 SHL r32, cl; #239 SHR, #251 SAR, #275 ROL: the same;
                                                        // X64 #228 SHL r64, cl: 2 / 2
    {InsnForm::Rotate, LT(4, 4), LT(1, 1)},             // #271 ROL r32, imm8; #283 ROR
    {InsnForm::RotateCarry, LT(4, 0), LT(7, 0)},        // #291 RCL r32, 1; rcr not measured: rcl's figure
    {InsnForm::DoubleShift, LT(8, 4), LT(9, 7)},        // #254 SHLD r32, r32, imm8; #260 SHRD (L 8 / 9). NW-F24
                                                        // gives 14 and 12: F29 is the Northwood of record
    // Prescott's 64-bit right shifts, rotates and double shifts: 7 cycles and more where the 32-bit forms and
    // shl r64 take 1 to 2 (X64 #224 SHL r64, imm8: 1; #228 SHL r64, cl: 2). A form that keeps flags (rotates; a
    // shift by cl, whose count may be 0) measures T = L: its T test is a chain through the flags it keeps (the
    // core reads them, as for INC), not a unit's figure, and these rows do not take it as one: shr r64 by 1 or
    // imm8 goes one per cycle (T 1) and its by-cl twin could not hold a unit 8 cycles without making GMP's
    // x86_64 lshift and rshift (8 c/l on Nocona, 4 shr r64 by cl and 4 shl by cl per 4 limbs) 10 c/l or more,
    // where the flags chain gives 7.25. (ShiftCl and Rotate above keep their T, 1-2 cycles, as a unit's: no loop
    // of the suite tells the readings apart there.) Presler's 64-bit dump
    // (GenuineIntel0000F62_P4_Presler_InstLatX64.txt, F/6/2) prints the same figures, test for test, except
    // SHRD r64, r64, imm8 (L 10). Northwood (no 64-bit mode, no dump) keeps the 32-bit forms' figures, as before.
    {InsnForm::ShiftCl64, LT(6, 6), LT(8, 0)},            // X64 #240 SHR r64, cl; #252 SAR, #276 ROL, #288 ROR: L 8,
                                                        // T 8 = L (the flags chain)
    {InsnForm::Shld64, LT(8, 4), LT(10, 10)},             // X64 #255 SHLD r64, r64, imm8: L 10, T 10
    {InsnForm::ShldCl64, LT(8, 4), LT(14, 10)},           // X64 #258 SHLD r64, r64, cl: L 14 (T 14 = L: the flags
                                                        // chain); T the imm8 form's, #255
    // shrd r64 keeps DoubleShift's figure, though X64 #261 SHRD r64, r64, imm8 gives L 12.1 / T 10.17 and #264
    // (by cl) L 12: the core gives a form one latency from every input, the flags a shift by cl reads included,
    // and GMP's divexact_1 and pi1_bdiv_q_1 (x86_64, 33 c/l on Nocona), whose shrd r64 by cl reads mul's flags on
    // the loop's chain, bound that path: 12.3 (mul's flags, #351) + x + 1 + 1 (two subs) + 10 (imul) <= 33 gives
    // x <= 8.7. With 12 they measure 38 (+15 %). The register path's 12 needs a latency per input: open.
    {InsnForm::Shr64, none(), LT(7, 1)},                // X64 #236 SHR r64, imm8, #232 SHR r64, 1, #248 SAR r64,
                                                        // imm8, #244 SAR r64, 1: L 7, T 1.00 (one per cycle: not
                                                        // the double-speed ALUs' rate)
    {InsnForm::Rotate64, none(), LT(7, 0)},             // X64 #272 ROL r64, imm8; #284 ROR: 7.1; T 7 = L (the flags
                                                        // chain)
    {InsnForm::Bswap32, LT(4, 1), LT(1, 0.5)},          // #319 BSWAP r32 (NW-F24 gives 7 / 0.83)
    {InsnForm::Bswap64, none(), LT(8, 0)},              // X64 #320 BSWAP r64
    {InsnForm::BitScan, LT(8, 2), LT(16, 1)},           // #314 BSF r32, r32; #317 BSR
    {InsnForm::Setcc, LT(0, 1), LT(0, 1.33)},           // #200 SETC r8: T only (the dump gives no L)
    {InsnForm::MovzxByte, LT(0.5, 0.5), LT(1, 0.82)},   // #50 MOVZX r32, r8 (F43 gives T 1 on Prescott)
    {InsnForm::Imul16, LT(16, 0), LT(10, 0)},           // #327 IMUL r16, r16
    {InsnForm::Imul32, LT(15, 4.25), LT(10, 1)},        // #328 IMUL r32, r32 (the imm8 form, #331, gives 14 / 4.5
                                                        // on NW: the register form is the common one)
    {InsnForm::Imul64, none(), LT(10, 2)},              // X64 #329 IMUL r64, r64
    {InsnForm::Mul8, LT(16, 0), LT(10, 0)},             // #348 MUL r8 (al)
    // One-operand multiplies: L is the low half's (ax, eax, rax), and the flags'; the high half has a test of its
    // own. mul r8's high half is ah, a part of the low half's register: it keeps the one figure. So does mul r16:
    // dx merges into rdx, so dx's figure (#341: 19 / 12) would join the chain of the ax test, which measures 17 / 11.
    {InsnForm::Mul16, LT(17, 0), LT(11, 0)},            // #349 MUL r16 (ax)
    {InsnForm::Mul32, LTH(16, 14, 18), LTH(12, 11, 11)},  // #350 MUL r32 (eax); #342 MUL r32 (edx): 18 / 11;
                                                        // #346, #338 IMUL r32 (eax), (edx) the same
    {InsnForm::Mul64, none(), LTH(12.3, 11, 21)},       // X64 #351 MUL r64 (rax) L 12.3, T 11.42; #343 MUL r64
                                                        // (rdx) L 21, T 11.00; #347, #339 IMUL r64 the same
    // Divides: the divider is unpipelined, so where the dump gives no T the class's rule (T = L) holds.
    {InsnForm::Div8, LT(61, 61), LT(75, 75)},           // #415 DIV r8 1/1
    {InsnForm::Div16, LT(60, 60), LT(73, 73)},          // #427 DIV r16 1/1
    {InsnForm::Div32, LT(59, 57), LT(76, 76)},          // #441 DIV r32 1/1; T from #430 DIV r32 64/32b
    {InsnForm::Div64, none(), LT(82, 82)},              // X64 #455 DIV r64 1/1
    {InsnForm::Idiv8, LT(69, 69), LT(77, 77)},          // #362 IDIV r8 1/1
    {InsnForm::Idiv16, none(), none()},                 // not measured: the class's figure
    {InsnForm::Idiv32, LT(57, 57), LT(80, 79)},         // #388 IDIV r32 1/1; T from #377 IDIV r32 62/31b
    {InsnForm::Idiv64, none(), LT(107, 107)},           // X64 #402 IDIV r64 1/1
    // --- x87 -------------------------------------------------------------------------------------------------
    {InsnForm::Fadd, LT(5, 1), LT(6, 1)},               // #577 FADD st(i), st
    {InsnForm::Fmul, LT(7, 2), LT(8, 2)},               // #580 FMUL st(i), st
    {InsnForm::FchsFabs, LT(2, 0), LT(3, 0)},           // #571 FCHS, #572 FABS
    {InsnForm::Fdiv, LT(43, 43), LT(45, 45)},           // #588 FDIV80: Linux runs x87 at extended precision
    {InsnForm::Fsqrt, LT(43, 43), LT(45, 45)},          // #595 FSQRT80
    // --- SSE/SSE2 floating point ---------------------------------------------------------------------------
    {InsnForm::SseAdd, LT(4, 2), LT(5, 2)},             // #821 ADDSS, #822 ADDPS, #912 ADDSD, #913 ADDPD, #910 SUBSD,
                                                        // #829 MAXSS, #920 MAXSD, #908 CMPSD: all 4 / 5
    {InsnForm::SseMul, LT(6, 2), LT(7, 2)},             // #823 MULSS, #824 MULPS, #914 MULSD, #915 MULPD
    {InsnForm::SseRcp, LT(4, 0), LT(5, 0)},             // #857 RCPSS; rsqrt not measured: rcp's figure
    {InsnForm::SseLogic, LT(2, 0), LT(2, 0)},           // #836 ANDPS, #927 ANDPD
    {InsnForm::SseUnpackLow, LT(2, 0), LT(2, 0)},       // #812 UNPCKLPS; unpcklpd not measured: unpcklps's
    {InsnForm::SseShuffle, LT(4, 0), LT(4, 0)},         // #814 SHUFPS, #904 UNPCKHPD; shufpd, unpckhps: the same
    {InsnForm::DivSs, LT(23, 23), LT(32, 32)},          // #843 DIVSS, #853 SQRTSS
    {InsnForm::DivPs, LT(39, 39), LT(41, 41)},          // #848 DIVPS, #856 SQRTPS
    {InsnForm::DivSd, LT(38, 38), LT(40, 40)},          // #934 DIVSD, #944 SQRTSD
    {InsnForm::DivPd, LT(69, 69), LT(71, 71)},          // #939 DIVPD, #947 SQRTPD
    {InsnForm::CvtDq2Ps, LT(8.8, 0), LT(14.1, 0)},      // #968 CVTDQ2PS xmm, xmm
    // Conversions. The dumps time a conversion alone only where source and result are in the same register file;
    // the others only as a round trip through the reverse conversion (a pair). Where a pair is all there is, its
    // latency is split evenly between the two: a stated assumption (a pair's chain gives the sum whatever the split).
    {InsnForm::CvtSi2Sd, LT(12, 5.42), LT(16, 5.17)},   // #953 CVTSI2SD xmm, r32: T; L half of #957's pair (24 / 32)
    {InsnForm::CvtSd2Si, LT(12, 2.5), LT(16, 4)},       // #956 CVTTSD2SI, #954 CVTSD2SI r32, xmm: T; L the other half
                                                        // of #957 CVTTSD2SI + CVTSI2SD (#955 with CVTSD2SI: the same)
    {InsnForm::CvtSs2Sd, LT(8, 2), LT(9, 4)},           // #976 CVTSS2SD xmm, xmm (with #977, the pair #978: 20 / 22)
    {InsnForm::CvtSd2Ss, LT(12, 3.33), LT(13, 4.25)},   // #977 CVTSD2SS xmm, xmm
    {InsnForm::CvtPs2Pd, LT(6, 2), LT(7, 2)},           // #973 CVTPS2PD T; L half of the pair #975 (12 / 14): each
                                                        // alone, a conversion feeding itself, measures 10.4 / 13.6
                                                        // (#973) and 10.0 / 11.0 (#974), more than the pair; code
                                                        // uses a result in its new precision, as the pair does
    {InsnForm::CvtPd2Ps, LT(6, 2), LT(7, 3)},           // #974 CVTPD2PS T; L half of the pair #975
    // --- MMX and SSE2 integer ----------------------------------------------------------------------------------
    {InsnForm::MmxAlu, LT(2, 1), LT(2, 1)},             // #641-#684: PADD*, PSUB*, PCMPEQ*, PCMPGT*, PAND(N), POR,
                                                        // PXOR mm, mm all L 2 / T 1 (PXOR of one register: an idiom);
                                                        // pavg, pmin, pmax on mm not measured: the ALU's figure
    {InsnForm::MmxShift, LT(2, 1), LT(2, 1), false, true},  // #693-#708 PSLL/PSRL/PSRA mm (by mm and imm8),
                                                        // #712 PUNPCKLBW, #764 PSHUFW: L 2 / T 1
    {InsnForm::XmmAlu, LT(2, 2), LT(2, 2)},             // #1013 PADDD, #1040 PCMPEQD, #1052 PAND, #1058 PXOR, #1098
                                                        // PAVGB xmm, xmm: L 2 / T 2
    {InsnForm::XmmShift, LT(2, 2), LT(2, 2), false, true},  // #1073 PSLLQ xmm, imm8, #1090 PUNPCKLBW,
                                                        // #1142 PSHUFLW, #1143 PSHUFHW xmm: L 2 / T 2
    {InsnForm::PmulMmx, LT(6, 1), LT(7, 1)},            // #689 PMULLW mm, #692 PMADDWD mm
    {InsnForm::PmulXmm, LT(6, 2), LT(7, 2)},            // #1062 PMULLW, #1065 PMULUDQ, #1067 PMADDWD xmm
    {InsnForm::Psadbw, LT(4, 0), LT(4, 0)},             // #763 PSADBW mm, #1140 PSADBW xmm
    {InsnForm::PaddqXmm, LT(4, 2), LT(5, 2)},           // #1014 PADDQ xmm, xmm
    {InsnForm::ByteShiftXmm, LT(4, 0), LT(4, 0), false, true},  // #1074 PSLLDQ, #1085 PSRLDQ
    {InsnForm::PshufdXmm, LT(4, 2), LT(4, 2), false, true},  // #1144 PSHUFD xmm, xmm, imm8
    {InsnForm::UnpackHighXmm, LT(4, 0), LT(4, 0), false, true},  // #1086 PUNPCKHBW xmm, xmm
    {InsnForm::PackXmm, LT(4, 0), LT(4, 0), false, true},  // #1094 PACKSSWB xmm, xmm
    // --- Moves between register files: measured only as round trips, split evenly (see Conversions) ------------
    {InsnForm::MovdFromMmx, LT(4, 1), LT(5.5, 1)},      // #624 MOVD r32, mm T; L half of #626's pair (8 / 11)
    {InsnForm::MovdToMmx, LT(4, 1), LT(5.5, 1)},        // #625 MOVD mm, r32 T; L the other half
    {InsnForm::MovdFromXmm, LT(9, 1), LT(6.5, 1)},      // #979 MOVD r32, xmm T; L half of #981's pair (18 / 13)
    {InsnForm::MovdToXmm, LT(9, 2), LT(6.5, 2)},        // #980 MOVD xmm, r32 T; L the other half
    {InsnForm::Movdq2q, LT(9, 2), LT(10, 2)},           // #991 MOVDQ2Q mm, xmm T; L half of #993's pair (18 / 20)
    {InsnForm::Movq2dq, LT(9, 2), LT(10, 2)},           // #992 MOVQ2DQ xmm, mm T; L the other half
    // --- Register moves ----------------------------------------------------------------------------------------
    {InsnForm::FpRegMove, LT(6, 1), LT(7, 1)},          // #798 MOVAPS, #889 MOVAPD, #994 MOVDQA, #633 MOVQ mm, mm
    {InsnForm::MovssReg, LT(2, 0), LT(2, 0)},           // #788 MOVSS xmm, xmm
    {InsnForm::MovsdReg, LT(4, 0), LT(4, 0)},           // #879 MOVSD xmm, xmm
    // --- Loads: T is the load port's occupancy ------------------------------------------------------------------
    {InsnForm::UnalignedLoad, LT(0, 2), LT(0, 2)},      // #803 MOVUPS xmm, [m128] T 2.00 / 2.42, #806 [m128 + 4]
                                                        // 2.33 / 1.92, #999 and #1002 MOVDQU the same: 2
};

constexpr Tick to_half_cycles(double cycles) { return static_cast<Tick>(cycles * kTicksPerCycle + 0.5); }
constexpr std::uint8_t to_busy(double cycles) {
    return cycles <= 0 ? 0 : cycles < 1.5 ? 1 : static_cast<std::uint8_t>(cycles + 0.5);
}
// A throughput within an eighth of a cycle of n + 1/2 (n >= 1): the unit is held n + 1 and n cycles alternately,
// which averages the measurement (an assumption: how the hardware gets half cycles out of a unit clocked in whole
// ones is not published). #956 CVTTSD2SI on Northwood, T 2.5, is the case that needs it; a quarter (IMUL's 4.25)
// keeps the nearest whole figure.
constexpr bool alternates(double cycles) {
    const double fraction = cycles - static_cast<double>(static_cast<unsigned>(cycles));
    return cycles >= 1.5 && fraction > 0.375 && fraction < 0.625;
}
constexpr FormTiming timing_of(const Pair& p) {
    const bool alt = alternates(p.throughput);
    return {to_half_cycles(p.latency),
            alt ? static_cast<std::uint8_t>(static_cast<unsigned>(p.throughput) + 1) : to_busy(p.throughput),
            static_cast<std::uint8_t>(to_half_cycles(p.throughput)), to_half_cycles(p.merge), alt,
            to_half_cycles(p.high)};
}

struct Table {
    FormTiming nw[static_cast<unsigned>(InsnForm::Count_)];
    FormTiming pr[static_cast<unsigned>(InsnForm::Count_)];
};

constexpr Table build() {
    Table t{};
    for (const Row& r : kRows) {
        const unsigned i = static_cast<unsigned>(r.form);
        t.nw[i] = timing_of(r.nw);
        t.pr[i] = timing_of(r.pr);
        t.nw[i].alu0_only = t.pr[i].alu0_only = r.alu0;
        t.nw[i].mmx_shift_unit = t.pr[i].mmx_shift_unit = r.mmx_shift;
    }
    return t;
}

constexpr Table kTable = build();

}  // namespace

FormTiming form_timing(InsnForm form, unsigned model) {
    const unsigned i = static_cast<unsigned>(form);
    if (i >= static_cast<unsigned>(InsnForm::Count_)) return {};
    return model >= 3 ? kTable.pr[i] : kTable.nw[i];
}

}  // namespace netburst::emu
