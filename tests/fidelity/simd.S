# MMX and SSE2 integer kernels, shuffles, and register moves.
#include "kernel.inc"

.macro MM_CHAIN id, text, insn:vararg
        KERNEL \id, lat, "\text"
        MM_INIT
        LOOP
        .rept 16
        \insn
        .endr
        DONE emms
.endm
.macro MM_TPUT id, text, op
        KERNEL \id, tput, "\text", 14
        MM_INIT
        LOOP
        ROTMM \op
        DONE emms
.endm
.macro X_CHAIN id, text, insn:vararg
        KERNEL \id, lat, "\text"
        XMM_ONES_PD
        LOOP
        .rept 16
        \insn
        .endr
        DONE
.endm
.macro X_TPUT id, text, op
        KERNEL \id, tput, "\text", COPIES_X, CHAINS_X
        XMM_ONES_PD
        LOOP
        ROTX \op
        DONE
.endm

# --- MMX ----------------------------------------------------------------------------------------------------------
        MM_CHAIN paddd_mm, "paddd mm, mm", paddd %mm0, %mm1
        MM_TPUT  paddd_mm, "paddd mm, mm", paddd
        MM_CHAIN pxor_mm, "pxor mm, mm (different registers)", pxor %mm0, %mm1
        MM_CHAIN pmullw_mm, "pmullw mm, mm", pmullw %mm0, %mm1
        MM_TPUT  pmullw_mm, "pmullw mm, mm", pmullw
        MM_CHAIN pmaddwd_mm, "pmaddwd mm, mm", pmaddwd %mm0, %mm1
        MM_CHAIN psllq_mm_imm, "psllq mm, imm8", psllq $1, %mm1
        MM_CHAIN punpcklbw_mm, "punpcklbw mm, mm", punpcklbw %mm0, %mm1
        MM_CHAIN psadbw_mm, "psadbw mm, mm", psadbw %mm0, %mm1
        MM_CHAIN pshufw_mm, "pshufw mm, mm, imm8", pshufw $0x1b, %mm1, %mm1
        KERNEL movq_mm, lat, "movq mm, mm"
        MM_INIT
        LOOP
        .rept 8
        movq %mm1, %mm2
        movq %mm2, %mm1
        .endr
        DONE emms
        KERNEL movd_mm_r32, lat, "movd r32, mm + movd mm, r32", 8
        MM_INIT
        LOOP
        .rept 8
        movd %mm1, %eax
        movd %eax, %mm1
        .endr
        DONE emms

# --- SSE2 integer ---------------------------------------------------------------------------------------------------
        X_CHAIN paddd_xmm, "paddd xmm, xmm", paddd %xmm0, %xmm1
        X_TPUT  paddd_xmm, "paddd xmm, xmm", paddd
        X_CHAIN paddq_xmm, "paddq xmm, xmm", paddq %xmm0, %xmm1
        X_CHAIN pxor_xmm, "pxor xmm, xmm (different registers)", pxor %xmm0, %xmm1
        X_CHAIN pand_xmm, "pand xmm, xmm (different registers)", pand %xmm0, %xmm1
        X_CHAIN pcmpeqd_xmm, "pcmpeqd xmm, xmm (different registers)", pcmpeqd %xmm0, %xmm1
        X_CHAIN pmullw_xmm, "pmullw xmm, xmm", pmullw %xmm0, %xmm1
        X_TPUT  pmullw_xmm, "pmullw xmm, xmm", pmullw
        X_CHAIN pmuludq_xmm, "pmuludq xmm, xmm", pmuludq %xmm0, %xmm1
        X_CHAIN pmaddwd_xmm, "pmaddwd xmm, xmm", pmaddwd %xmm0, %xmm1
        X_CHAIN psadbw_xmm, "psadbw xmm, xmm", psadbw %xmm0, %xmm1
        X_CHAIN pavgb_xmm, "pavgb xmm, xmm", pavgb %xmm0, %xmm1
        X_CHAIN psllq_xmm_imm, "psllq xmm, imm8", psllq $1, %xmm1
        X_CHAIN pslldq_xmm, "pslldq xmm, imm8", pslldq $1, %xmm1
        X_CHAIN psrldq_xmm, "psrldq xmm, imm8", psrldq $1, %xmm1

# --- shuffles and unpacks -------------------------------------------------------------------------------------------
        X_CHAIN pshufd_xmm, "pshufd xmm, xmm, imm8", pshufd $0x1b, %xmm1, %xmm1
        KERNEL pshufd_xmm, tput, "pshufd xmm, xmm, imm8", COPIES_X
        XMM_ONES_PD
        LOOP
        .irp r, ROT_X
        pshufd $0x1b, %xmm0, %xmm\r
        .endr
        DONE
        X_CHAIN pshuflw_xmm, "pshuflw xmm, xmm, imm8", pshuflw $0x1b, %xmm1, %xmm1
        X_CHAIN punpcklbw_xmm, "punpcklbw xmm, xmm", punpcklbw %xmm0, %xmm1
        X_CHAIN punpckhbw_xmm, "punpckhbw xmm, xmm", punpckhbw %xmm0, %xmm1
        X_CHAIN packsswb_xmm, "packsswb xmm, xmm", packsswb %xmm0, %xmm1
        X_CHAIN shufps, "shufps xmm, xmm, imm8", shufps $0x1b, %xmm0, %xmm1
        X_CHAIN unpcklps, "unpcklps xmm, xmm", unpcklps %xmm0, %xmm1
        X_CHAIN unpckhpd, "unpckhpd xmm, xmm", unpckhpd %xmm0, %xmm1

# --- register moves -------------------------------------------------------------------------------------------------
.macro X_MOVE id, text, insn
        KERNEL \id, lat, "\text"
        XMM_ONES_PD
        LOOP
        .rept 8
        \insn %xmm1, %xmm2
        \insn %xmm2, %xmm1
        .endr
        DONE
.endm
        X_MOVE movaps_xmm, "movaps xmm, xmm", movaps
        X_MOVE movapd_xmm, "movapd xmm, xmm", movapd
        X_MOVE movdqa_xmm, "movdqa xmm, xmm", movdqa
        # movss/movsd xmm, xmm merge into the destination: the chain runs through it
        X_CHAIN movss_xmm, "movss xmm, xmm", movss %xmm0, %xmm1
        X_CHAIN movsd_xmm, "movsd xmm, xmm", movsd %xmm0, %xmm1
        KERNEL movaps_xmm, tput, "movaps xmm, xmm", COPIES_X
        XMM_ONES_PD
        LOOP
        .irp r, ROT_X
        movaps %xmm0, %xmm\r
        .endr
        DONE
        KERNEL movd_xmm_r32, lat, "movd r32, xmm + movd xmm, r32", 8
        XMM_ONES_PD
        LOOP
        .rept 8
        movd %xmm1, %eax
        movd %eax, %xmm1
        .endr
        DONE
        KERNEL movdq2q_movq2dq, lat, "movdq2q mm, xmm + movq2dq xmm, mm", 8
        XMM_ONES_PD
        LOOP
        .rept 8
        movdq2q %xmm1, %mm1
        movq2dq %mm1, %xmm1
        .endr
        DONE emms
