# Loops with known instruction, branch, load, store and FP counts, for the exactness tests
# (tests/integration/guest_exactness.cpp, guest_loops.c; doc/netburst-run.md, "Exactness").
#
# Every function has the same shape:
#
#   uint64_t nb_loop_KIND(uint64_t n, void* buffer, const uint64_t* requests)
#
# It runs its loop body n times (n >= 2, even for nb_loop_branches). `requests` points at two Valgrind
# client-request blocks (six words each, as valgrind.h builds them): the first is issued just before the loop and
# the second just after, so that the emulator can be read at exactly those two instruction boundaries (a caller
# that reads nothing passes two harmless requests, such as NB_REQ_COUNTER_STATUS).
# Between the two requests the guest executes the loop and exactly two more instructions, which set up the second
# request:
#
#     mov %r9, %rax       (the request block's address)
#     mov $3, %rdx        (the default result, NB_NOT_EMULATED)
#
# Both are integer register moves: no memory access, no branch, no FP. That is the fixed overhead of the
# measuring calls. The special instruction sequence itself is the call into the tool, not guest work.
#
# Per iteration (taken/not taken for the loop branch itself: taken n-1 times, not taken once):
#   nb_loop_int       4 instructions: add, xor, sub, jnz                       1 conditional branch
#   nb_loop_branches  4 or 5 instructions: test, jz, [nop], sub, jnz        2 conditional branches; the jz is
#                     taken on the n/2 iterations with an even counter (then the nop is skipped)
#   nb_loop_loads     4 instructions, 2 loads (8 bytes each, buffer[0] and buffer[8])
#   nb_loop_stores    4 instructions, 2 stores (8 bytes each)
#   nb_loop_x87       4 instructions, 2 x87 arithmetic (fadd, fmul on the register stack)
#   nb_loop_sse_sd    4 instructions, 2 scalar double (addsd, mulsd)
#   nb_loop_sse_ss    4 instructions, 2 scalar single (addss, mulss)
#   nb_loop_sse_pd    4 instructions, 2 packed double (addpd, mulpd)
#   nb_loop_sse_ps    4 instructions, 2 packed single (addps, mulps)
#   nb_loop_mmx       4 instructions, 2 MMX (paddw, psubw on mm registers)
#   nb_loop_simd_int  4 instructions, 2 SSE2 integer (paddd, psubd on xmm registers)
#   nb_loop_fldcw     8 instructions: fnstcw, movzwl, movb, movw, fldcw (round to zero), fldcw (back), sub, jnz;
#                     Valgrind leaves the block after a round-to-zero fldcw (it cannot emulate that mode exactly),
#                     and that instruction must still be counted
# Each returns n.

        .text

# The client-request call (valgrind.h, amd64): %rax points at the block, %rdx holds the default result.
.macro REQUEST
        rolq $3, %rdi
        rolq $13, %rdi
        rolq $61, %rdi
        rolq $51, %rdi
        xchgq %rbx, %rbx
.endm

# Prologue: n in %rcx, the second block in %r9, then the first request.
.macro BEGIN name
        .globl \name
        .type \name, @function
\name:
        push %rbx
        push %rdi
        mov %rdi, %rcx
        lea 48(%rdx), %r9
        mov %rdx, %rax
        mov $3, %rdx
        REQUEST
.endm

# Epilogue: the second request, and n as the result.
.macro END name
        mov %r9, %rax
        mov $3, %rdx
        REQUEST
        pop %rax
        pop %rbx
        ret
        .size \name, .-\name
.endm

BEGIN nb_loop_int
1:      add %r10, %r11
        xor %rdx, %rdx
        sub $1, %rcx
        jnz 1b
END nb_loop_int

BEGIN nb_loop_branches
1:      test $1, %rcx
        jz 2f
        nop
2:      sub $1, %rcx
        jnz 1b
END nb_loop_branches

BEGIN nb_loop_loads
1:      mov (%rsi), %rax
        mov 8(%rsi), %r10
        sub $1, %rcx
        jnz 1b
END nb_loop_loads

BEGIN nb_loop_stores
1:      mov %rax, (%rsi)
        mov %r10, 8(%rsi)
        sub $1, %rcx
        jnz 1b
END nb_loop_stores

# The x87 stack is loaded before the first request and emptied after the second.
        .globl nb_loop_x87
        .type nb_loop_x87, @function
nb_loop_x87:
        fld1
        fld1
        call nb_loop_x87_body
        fstp %st(0)
        fstp %st(0)
        ret
        .size nb_loop_x87, .-nb_loop_x87
BEGIN nb_loop_x87_body
1:      fadd %st(1), %st
        fmul %st(1), %st
        sub $1, %rcx
        jnz 1b
END nb_loop_x87_body

BEGIN nb_loop_sse_sd
1:      addsd %xmm1, %xmm0
        mulsd %xmm1, %xmm0
        sub $1, %rcx
        jnz 1b
END nb_loop_sse_sd

BEGIN nb_loop_sse_ss
1:      addss %xmm1, %xmm0
        mulss %xmm1, %xmm0
        sub $1, %rcx
        jnz 1b
END nb_loop_sse_ss

BEGIN nb_loop_sse_pd
1:      addpd %xmm1, %xmm0
        mulpd %xmm1, %xmm0
        sub $1, %rcx
        jnz 1b
END nb_loop_sse_pd

BEGIN nb_loop_sse_ps
1:      addps %xmm1, %xmm0
        mulps %xmm1, %xmm0
        sub $1, %rcx
        jnz 1b
END nb_loop_sse_ps

# MMX registers alias the x87 stack: emms after the second request hands it back.
        .globl nb_loop_mmx
        .type nb_loop_mmx, @function
nb_loop_mmx:
        call nb_loop_mmx_body
        emms
        ret
        .size nb_loop_mmx, .-nb_loop_mmx
BEGIN nb_loop_mmx_body
1:      paddw %mm1, %mm0
        psubw %mm1, %mm0
        sub $1, %rcx
        jnz 1b
END nb_loop_mmx_body

BEGIN nb_loop_simd_int
1:      paddd %xmm1, %xmm0
        psubd %xmm1, %xmm0
        sub $1, %rcx
        jnz 1b
END nb_loop_simd_int

BEGIN nb_loop_fldcw
1:      fnstcw (%rsi)
        movzwl (%rsi), %eax
        movb $12, %ah
        movw %ax, 8(%rsi)
        fldcw 8(%rsi)
        fldcw (%rsi)
        sub $1, %rcx
        jnz 1b
END nb_loop_fldcw

        .section .note.GNU-stack,"",@progbits
