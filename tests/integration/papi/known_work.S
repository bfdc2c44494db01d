# Loops whose work is known exactly, for the PAPI integration tests: each runs n iterations (n >= 1) and its
# iteration is listed with what it retires. The calls, returns and the last (not taken) loop branch are the same
# for any n, so the difference between two runs with n1 and n2 iterations is exactly (n2 - n1) iterations.
	.text

# 4 instructions, 1 conditional branch (taken).
	.globl nb_alu_loop
nb_alu_loop:
1:	add	%rdx, %rax
	add	$1, %rdx
	dec	%rdi
	jnz	1b
	ret

# 3 instructions: 1 load (8 bytes from p), 1 branch.
	.globl nb_load_loop
nb_load_loop:                      # (n, p)
1:	mov	(%rsi), %rax
	dec	%rdi
	jnz	1b
	ret

# 3 instructions: 1 store (8 bytes to p), 1 branch.
	.globl nb_store_loop
nb_store_loop:                     # (n, p)
1:	mov	%rdi, (%rsi)
	dec	%rdi
	jnz	1b
	ret

# 3 instructions: 1 scalar double-precision SSE2 add, 1 branch.
	.globl nb_sse_scalar_loop
nb_sse_scalar_loop:
1:	addsd	%xmm1, %xmm0
	dec	%rdi
	jnz	1b
	ret

# 3 instructions: 1 packed double-precision SSE2 add, 1 branch.
	.globl nb_sse_packed_loop
nb_sse_packed_loop:
1:	addpd	%xmm1, %xmm0
	dec	%rdi
	jnz	1b
	ret

# 3 instructions: 1 x87 add, 1 branch (the x87 stack is set up and cleared outside the loop).
	.globl nb_x87_loop
nb_x87_loop:
	fld1
1:	fadd	%st(0), %st(0)
	dec	%rdi
	jnz	1b
	fstp	%st(0)
	ret

# 5 instructions: 2 conditional branches, one never taken (js: n is positive) and the loop branch (taken).
	.globl nb_branch_loop
nb_branch_loop:
1:	test	%rdi, %rdi
	js	2f
	add	$1, %rax
	dec	%rdi
	jnz	1b
2:	ret

# 3 instructions: 1 unconditional jump, 1 conditional branch (taken).
	.globl nb_jump_loop
nb_jump_loop:
1:	jmp	2f
2:	dec	%rdi
	jnz	1b
	ret

# 4 instructions: 1 load from p + i * stride, 1 branch: with stride 64 every load touches a new cache line, with
# stride 4096 a new page.
	.globl nb_stride_loop
nb_stride_loop:                    # (n, p, stride)
1:	mov	(%rsi), %rax
	add	%rdx, %rsi
	dec	%rdi
	jnz	1b
	ret

# 27 instructions in one block: 1 packed double-precision SSE2 add first, then 24 four-byte adds (one after another
# through rax: one retires a cycle), 1 branch. Valgrind delivers a signal only between blocks, so a signal that
# interrupts this loop does so at its first instruction; an instruction inside the body can only come from the
# emulator's model.
	.globl nb_packed_block_loop
nb_packed_block_loop:
1:	addpd	%xmm1, %xmm0
	.rept	24
	add	$1, %rax
	.endr
	dec	%rdi
	jnz	1b
	ret
	.globl nb_packed_block_loop_end
nb_packed_block_loop_end:
	.section .note.GNU-stack,"",@progbits
