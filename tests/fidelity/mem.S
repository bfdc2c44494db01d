# Memory kernels: L1 load-to-use (pointer chase), load and store throughput, store forwarding and its failure,
# split loads, the L2 and memory latency (pointer chase over rings larger than the L1 and the L2), and the L2 to
# L1 bandwidth. The buffers are set up by the driver (driver.c) before it measures; the program is linked
# without PIE, so that every address fits in 32 bits and a 32-bit load can chase pointers, as InstLatX86 does.
#include "kernel.inc"

.macro CHASE id, text, start, insn:vararg
        KERNEL \id, lat, "\text"
        mov \start(%rip), %rax
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
        mov fid_p_cold(%rip), %rdx
        mov (%rdx), %eax
        add $4096, %rdx
        cmp fid_p_cold_end(%rip), %rdx
        jb 1f
        sub $262144, %rdx
1:      mov %rdx, fid_p_cold(%rip)
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
        mov fid_p_l2(%rip), %rax
        LOOP
        .rept 16
        mov (%rax), %eax
        .endr
        DONE mov %rax, fid_p_l2(%rip)
        # Each call goes on from where the last one stopped (fid_p_mem is moved on), as InstLat's chase does: at
        # the driver's default lengths the calls together read 12 MB of the 16 MB ring, so every load is to a line
        # no earlier call brought in. Started at the ring's head, a call would find the lines of the call before it
        # in a 2 MB L2, and the difference of two runs would mix misses and hits.
        KERNEL mem_latency, lat, "pointer chase, 1 KB stride through a 16 MB ring (memory)"
        mov fid_p_mem(%rip), %rax
        LOOP
        .rept 16
        mov (%rax), %eax
        .endr
        DONE mov %rax, fid_p_mem(%rip)

        KERNEL load_r32, tput, "mov r32, [m32]"
        mov fid_p_self(%rip), %rax
        LOOP
        ROTG_32 mov, (%rax)
        DONE
        KERNEL store_r32, tput, "mov [m32], r32"
        mov fid_p_self(%rip), %rsi
        add $64, %rsi
        LOOP
        .rept 16
        mov %eax, (%rsi)
        .endr
        DONE
        KERNEL movsd_load, tput, "movsd xmm, [m64]"
        mov fid_p_self(%rip), %rax
        LOOP
        .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        movsd (%rax), %xmm\r
        .endr
        DONE
        KERNEL movaps_load, tput, "movaps xmm, [m128]"
        mov fid_p_self(%rip), %rax
        LOOP
        .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        movaps (%rax), %xmm\r
        .endr
        DONE
        KERNEL movups_load_u4, tput, "movups xmm, [m128+4]"
        mov fid_p_self(%rip), %rax
        LOOP
        .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        movups 4(%rax), %xmm\r
        .endr
        DONE

# --- store forwarding ---------------------------------------------------------------------------------------------
        KERNEL add_m32_r32, lat, "add [m32], r32 (store-forwarded read-modify-write)"
        mov fid_p_self(%rip), %rsi
        add $128, %rsi
        mov $1, %ecx
        LOOP
        .rept 16
        add %ecx, (%rsi)
        .endr
        DONE
.macro SF_PAIR id, text, store, load
        KERNEL \id, lat, "\text", 8
        mov fid_p_self(%rip), %rsi
        add $192, %rsi
        XMM_ONES_PD
        movq fid_ones_pd(%rip), %mm1
        mov $1, %eax
        LOOP
        .rept 8
        \store
        \load
        .endr
        DONE emms
.endm
        SF_PAIR mov_sf_pair, "mov [m32], r32 + mov r32, [m32] (forwarded)", "mov %eax, (%rsi)", "mov (%rsi), %eax"
        SF_PAIR push_pop, "push r64 + pop r64", "push %rax", "pop %rax"
        SF_PAIR movsd_sf_pair, "movsd [m64], xmm + movsd xmm, [m64] (forwarded)", "movsd %xmm1, (%rsi)", "movsd (%rsi), %xmm1"
        SF_PAIR movaps_sf_pair, "movaps [m128], xmm + movaps xmm, [m128] (forwarded)", "movaps %xmm1, (%rsi)", "movaps (%rsi), %xmm1"
        SF_PAIR movdqa_sf_pair, "movdqa [m128], xmm + movdqa xmm, [m128] (forwarded)", "movdqa %xmm1, (%rsi)", "movdqa (%rsi), %xmm1"
        SF_PAIR movq_mm_sf_pair, "movq [m64], mm + movq mm, [m64] (forwarded)", "movq %mm1, (%rsi)", "movq (%rsi), %mm1"
        # forwarding fails: the load is larger than the store, or starts inside it at another address
        SF_PAIR sf_fail_size, "mov [m32], r32 + mov r64, [m64] (forwarding fails: load larger)", "mov %eax, (%rsi)", "mov (%rsi), %rax"
        SF_PAIR sf_fail_offset, "mov [m64], r64 + mov r32, [m64+4] (forwarding fails: other start)", "mov %rax, (%rsi)", "mov 4(%rsi), %eax"

# --- L2 to L1 bandwidth: one load per 64-byte line of a 64 KB buffer (in the L2, not in the L1) ----------------------
        # Each call goes on from where the last one stopped (fid_bw_offset), for the reason l2_latency does.
        KERNEL l2_bandwidth, tput, "independent loads, one per 64-byte line of a 64 KB buffer (L2 to L1)"
        mov fid_p_bw(%rip), %rbx
        mov fid_bw_offset(%rip), %rcx
        lea (%rbx,%rcx), %rsi
        LOOP
        .irp o, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        mov \o*64(%rsi), %eax
        .endr
        add $1024, %ecx
        and $0xffff, %ecx
        lea (%rbx,%rcx), %rsi
        DONE mov %rcx, fid_bw_offset(%rip)
