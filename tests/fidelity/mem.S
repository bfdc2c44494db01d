# Memory kernels: L1 load-to-use (pointer chase), load and store throughput, store forwarding and its failure,
# split loads, the L2 and memory latency (pointer chase over rings larger than the L1 and the L2), and the L2 to
# L1 bandwidth. The buffers are set up by the driver (driver.c) before it measures; the program is linked
# without PIE, so that every address fits in 32 bits and a 32-bit load can chase pointers, as InstLatX86 does.
#include "kernel.inc"

.macro CHASE id, text, start, insn:vararg
        KERNEL \id, lat, "\text"
        mov GLOBAL(\start), %rax
        LOOP
        .rept 16
        \insn
        .endr
        DONE
.endm
        # fid_self_ptr holds its own address (64-bit), so does fid_self_ptr32 (32-bit)
        CHASE load_r32, "mov r32, [m32] (L1 hit, pointer chase)", fid_p_self, mov (%rax), %eax
        CHASE load_r64, "mov r64, [m64] (L1 hit, pointer chase)", fid_p_self, mov (%rax), %rax
        # The same chase begun by a load that misses: each call first reads self_area's address from the next 4 KB
        # page of a 256 KB area that is in no cache (driver.c). However late it starts, the chain must run at the L1
        # latency.
        KERNEL load_r32_after_miss, lat, "mov r32, [m32] (L1 hit, pointer chase begun by a load that misses)"
        mov GLOBAL(fid_p_cold), %rdx
        mov (%rdx), %eax
        add $4096, %rdx
        cmp GLOBAL(fid_p_cold_end), %rdx
        jb 1f
        sub $262144, %rdx
1:      mov %rdx, GLOBAL(fid_p_cold)
        LOOP
        .rept 16
        mov (%rax), %eax
        .endr
        DONE
        # the byte at the address is its own low byte: a partial-register write feeds the next address
        CHASE load_r8, "mov r8, [m8] (L1 hit, pointer chase)", fid_p_byte, mov (%rax), %al
        # the dword at the address is zero: load + add per copy
        CHASE add_r32_m32, "add r32, [m32] (load-op, address chain)", fid_p_zero, add (%rax), %eax
        # crosses a 64-byte line: bytes 62 to 65 of a line pair hold their own address
        CHASE load_split, "mov r32, [m32] crossing a 64-byte line (pointer chase)", fid_p_split, mov (%rax), %eax
        # Each call goes on from where the last one stopped, as mem_latency does: the lines ahead were last read a
        # whole ring ago and have left the L1. Started at the ring's head, a call would find in the L1 the lines a
        # longer call before it read last, and the figure would depend on the lengths of the calls before.
        KERNEL l2_latency, lat, "pointer chase, random 128-byte slots of a 128 KB ring (L2 hit)"
        mov GLOBAL(fid_p_l2), %rax
        LOOP
        .rept 16
        mov (%rax), %eax
        .endr
        DONE mov %rax, GLOBAL(fid_p_l2)
        # Each call goes on from where the last one stopped (fid_p_mem is moved on), as InstLat's chase does: at
        # the driver's default lengths the calls together read 12 MB of the 16 MB ring, so every load is to a line
        # no earlier call brought in. Started at the ring's head, a call would find the lines of the call before it
        # in a 2 MB L2, and the difference of two runs would mix misses and hits.
        KERNEL mem_latency, lat, "pointer chase, 1 KB stride through a 16 MB ring (memory)"
        mov GLOBAL(fid_p_mem), %rax
        LOOP
        .rept 16
        mov (%rax), %eax
        .endr
        DONE mov %rax, GLOBAL(fid_p_mem)

        KERNEL load_r32, tput, "mov r32, [m32]", COPIES_G
        mov GLOBAL(fid_p_self), %rax
        LOOP
        ROTG_32 mov, (%rax)
        DONE
        KERNEL store_r32, tput, "mov [m32], r32"
        mov GLOBAL(fid_p_self), %rsi
        add $64, %rsi
        LOOP
        .rept 16
        mov %eax, (%rsi)
        .endr
        DONE
# MMX_STORE id, text, store: 16 independent `store %mm1, (%rsi)`.
.macro MMX_STORE id, text, store
        KERNEL \id, tput, "\text"
        mov GLOBAL(fid_p_self), %rsi
        add $64, %rsi
        movq GLOBAL(fid_ones_pd), %mm1
        LOOP
        .rept 16
        \store %mm1, (%rsi)
        .endr
        DONE emms
.endm
        # movd m32, mm takes a port-1 slot beside its store address (uop_decode.cpp, Builder::store); a stream of
        # them is still bound by the stores' commit, as movq's is
        MMX_STORE movd_mm_store, "movd [m32], mm", movd
        MMX_STORE movq_mm_store, "movq [m64], mm", movq
        KERNEL movsd_load, tput, "movsd xmm, [m64]"
        mov GLOBAL(fid_p_self), %rax
        LOOP
        .irp r, ROT_X_ALL
        movsd (%rax), %xmm\r
        .endr
        DONE
        KERNEL movaps_load, tput, "movaps xmm, [m128]"
        mov GLOBAL(fid_p_self), %rax
        LOOP
        .irp r, ROT_X_ALL
        movaps (%rax), %xmm\r
        .endr
        DONE
        KERNEL movups_load_u4, tput, "movups xmm, [m128+4]"
        mov GLOBAL(fid_p_self), %rax
        LOOP
        .irp r, ROT_X_ALL
        movups 4(%rax), %xmm\r
        .endr
        DONE

# --- store forwarding ---------------------------------------------------------------------------------------------
        KERNEL add_m32_r32, lat, "add [m32], r32 (store-forwarded read-modify-write)"
        mov GLOBAL(fid_p_self), %rsi
        add $128, %rsi
        mov $1, %ecx
        LOOP
        .rept 16
        add %ecx, (%rsi)
        .endr
        DONE
# SF_PAIR id, text, store, src, load, dst[, offset]: `store src, (%rsi)` then `load offset(%rsi), dst`, 8 times.
.macro SF_SETUP
        mov GLOBAL(fid_p_self), %rsi
        add $192, %rsi
        XMM_ONES_PD
        movq GLOBAL(fid_ones_pd), %mm1
        mov $1, %eax
.endm
.macro SF_PAIR id, text, store, src, load, dst, offset
        KERNEL \id, lat, "\text", 8
        SF_SETUP
        LOOP
        .rept 8
        \store \src, (%rsi)
        \load \offset(%rsi), \dst
        .endr
        DONE emms
.endm
        SF_PAIR mov_sf_pair, "mov [m32], r32 + mov r32, [m32] (forwarded)", mov, %eax, mov, %eax
        # the stack's width: r64 in 64-bit mode, r32 in 32-bit mode
#ifdef __i386__
        KERNEL push_pop, lat, "push r32 + pop r32", 8
#else
        KERNEL push_pop, lat, "push r64 + pop r64", 8
#endif
        SF_SETUP
        LOOP
        .rept 8
        push %rax
        pop %rax
        .endr
        DONE emms
        SF_PAIR movsd_sf_pair, "movsd [m64], xmm + movsd xmm, [m64] (forwarded)", movsd, %xmm1, movsd, %xmm1
        SF_PAIR movaps_sf_pair, "movaps [m128], xmm + movaps xmm, [m128] (forwarded)", movaps, %xmm1, movaps, %xmm1
        SF_PAIR movdqa_sf_pair, "movdqa [m128], xmm + movdqa xmm, [m128] (forwarded)", movdqa, %xmm1, movdqa, %xmm1
        SF_PAIR movq_mm_sf_pair, "movq [m64], mm + movq mm, [m64] (forwarded)", movq, %mm1, movq, %mm1
        SF_PAIR movd_mm_sf_pair, "movd [m32], mm + movd mm, [m32] (forwarded)", movd, %mm1, movd, %mm1
        # forwarding fails: the load is larger than the store, or starts inside it at another address
        SF_PAIR sf_fail_size, "mov [m32], r32 + mov r64, [m64] (forwarding fails: load larger)", mov, %eax, mov, %rax
        SF_PAIR sf_fail_offset, "mov [m64], r64 + mov r32, [m64+4] (forwarding fails: other start)", mov, %rax, mov, %eax, 4

# --- L2 to L1 bandwidth: one load per 64-byte line of a 64 KB buffer (in the L2, not in the L1) ----------------------
        # Each call goes on from where the last one stopped (fid_bw_offset), for the reason l2_latency does.
        KERNEL l2_bandwidth, tput, "independent loads, one per 64-byte line of a 64 KB buffer (L2 to L1)"
        mov GLOBAL(fid_p_bw), %rbx
        mov GLOBAL(fid_bw_offset), %rcx
        lea (%rbx,%rcx), %rsi
        LOOP
        .irp o, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        mov \o*64(%rsi), %eax
        .endr
        add $1024, %ecx
        and $0xffff, %ecx
        lea (%rbx,%rcx), %rsi
        DONE mov %rcx, GLOBAL(fid_bw_offset)
