# Integer kernels: ALU, shifts and rotates, lea, multiply and divide, flag consumers, extensions, bit scans.
# 32-bit operand forms, as InstLatX86 measured them (they are the same instructions in 64-bit mode); 64-bit forms
# where only the 64-bit dump (Prescott) has a figure. tests/fidelity/measured.tsv has the real figures.
#include "kernel.inc"

# --- ALU -------------------------------------------------------------------------------------------------------
        CHAIN add_r32, "add r32, r32", add %ecx, %eax
        KERNEL add_r32, tput, "add r32, r32", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_32 add, %eax
        DONE
        CHAIN add_r32_imm8, "add r32, imm8", add $3, %eax
        # Immediates wider than a trace-cache slot holds (CoreConfig::tc_imm_bits): two delivery slots
        KERNEL add_r32_imm_4000, tput, "add r32, 0x4000", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        .irp r, ROT_G
        add $0x4000, \r
        .endr
        DONE
        KERNEL add_r32_imm_8000, tput, "add r32, 0x8000", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        .irp r, ROT_G
        add $0x8000, \r
        .endr
        DONE
        KERNEL add_r32_imm_10000, tput, "add r32, 0x10000", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        .irp r, ROT_G
        add $0x10000, \r
        .endr
        DONE
        CHAIN add_r64, "add r64, r64", add %rcx, %rax
        CHAIN sub_r32, "sub r32, r32 (different registers)", sub %ecx, %eax
        CHAIN and_r32, "and r32, r32 (different registers)", and %ecx, %eax
        KERNEL and_r32, tput, "and r32, r32 (different registers)", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_32 and, %eax
        DONE
        CHAIN or_r32, "or r32, r32 (different registers)", or %ecx, %eax
        CHAIN xor_r32, "xor r32, r32 (different registers)", xor %ecx, %eax
        CHAIN inc_r32, "inc r32", inc %eax
        KERNEL inc_r32, tput, "inc r32", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_1 inc
        DONE
        CHAIN neg_r32, "neg r32", neg %eax
        CHAIN not_r32, "not r32", not %eax
        # mov r32, r32: a chain eax -> ecx -> eax ...
        KERNEL mov_r32, lat, "mov r32, r32"
        GPRS1
        LOOP
        .rept 8
        mov %eax, %ecx
        mov %ecx, %eax
        .endr
        DONE

# --- extensions -------------------------------------------------------------------------------------------------
        CHAIN movzx_r32_r8, "movzx r32, r8", movzbl %al, %eax
        KERNEL movzx_r32_r8, tput, "movzx r32, r8", COPIES_G
        GPRS1
        LOOP
        ROTG_32 movzbl, %al
        DONE
        CHAIN movzx_r32_r16, "movzx r32, r16", movzwl %ax, %eax
        CHAIN movsx_r32_r8, "movsx r32, r8", movsbl %al, %eax
        CHAIN movsx_r32_r16, "movsx r32, r16", movswl %ax, %eax
        # 32-bit mode has no movsxd (its opcode is arpl there): the one form the i386 build cannot even assemble
#ifndef __i386__
        CHAIN movsxd_r64_r32, "movsxd r64, r32", movslq %eax, %rax
#endif

# --- flag consumers ---------------------------------------------------------------------------------------------
        # adc/sbb: the chain runs through the destination and the carry flag
        CHAIN adc_r32, "adc r32, r32", adc %ecx, %eax
        CHAIN sbb_r32, "sbb r32, r32 (different registers)", sbb %ecx, %eax
        CHAIN adc_r64, "adc r64, r64", adc %rcx, %rax
        # cmovnz: dec/jnz leave ZF clear, so every copy moves. The chain uses one register as source and destination,
        # as InstLatX86's L tests do (they print "diff. reg. set" where that cannot be, and SBB "r1_32, r2_32" as
        # the exception); the tput kernel's copies rewrite each destination from another register.
        CHAIN cmovnz_r32, "cmovnz r32, r32", cmovnz %eax, %eax
        KERNEL cmovnz_r32, tput, "cmovnz r32, r32", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_32 cmovnz, %eax
        DONE
        CHAIN cmovnz_r64, "cmovnz r64, r64", cmovnz %rax, %rax
        # setc writes a byte of its register and keeps the rest: each register is a chain
        KERNEL setc_r8, tput, "setc r8", COPIES_B, CHAINS_B
        GPRS1
        LOOP
        .irp r, ROT_B
        setc \r
        .endr
        DONE

# --- shifts and rotates -----------------------------------------------------------------------------------------
        CHAIN shl_r32_1, "shl r32, 1", shl $1, %eax
        KERNEL shl_r32_1, tput, "shl r32, 1", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_32 shl, $1
        DONE
        CHAIN shl_r32_imm, "shl r32, imm8", shl $3, %eax
        KERNEL shl_r32_imm, tput, "shl r32, imm8", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_32 shl, $3
        DONE
        CHAIN shr_r32_imm, "shr r32, imm8", shr $3, %eax
        CHAIN sar_r32_imm, "sar r32, imm8", sar $3, %eax
        CHAIN rol_r32_imm, "rol r32, imm8", rol $3, %eax
        KERNEL rol_r32_imm, tput, "rol r32, imm8", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_32 rol, $3
        DONE
        CHAIN ror_r32_imm, "ror r32, imm8", ror $3, %eax
        # cl = 1 (GPRS1)
        CHAIN shl_r32_cl, "shl r32, cl", shl %cl, %eax
        KERNEL shl_r32_cl, tput, "shl r32, cl", COPIES_G_NOCX, CHAINS_G_NOCX
        GPRS1
        LOOP
        .irp r, ROT_G_NOCX
        shl %cl, \r
        .endr
        DONE
        CHAIN shr_r32_cl, "shr r32, cl", shr %cl, %eax
        CHAIN sar_r32_cl, "sar r32, cl", sar %cl, %eax
        CHAIN rol_r32_cl, "rol r32, cl", rol %cl, %eax
        CHAIN rcl_r32_1, "rcl r32, 1", rcl $1, %eax
        CHAIN shld_r32_imm, "shld r32, r32, imm8", shld $3, %ecx, %eax
        CHAIN shrd_r32_imm, "shrd r32, r32, imm8", shrd $3, %ecx, %eax
        CHAIN shl_r64_imm, "shl r64, imm8", shl $3, %rax
        CHAIN shr_r64_imm, "shr r64, imm8", shr $3, %rax
        KERNEL shr_r64_imm, tput, "shr r64, imm8", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        .irp r, ROT_G64
        shr $3, \r
        .endr
        DONE
        CHAIN sar_r64_imm, "sar r64, imm8", sar $3, %rax
        CHAIN rol_r64_imm, "rol r64, imm8", rol $3, %rax
        CHAIN shl_r64_cl, "shl r64, cl", shl %cl, %rax
        CHAIN shr_r64_cl, "shr r64, cl", shr %cl, %rax
        CHAIN shld_r64_imm, "shld r64, r64, imm8", shld $3, %rdx, %rax
        KERNEL shld_r64_imm, tput, "shld r64, r64, imm8", COPIES_G64_NODX
        GPRS1
        LOOP
        .irp r, ROT_G64_NODX
        shld $3, %rdx, \r
        .endr
        DONE
        CHAIN shld_r64_cl, "shld r64, r64, cl", shld %cl, %rdx, %rax

# --- lea: the address is as wide as the mode, r64 in 64-bit mode and r32 in 32-bit mode (the text says r) ---------------------------------------------------------------------------------------------------------
        CHAIN lea_bi, "lea r32, [r+r]", lea (%rax,%rcx), %eax
        KERNEL lea_bi, tput, "lea r32, [r+r]", COPIES_G_NOACX
        GPRS1
        LOOP
        .irp r, ROT_G_NOACX
        lea (%rax,%rcx), \r
        .endr
        DONE
        CHAIN lea_bid8, "lea r32, [r+r+disp8]", lea 8(%rax,%rcx), %eax
        CHAIN lea_bs8, "lea r32, [r+r*8]", lea (%rax,%rcx,8), %eax
        KERNEL lea_bs8, tput, "lea r32, [r+r*8]", COPIES_G_NOACX
        GPRS1
        LOOP
        .irp r, ROT_G_NOACX
        lea (%rax,%rcx,8), \r
        .endr
        DONE
        CHAIN lea_bs8d8, "lea r32, [r+r*8+disp8]", lea 8(%rax,%rcx,8), %eax
        CHAIN lea64_bi, "lea r64, [r64+r64]", lea (%rax,%rcx), %rax

# --- bit scans, bswap ---------------------------------------------------------------------------------------------
        # the result of bsf is a bit index: `or` with 0x100 keeps the next source non-zero; a copy is bsf + or
        KERNEL bsf_or_r32, lat, "bsf r32, r32 + or r32, r32", 8
        GPRS1
        mov $0x100, %ecx
        LOOP
        .rept 8
        bsf %eax, %eax
        or %ecx, %eax
        .endr
        DONE
        KERNEL bsr_or_r32, lat, "bsr r32, r32 + or r32, r32", 8
        GPRS1
        mov $0x100, %ecx
        LOOP
        .rept 8
        bsr %eax, %eax
        or %ecx, %eax
        .endr
        DONE
        KERNEL bsf_r32, tput, "bsf r32, r32", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_32 bsf, %eax
        DONE
        CHAIN bswap_r32, "bswap r32", bswap %eax
        KERNEL bswap_r32, tput, "bswap r32", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_1 bswap
        DONE
        CHAIN bswap_r64, "bswap r64", bswap %rax

# --- multiply ----------------------------------------------------------------------------------------------------
        CHAIN imul_r32, "imul r32, r32", imul %ecx, %eax
        KERNEL imul_r32, tput, "imul r32, r32", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_32 imul, %eax
        DONE
        CHAIN imul_r32_imm8, "imul r32, r32, imm8", imul $3, %eax, %eax
        CHAIN imul_r16, "imul r16, r16", imul %cx, %ax
        CHAIN imul_r64, "imul r64, r64", imul %rcx, %rax
        KERNEL imul_r64, tput, "imul r64, r64", COPIES_G, CHAINS_G
        GPRS1
        LOOP
        ROTG_64 imul, %rax
        DONE
        # one-operand forms: edx:eax = eax * ecx, the chain runs through eax
        CHAIN mul_r32, "mul r32 (eax result)", mul %ecx
        CHAIN imul1_r32, "imul r32 (eax result)", imul %ecx
        CHAIN mul_r8, "mul r8 (al result)", mul %cl
        CHAIN mul_r16, "mul r16 (ax result)", mul %cx
        CHAIN mul_r64, "mul r64 (rax result)", mul %rcx
        # rdx:rax = rax * rdx: the chain runs through both halves, the high half's the longer
        CHAIN mul_r64_rdx, "mul r64 (rdx result)", mul %rdx

# --- divide: dividend 1, divisor 1, so quotient 1 and remainder 0 feed the next copy (the "1/1" tests of InstLat) ------
        KERNEL div_r32, lat, "div r32 (1/1)"
        GPRS1
        xor %edx, %edx
        LOOP
        .rept 16
        div %ecx
        .endr
        DONE
        KERNEL idiv_r32, lat, "idiv r32 (1/1)"
        GPRS1
        xor %edx, %edx
        LOOP
        .rept 16
        idiv %ecx
        .endr
        DONE
        KERNEL div_r16, lat, "div r16 (1/1)"
        GPRS1
        xor %edx, %edx
        LOOP
        .rept 16
        div %cx
        .endr
        DONE
        KERNEL div_r8, lat, "div r8 (1/1)"
        GPRS1
        LOOP
        .rept 16
        div %cl
        .endr
        DONE
        KERNEL idiv_r8, lat, "idiv r8 (1/1)"
        GPRS1
        LOOP
        .rept 16
        idiv %cl
        .endr
        DONE
        KERNEL div_r64, lat, "div r64 (1/1)"
        GPRS1
        xor %edx, %edx
        LOOP
        .rept 16
        div %rcx
        .endr
        DONE
        KERNEL idiv_r64, lat, "idiv r64 (1/1)"
        GPRS1
        xor %edx, %edx
        LOOP
        .rept 16
        idiv %rcx
        .endr
        DONE
