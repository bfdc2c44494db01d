# x87, SSE and SSE2 floating-point kernels. Values stay 1.0 (or grow by 1.0 per add), so no denormal or
# overflow assist can occur on a real Pentium 4. x87 runs at the precision Linux sets (64-bit mantissa), so the
# divide and square root compare with the 80-bit figures of InstLatX86.
#include "kernel.inc"

.macro X87_ONES
        fninit
        .rept 8
        fld1
        .endr
.endm
.macro X87_CHAIN id, text, insn:vararg
        KERNEL \id, lat, "\text"
        X87_ONES
        LOOP
        .rept 16
        \insn
        .endr
        DONE fninit
.endm
        X87_CHAIN fadd, "fadd st, st(i)", fadd %st(1), %st
        X87_CHAIN fmul, "fmul st, st(i)", fmul %st(1), %st
        X87_CHAIN fdiv80, "fdiv st, st(i) (80-bit precision)", fdiv %st(1), %st
        X87_CHAIN fsqrt80, "fsqrt (1.0, 80-bit precision)", fsqrt
        X87_CHAIN fchs, "fchs", fchs
        X87_CHAIN fabs, "fabs", fabs
        KERNEL fadd, tput, "fadd st(i), st", 14
        X87_ONES
        LOOP
        .irp i, 1,2,3,4,5,6,7,1,2,3,4,5,6,7
        fadd %st, %st(\i)
        .endr
        DONE fninit
        KERNEL fmul, tput, "fmul st(i), st", 14
        X87_ONES
        LOOP
        .irp i, 1,2,3,4,5,6,7,1,2,3,4,5,6,7
        fmul %st, %st(\i)
        .endr
        DONE fninit

# --- SSE / SSE2 arithmetic: chain through xmm1, xmm0 = 1.0 -------------------------------------------------------
.macro SSE_CHAIN id, text, init, insn:vararg
        KERNEL \id, lat, "\text"
        \init
        LOOP
        .rept 16
        \insn
        .endr
        DONE
.endm
.macro SSE_TPUT id, text, init, op
        KERNEL \id, tput, "\text", COPIES_X, CHAINS_X
        \init
        LOOP
        ROTX \op
        DONE
.endm
        SSE_CHAIN addss, "addss xmm, xmm", XMM_ONES_PS, addss %xmm0, %xmm1
        SSE_TPUT  addss, "addss xmm, xmm", XMM_ONES_PS, addss
        SSE_CHAIN addps, "addps xmm, xmm", XMM_ONES_PS, addps %xmm0, %xmm1
        SSE_TPUT  addps, "addps xmm, xmm", XMM_ONES_PS, addps
        SSE_CHAIN mulss, "mulss xmm, xmm", XMM_ONES_PS, mulss %xmm0, %xmm1
        SSE_CHAIN mulps, "mulps xmm, xmm", XMM_ONES_PS, mulps %xmm0, %xmm1
        SSE_TPUT  mulps, "mulps xmm, xmm", XMM_ONES_PS, mulps
        SSE_CHAIN divss, "divss xmm, xmm", XMM_ONES_PS, divss %xmm0, %xmm1
        SSE_CHAIN divps, "divps xmm, xmm", XMM_ONES_PS, divps %xmm0, %xmm1
        SSE_CHAIN sqrtss, "sqrtss xmm, xmm (1.0)", XMM_ONES_PS, sqrtss %xmm1, %xmm1
        SSE_CHAIN sqrtps, "sqrtps xmm, xmm (1.0)", XMM_ONES_PS, sqrtps %xmm1, %xmm1
        SSE_CHAIN maxss, "maxss xmm, xmm", XMM_ONES_PS, maxss %xmm0, %xmm1
        SSE_CHAIN rcpss, "rcpss xmm, xmm", XMM_ONES_PS, rcpss %xmm1, %xmm1
        SSE_CHAIN andps, "andps xmm, xmm (different registers)", XMM_ONES_PS, andps %xmm0, %xmm1
        SSE_CHAIN addsd, "addsd xmm, xmm", XMM_ONES_PD, addsd %xmm0, %xmm1
        SSE_TPUT  addsd, "addsd xmm, xmm", XMM_ONES_PD, addsd
        SSE_CHAIN subsd, "subsd xmm, xmm", XMM_ONES_PD, subsd %xmm0, %xmm1
        SSE_CHAIN addpd, "addpd xmm, xmm", XMM_ONES_PD, addpd %xmm0, %xmm1
        SSE_TPUT  addpd, "addpd xmm, xmm", XMM_ONES_PD, addpd
        SSE_CHAIN mulsd, "mulsd xmm, xmm", XMM_ONES_PD, mulsd %xmm0, %xmm1
        SSE_TPUT  mulsd, "mulsd xmm, xmm", XMM_ONES_PD, mulsd
        SSE_CHAIN mulpd, "mulpd xmm, xmm", XMM_ONES_PD, mulpd %xmm0, %xmm1
        SSE_TPUT  mulpd, "mulpd xmm, xmm", XMM_ONES_PD, mulpd
        SSE_CHAIN divsd, "divsd xmm, xmm", XMM_ONES_PD, divsd %xmm0, %xmm1
        SSE_CHAIN divpd, "divpd xmm, xmm", XMM_ONES_PD, divpd %xmm0, %xmm1
        SSE_CHAIN sqrtsd, "sqrtsd xmm, xmm (1.0)", XMM_ONES_PD, sqrtsd %xmm1, %xmm1
        SSE_CHAIN sqrtpd, "sqrtpd xmm, xmm (1.0)", XMM_ONES_PD, sqrtpd %xmm1, %xmm1
        SSE_CHAIN maxsd, "maxsd xmm, xmm", XMM_ONES_PD, maxsd %xmm0, %xmm1
        SSE_CHAIN andpd, "andpd xmm, xmm (different registers)", XMM_ONES_PD, andpd %xmm0, %xmm1
        SSE_CHAIN cmpsd, "cmpsd xmm, xmm, imm8", XMM_ONES_PD, cmpsd $0, %xmm0, %xmm1

# --- conversions --------------------------------------------------------------------------------------------------
        # cvtdq2ps of any bit pattern is a normal float or zero, so the chain stays assist-free
        SSE_CHAIN cvtdq2ps, "cvtdq2ps xmm, xmm", XMM_ONES_PS, cvtdq2ps %xmm1, %xmm1
        KERNEL cvtsd2ss_cvtss2sd, lat, "cvtsd2ss xmm, xmm + cvtss2sd xmm, xmm", 8
        XMM_ONES_PD
        LOOP
        .rept 8
        cvtsd2ss %xmm1, %xmm1
        cvtss2sd %xmm1, %xmm1
        .endr
        DONE
        KERNEL cvtpd2ps_cvtps2pd, lat, "cvtpd2ps xmm, xmm + cvtps2pd xmm, xmm", 8
        XMM_ONES_PD
        LOOP
        .rept 8
        cvtpd2ps %xmm1, %xmm1
        cvtps2pd %xmm1, %xmm1
        .endr
        DONE
        KERNEL cvttsd2si_cvtsi2sd, lat, "cvttsd2si r32, xmm + cvtsi2sd xmm, r32", 8
        XMM_ONES_PD
        LOOP
        .rept 8
        cvttsd2si %xmm1, %eax
        cvtsi2sd %eax, %xmm1
        .endr
        DONE
        # cvtsi2sd writes the low lane and keeps the high one: each register is a chain
        KERNEL cvtsi2sd, tput, "cvtsi2sd xmm, r32", COPIES_X, CHAINS_X
        XMM_ONES_PD
        mov $1, %eax
        LOOP
        .irp r, ROT_X
        cvtsi2sd %eax, %xmm\r
        .endr
        DONE
        KERNEL cvttsd2si, tput, "cvttsd2si r32, xmm", COPIES_G
        XMM_ONES_PD
        LOOP
        .irp r, ROT_G
        cvttsd2si %xmm0, \r
        .endr
        DONE
