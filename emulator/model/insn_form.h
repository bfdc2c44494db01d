// Instruction forms whose timing differs from their class's figure on NetBurst (emulator/core/form_timing.cpp).
//
// The class (instruction.h) drives the events and the uop shape; the form only refines the latency and the
// throughput of the instruction's operation uop. A front end that cannot tell the form leaves it None, and the
// class's figure applies. Forms group encodings that measure alike; they are decided once per instruction from
// its bytes (the opcode table, emulator/x86/opcode_table.h).
//
// Freestanding: plain data, used inside the Valgrind tool.
#pragma once

#include <cstdint>

namespace netburst::emu {

enum class InsnForm : std::uint8_t {
    None,
    // Integer.
    LoadByte,      // mov r8, m8: a load that merges into the rest of its register
    IncDec,        // inc/dec r/m
    NegNot,        // neg/not r/m
    MovExtend,     // movsx r, r8/r16, movzx r, r16, movsxd r64, r32 (register sources)
    ShiftImm,      // shl/shr/sar r32 and shl r64 by 1 or imm8
    AdcSbb,        // adc/sbb: a flow through the carry flag
    LeaIndexDisp,  // lea r, [base + index + disp]
    LeaScaled,     // lea r, [base + index*scale], scale 2, 4 or 8
    LeaScaledDisp, // lea r, [base + index*scale + disp]
    Cmov,          // cmovcc
    ShiftCl,       // shl/shr/sar/rol/ror by cl (32-bit and narrower; shl r64 by cl)
    Rotate,        // rol/ror by 1 or imm8 (32-bit and narrower)
    RotateCarry,   // rcl/rcr
    DoubleShift,   // shld/shrd (32-bit and narrower; shrd r64: see form_timing.cpp)
    Shr64,         // shr/sar r64 by 1 or imm8 (Prescott's 64-bit shifter path)
    Rotate64,      // rol/ror r64 by 1 or imm8
    Bswap32,
    Bswap64,
    BitScan,       // bsf/bsr
    Setcc,         // setcc r/m8
    MovzxByte,     // movzx r32/r64, r8 (a register source)
    Imul16,        // imul r16, r/m16 (and the imm forms)
    Imul32,        // imul r32, r/m32 (and the imm forms)
    Imul64,        // imul r64, r/m64 (and the imm forms)
    Mul8,          // mul/imul r/m8 (one operand)
    Mul16,
    Mul32,
    Mul64,
    Div8,
    Div16,
    Div32,
    Div64,
    Idiv8,
    Idiv16,
    Idiv32,
    Idiv64,
    // x87.
    Fadd,          // fadd/fsub/fsubr (register and memory forms)
    Fmul,
    FchsFabs,
    Fdiv,          // fdiv/fdivr at the default (extended) precision
    Fsqrt,
    // SSE/SSE2 floating point.
    SseAdd,        // add/sub/min/max/cmp ss/ps/sd/pd
    SseMul,        // mul ss/ps/sd/pd
    SseRcp,        // rcp/rsqrt ss/ps
    SseLogic,      // and/andn/or/xor ps/pd
    SseUnpackLow,  // unpcklps/unpcklpd
    SseShuffle,    // shufps/shufpd, unpckhps/unpckhpd
    DivSs,         // divss, sqrtss
    DivPs,         // divps, sqrtps
    DivSd,         // divsd, sqrtsd
    DivPd,         // divpd, sqrtpd
    CvtDq2Ps,      // cvtdq2ps
    CvtSi2Sd,      // cvtsi2sd xmm, r/m32
    CvtSd2Si,      // cvtsd2si, cvttsd2si r32/r64, xmm/m64
    CvtSs2Sd,      // cvtss2sd
    CvtSd2Ss,      // cvtsd2ss
    CvtPs2Pd,      // cvtps2pd
    CvtPd2Ps,      // cvtpd2ps
    // MMX and SSE2 integer.
    MmxAlu,        // add, sub, compare, logic, average, min/max on mm (the MMX ALU)
    MmxShift,      // bit shifts, low unpacks, pshufw on mm (the MMX shift/shuffle unit)
    XmmAlu,        // the same ALU operations on xmm
    XmmShift,      // bit shifts, low unpacks, pshuflw/pshufhw on xmm
    PmulMmx,       // pmullw/pmulhw/pmulhuw/pmaddwd/pmuludq mm
    PmulXmm,       // the same on xmm
    Psadbw,        // psadbw mm or xmm
    PaddqXmm,      // paddq/psubq xmm
    ByteShiftXmm,  // pslldq/psrldq
    PshufdXmm,     // pshufd
    UnpackHighXmm, // punpckh* xmm
    PackXmm,       // packsswb/packssdw/packuswb xmm
    // Moves between register files (register to register).
    MovdFromMmx,   // movd/movq r32/r64, mm
    MovdToMmx,     // movd/movq mm, r32/r64
    MovdFromXmm,   // movd/movq r32/r64, xmm
    MovdToXmm,     // movd/movq xmm, r32/r64
    Movdq2q,       // movdq2q mm, xmm
    Movq2dq,       // movq2dq xmm, mm
    // Register moves.
    FpRegMove,     // movaps/movapd/movdqa/movdqu/movups xmm, xmm and movq mm, mm
    MovssReg,      // movss xmm, xmm (merges into the destination)
    MovsdReg,      // movsd xmm, xmm
    // Loads.
    UnalignedLoad, // movups/movupd/movdqu/lddqu xmm, m128: the load port twice
    // Added after the rest (tests/x86/opcode_vectors.txt records forms by number).
    Logic,         // and/or/xor/test r/m (register, memory and immediate forms): double-speed ALU 0 only
    ShiftCl64,     // shr/sar/rol/ror r64 by cl (Prescott's 64-bit shifter path)
    Shld64,        // shld r64, r64, imm8
    ShldCl64,      // shld r64, r64, cl
    MovdStoreMmx,  // movd m32, mm: a port-1 slot beside its store address (uop_decode.cpp, Builder::store)
    Count_
};

}  // namespace netburst::emu
