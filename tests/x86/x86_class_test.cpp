// The instruction class the opcode table gives, against a table of encodings. The bytes were produced by GNU as
// from the mnemonic in the first column (x86-64, AT&T syntax); the expected class is what the emulator's InsnClass
// documents for it.
#include <gtest/gtest.h>

#include <vector>

#include "emulator/x86/x86_instruction.h"

using namespace netburst::emu;
using C = InsnClass;

namespace {

struct Encoding {
    const char* text;
    std::vector<std::uint8_t> bytes;
    InsnClass cls;
    bool memory_form;
    int target_offset;  // direct branches: target minus the instruction's address
};

const Encoding kEncodings[] = {
    {"add %rbx, %rax", {0x48, 0x01, 0xd8}, C::IntAlu, false, 0},
    {"add (%rsi), %eax", {0x03, 0x06}, C::IntAlu, true, 0},
    {"addq $1, 8(%rsp)", {0x48, 0x83, 0x44, 0x24, 0x08, 0x01}, C::IntAlu, true, 0},
    {"lock addq $1, (%rdi)", {0xf0, 0x48, 0x83, 0x07, 0x01}, C::Microcode, true, 0},
    {"xor %eax, %eax", {0x31, 0xc0}, C::IntAlu, false, 0},
    {"cmp $5, %r12d", {0x41, 0x83, 0xfc, 0x05}, C::IntAlu, false, 0},
    {"mov %rax, %rbx", {0x48, 0x89, 0xc3}, C::IntAlu, false, 0},
    {"mov 0x10(%rbp), %r9", {0x4c, 0x8b, 0x4d, 0x10}, C::IntAlu, true, 0},
    {"movabs $0x1122334455667788, %rax", {0x48, 0xb8, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}, C::IntAlu, false, 0},
    {"lea 8(%rax,%rbx,4), %rcx", {0x48, 0x8d, 0x4c, 0x98, 0x08}, C::IntAlu, true, 0},
    {"push %rbp", {0x55}, C::IntAlu, false, 0},
    {"pop %r15", {0x41, 0x5f}, C::IntAlu, false, 0},
    {"movzbl (%rdi), %eax", {0x0f, 0xb6, 0x07}, C::IntAlu, true, 0},
    {"movslq %edi, %rax", {0x48, 0x63, 0xc7}, C::IntAlu, false, 0},
    {"cmovne %rdx, %rax", {0x48, 0x0f, 0x45, 0xc2}, C::IntAlu, false, 0},
    {"sete %al", {0x0f, 0x94, 0xc0}, C::IntAlu, false, 0},
    {"bswap %eax", {0x0f, 0xc8}, C::IntAlu, false, 0},
    {"popcnt %rdi, %rax", {0xf3, 0x48, 0x0f, 0xb8, 0xc7}, C::IntAlu, false, 0},
    {"bsf %rdi, %rax", {0x48, 0x0f, 0xbc, 0xc7}, C::IntAlu, false, 0},
    {"xchg %rax, %rbx", {0x48, 0x93}, C::IntAlu, false, 0},
    {"xchg %rax, (%rdi)", {0x48, 0x87, 0x07}, C::Microcode, true, 0},
    {"lock cmpxchg %rcx, (%rdi)", {0xf0, 0x48, 0x0f, 0xb1, 0x0f}, C::Microcode, true, 0},
    {"cmpxchg %rcx, %rdx", {0x48, 0x0f, 0xb1, 0xca}, C::IntAlu, false, 0},
    {"shl $3, %rax", {0x48, 0xc1, 0xe0, 0x03}, C::IntShift, false, 0},
    {"sar %cl, %edx", {0xd3, 0xfa}, C::IntShift, false, 0},
    {"rol $1, %ebx", {0xd1, 0xc3}, C::IntShift, false, 0},
    {"shld $4, %rax, %rbx", {0x48, 0x0f, 0xa4, 0xc3, 0x04}, C::IntShift, false, 0},
    {"imul %rbx, %rax", {0x48, 0x0f, 0xaf, 0xc3}, C::IntMul, false, 0},
    {"imul $12, %rbx, %rax", {0x48, 0x6b, 0xc3, 0x0c}, C::IntMul, false, 0},
    {"mulq (%rdi)", {0x48, 0xf7, 0x27}, C::IntMul, true, 0},
    {"divq %rcx", {0x48, 0xf7, 0xf1}, C::IntDiv, false, 0},
    {"idivl (%rsi)", {0xf7, 0x3e}, C::IntDiv, true, 0},
    {"notq %rax", {0x48, 0xf7, 0xd0}, C::IntAlu, false, 0},
    {"negl (%rdi)", {0xf7, 0x1f}, C::IntAlu, true, 0},
    {"testb $1, %al", {0xa8, 0x01}, C::IntAlu, false, 0},
    {"incq (%rax)", {0x48, 0xff, 0x00}, C::IntAlu, true, 0},
    {"nop", {0x90}, C::Nop, false, 0},
    {"nopw 0x0(%rax,%rax,1)", {0x66, 0x0f, 0x1f, 0x04, 0x00}, C::Nop, true, 0},
    {"pause", {0xf3, 0x90}, C::Halt, false, 0},
    {"hlt", {0xf4}, C::Halt, false, 0},
    {"endbr64", {0xf3, 0x0f, 0x1e, 0xfa}, C::Nop, false, 0},
    {"prefetcht0 (%rdi)", {0x0f, 0x18, 0x0f}, C::Nop, true, 0},
    {"jne .+0x10", {0x75, 0x0e}, C::CondBranch, false, 16},
    {"je .-0x80", {0x0f, 0x84, 0x7a, 0xff, 0xff, 0xff}, C::CondBranch, false, -128},
    {"jg .+0x1000", {0x0f, 0x8f, 0xfa, 0x0f, 0x00, 0x00}, C::CondBranch, false, 4096},
    {"jrcxz .+0x8", {0xe3, 0x06}, C::CondBranch, false, 8},
    {"loop .-0x4", {0xe2, 0xfa}, C::CondBranch, false, -4},
    {"jmp .+0x20", {0xeb, 0x1e}, C::DirectJump, false, 32},
    {"jmp .+0x12345", {0xe9, 0x40, 0x23, 0x01, 0x00}, C::DirectJump, false, 74565},
    {"call .+0x100", {0xe8, 0xfb, 0x00, 0x00, 0x00}, C::DirectCall, false, 256},
    {"call *%rax", {0xff, 0xd0}, C::IndirectCall, false, 0},
    {"call *0x8(%rbx)", {0xff, 0x53, 0x08}, C::IndirectCall, true, 0},
    {"jmp *%rdx", {0xff, 0xe2}, C::IndirectJump, false, 0},
    {"jmp *(%rax,%rcx,8)", {0xff, 0x24, 0xc8}, C::IndirectJump, true, 0},
    {"ret", {0xc3}, C::Return, false, 0},
    {"ret $8", {0xc2, 0x08, 0x00}, C::Return, false, 0},
    {"rep ret", {0xf3, 0xc3}, C::Return, false, 0},
    {"syscall", {0x0f, 0x05}, C::Syscall, false, 0},
    {"int $0x80", {0xcd, 0x80}, C::Syscall, false, 0},
    {"sysenter", {0x0f, 0x34}, C::Syscall, false, 0},
    {"cpuid", {0x0f, 0xa2}, C::Microcode, false, 0},
    {"rdtsc", {0x0f, 0x31}, C::Microcode, false, 0},
    {"rdpmc", {0x0f, 0x33}, C::Microcode, false, 0},
    {"ud2", {0x0f, 0x0b}, C::Microcode, false, 0},
    {"int3", {0xcc}, C::Microcode, false, 0},
    {"popfq", {0x9d}, C::Microcode, false, 0},
    {"pushfq", {0x9c}, C::IntAlu, false, 0},
    {"enter $16, $0", {0xc8, 0x10, 0x00, 0x00}, C::Microcode, false, 0},
    {"leave", {0xc9}, C::IntAlu, false, 0},
    {"movsb", {0xa4}, C::StringOp, false, 0},
    {"rep movsq", {0xf3, 0x48, 0xa5}, C::StringOp, false, 0},
    {"rep stosb", {0xf3, 0xaa}, C::StringOp, false, 0},
    {"repne scasb", {0xf2, 0xae}, C::StringOp, false, 0},
    {"repe cmpsb", {0xf3, 0xa6}, C::StringOp, false, 0},
    {"lodsq", {0x48, 0xad}, C::StringOp, false, 0},
    {"lfence", {0x0f, 0xae, 0xe8}, C::Fence, false, 0},
    {"mfence", {0x0f, 0xae, 0xf0}, C::Fence, false, 0},
    {"sfence", {0x0f, 0xae, 0xf8}, C::Fence, false, 0},
    {"clflush (%rdi)", {0x0f, 0xae, 0x3f}, C::Microcode, true, 0},
    {"fxsave (%rdi)", {0x0f, 0xae, 0x07}, C::Microcode, true, 0},
    {"ldmxcsr (%rdi)", {0x0f, 0xae, 0x17}, C::Microcode, true, 0},
    {"fadd %st(1), %st", {0xd8, 0xc1}, C::X87Arith, false, 0},
    {"fadds (%rdi)", {0xd8, 0x07}, C::X87Arith, true, 0},
    {"faddl (%rdi)", {0xdc, 0x07}, C::X87Arith, true, 0},
    {"fmulp %st, %st(1)", {0xde, 0xc9}, C::X87Arith, false, 0},
    {"fsubrl 8(%rsp)", {0xdc, 0x6c, 0x24, 0x08}, C::X87Arith, true, 0},
    {"fcomp %st(2)", {0xd8, 0xda}, C::X87Arith, false, 0},
    {"fucomip %st(1), %st", {0xdf, 0xe9}, C::X87Arith, false, 0},
    {"fcomi %st(1), %st", {0xdb, 0xf1}, C::X87Arith, false, 0},
    {"fchs", {0xd9, 0xe0}, C::X87Arith, false, 0},
    {"fabs", {0xd9, 0xe1}, C::X87Arith, false, 0},
    {"ftst", {0xd9, 0xe4}, C::X87Arith, false, 0},
    {"fiaddl (%rdi)", {0xda, 0x07}, C::X87Arith, true, 0},
    {"fimul (%rdi)", {0xde, 0x0f}, C::X87Arith, true, 0},
    {"fdivs (%rdi)", {0xd8, 0x37}, C::X87Div, true, 0},
    {"fdivrp %st, %st(1)", {0xde, 0xf9}, C::X87Div, false, 0},
    {"fdivl (%rax)", {0xdc, 0x30}, C::X87Div, true, 0},
    {"fidivl (%rax)", {0xda, 0x30}, C::X87Div, true, 0},
    {"fsqrt", {0xd9, 0xfa}, C::X87Div, false, 0},
    {"fsin", {0xd9, 0xfe}, C::X87Complex, false, 0},
    {"fcos", {0xd9, 0xff}, C::X87Complex, false, 0},
    {"fptan", {0xd9, 0xf2}, C::X87Complex, false, 0},
    {"fpatan", {0xd9, 0xf3}, C::X87Complex, false, 0},
    {"f2xm1", {0xd9, 0xf0}, C::X87Complex, false, 0},
    {"fyl2x", {0xd9, 0xf1}, C::X87Complex, false, 0},
    {"fscale", {0xd9, 0xfd}, C::X87Complex, false, 0},
    {"frndint", {0xd9, 0xfc}, C::X87Complex, false, 0},
    {"fprem", {0xd9, 0xf8}, C::X87Complex, false, 0},
    {"fbld (%rdi)", {0xdf, 0x27}, C::X87Complex, true, 0},
    {"flds (%rdi)", {0xd9, 0x07}, C::X87Move, true, 0},
    {"fldl (%rdi)", {0xdd, 0x07}, C::X87Move, true, 0},
    {"fldt (%rdi)", {0xdb, 0x2f}, C::X87Move, true, 0},
    {"fld %st(3)", {0xd9, 0xc3}, C::X87Move, false, 0},
    {"fldz", {0xd9, 0xee}, C::X87Move, false, 0},
    {"fld1", {0xd9, 0xe8}, C::X87Move, false, 0},
    {"fldpi", {0xd9, 0xeb}, C::X87Move, false, 0},
    {"fstpl (%rdi)", {0xdd, 0x1f}, C::X87Move, true, 0},
    {"fstps (%rdi)", {0xd9, 0x1f}, C::X87Move, true, 0},
    {"fstpt (%rdi)", {0xdb, 0x3f}, C::X87Move, true, 0},
    {"fst %st(2)", {0xdd, 0xd2}, C::X87Move, false, 0},
    {"fxch %st(1)", {0xd9, 0xc9}, C::X87Move, false, 0},
    {"filds (%rdi)", {0xdf, 0x07}, C::X87Move, true, 0},
    {"fildl (%rdi)", {0xdb, 0x07}, C::X87Move, true, 0},
    {"fildll (%rdi)", {0xdf, 0x2f}, C::X87Move, true, 0},
    {"fistpl (%rdi)", {0xdb, 0x1f}, C::X87Move, true, 0},
    {"fisttpl (%rdi)", {0xdb, 0x0f}, C::X87Move, true, 0},
    {"fcmovb %st(1), %st", {0xda, 0xc1}, C::X87Move, false, 0},
    {"fnstsw %ax", {0xdf, 0xe0}, C::X87Move, false, 0},
    {"fnstcw (%rdi)", {0xd9, 0x3f}, C::X87Move, true, 0},
    {"fldcw (%rdi)", {0xd9, 0x2f}, C::Microcode, true, 0},
    {"fnstenv (%rdi)", {0xd9, 0x37}, C::Microcode, true, 0},
    {"fnsave (%rdi)", {0xdd, 0x37}, C::Microcode, true, 0},
    {"frstor (%rdi)", {0xdd, 0x27}, C::Microcode, true, 0},
    {"fninit", {0xdb, 0xe3}, C::Microcode, false, 0},
    {"fnop", {0xd9, 0xd0}, C::Nop, false, 0},
    {"fincstp", {0xd9, 0xf7}, C::X87Move, false, 0},
    {"addss %xmm1, %xmm0", {0xf3, 0x0f, 0x58, 0xc1}, C::SseScalarSp, false, 0},
    {"addsd (%rdi), %xmm0", {0xf2, 0x0f, 0x58, 0x07}, C::SseScalarDp, true, 0},
    {"addps %xmm1, %xmm0", {0x0f, 0x58, 0xc1}, C::SsePackedSp, false, 0},
    {"addpd %xmm1, %xmm0", {0x66, 0x0f, 0x58, 0xc1}, C::SsePackedDp, false, 0},
    {"mulss %xmm1, %xmm0", {0xf3, 0x0f, 0x59, 0xc1}, C::SseScalarSp, false, 0},
    {"mulsd %xmm1, %xmm0", {0xf2, 0x0f, 0x59, 0xc1}, C::SseScalarDp, false, 0},
    {"mulps (%rax), %xmm2", {0x0f, 0x59, 0x10}, C::SsePackedSp, true, 0},
    {"mulpd %xmm1, %xmm0", {0x66, 0x0f, 0x59, 0xc1}, C::SsePackedDp, false, 0},
    {"subsd %xmm1, %xmm0", {0xf2, 0x0f, 0x5c, 0xc1}, C::SseScalarDp, false, 0},
    {"minps %xmm1, %xmm0", {0x0f, 0x5d, 0xc1}, C::SsePackedSp, false, 0},
    {"maxsd %xmm1, %xmm0", {0xf2, 0x0f, 0x5f, 0xc1}, C::SseScalarDp, false, 0},
    {"cmpltsd %xmm1, %xmm0", {0xf2, 0x0f, 0xc2, 0xc1, 0x01}, C::SseScalarDp, false, 0},
    {"cmpps $1, %xmm1, %xmm0", {0x0f, 0xc2, 0xc1, 0x01}, C::SsePackedSp, false, 0},
    {"rsqrtps %xmm1, %xmm0", {0x0f, 0x52, 0xc1}, C::SsePackedSp, false, 0},
    {"rcpss %xmm1, %xmm0", {0xf3, 0x0f, 0x53, 0xc1}, C::SseScalarSp, false, 0},
    {"divss %xmm1, %xmm0", {0xf3, 0x0f, 0x5e, 0xc1}, C::SseDivSp, false, 0},
    {"divps %xmm1, %xmm0", {0x0f, 0x5e, 0xc1}, C::SseDivSp, false, 0},
    {"divsd %xmm1, %xmm0", {0xf2, 0x0f, 0x5e, 0xc1}, C::SseDivDp, false, 0},
    {"divpd %xmm1, %xmm0", {0x66, 0x0f, 0x5e, 0xc1}, C::SseDivDp, false, 0},
    {"sqrtsd %xmm1, %xmm0", {0xf2, 0x0f, 0x51, 0xc1}, C::SseDivDp, false, 0},
    {"sqrtps %xmm1, %xmm0", {0x0f, 0x51, 0xc1}, C::SseDivSp, false, 0},
    {"andps %xmm1, %xmm0", {0x0f, 0x54, 0xc1}, C::SsePackedSp, false, 0},
    {"xorpd %xmm1, %xmm0", {0x66, 0x0f, 0x57, 0xc1}, C::SsePackedDp, false, 0},
    {"unpcklpd %xmm1, %xmm0", {0x66, 0x0f, 0x14, 0xc1}, C::SsePackedDp, false, 0},
    {"shufps $0x1b, %xmm1, %xmm0", {0x0f, 0xc6, 0xc1, 0x1b}, C::SsePackedSp, false, 0},
    {"ucomiss %xmm1, %xmm0", {0x0f, 0x2e, 0xc1}, C::SseScalarSp, false, 0},
    {"comisd %xmm1, %xmm0", {0x66, 0x0f, 0x2f, 0xc1}, C::SseScalarDp, false, 0},
    {"cvtsi2sd %rax, %xmm0", {0xf2, 0x48, 0x0f, 0x2a, 0xc0}, C::SseScalarDp, false, 0},
    {"cvtsi2ss %eax, %xmm0", {0xf3, 0x0f, 0x2a, 0xc0}, C::SseScalarSp, false, 0},
    {"cvttsd2si %xmm0, %rax", {0xf2, 0x48, 0x0f, 0x2c, 0xc0}, C::SseScalarDp, false, 0},
    {"cvtss2sd %xmm1, %xmm0", {0xf3, 0x0f, 0x5a, 0xc1}, C::SseScalarSp, false, 0},
    {"cvtsd2ss %xmm1, %xmm0", {0xf2, 0x0f, 0x5a, 0xc1}, C::SseScalarDp, false, 0},
    {"cvtps2pd %xmm1, %xmm0", {0x0f, 0x5a, 0xc1}, C::SsePackedSp, false, 0},
    {"cvtpd2ps %xmm1, %xmm0", {0x66, 0x0f, 0x5a, 0xc1}, C::SsePackedDp, false, 0},
    {"cvtdq2ps %xmm1, %xmm0", {0x0f, 0x5b, 0xc1}, C::SsePackedSp, false, 0},
    {"cvtdq2pd %xmm1, %xmm0", {0xf3, 0x0f, 0xe6, 0xc1}, C::SsePackedDp, false, 0},
    {"haddpd %xmm1, %xmm0", {0x66, 0x0f, 0x7c, 0xc1}, C::SsePackedDp, false, 0},
    {"haddps %xmm1, %xmm0", {0xf2, 0x0f, 0x7c, 0xc1}, C::SsePackedSp, false, 0},
    {"addsubpd %xmm1, %xmm0", {0x66, 0x0f, 0xd0, 0xc1}, C::SsePackedDp, false, 0},
    {"movss (%rdi), %xmm0", {0xf3, 0x0f, 0x10, 0x07}, C::SimdMove, true, 0},
    {"movsd %xmm0, (%rdi)", {0xf2, 0x0f, 0x11, 0x07}, C::SimdMove, true, 0},
    {"movaps %xmm1, %xmm0", {0x0f, 0x28, 0xc1}, C::SimdMove, false, 0},
    {"movapd (%rdi), %xmm0", {0x66, 0x0f, 0x28, 0x07}, C::SimdMove, true, 0},
    {"movups %xmm0, (%rdi)", {0x0f, 0x11, 0x07}, C::SimdMove, true, 0},
    {"movlpd (%rdi), %xmm0", {0x66, 0x0f, 0x12, 0x07}, C::SimdMove, true, 0},
    {"movhps %xmm0, (%rdi)", {0x0f, 0x17, 0x07}, C::SimdMove, true, 0},
    {"movdqa (%rdi), %xmm0", {0x66, 0x0f, 0x6f, 0x07}, C::SimdMove, true, 0},
    {"movdqu %xmm0, (%rdi)", {0xf3, 0x0f, 0x7f, 0x07}, C::SimdMove, true, 0},
    {"movq %rax, %xmm0", {0x66, 0x48, 0x0f, 0x6e, 0xc0}, C::SimdMove, false, 0},
    {"movq %xmm0, %rax", {0x66, 0x48, 0x0f, 0x7e, 0xc0}, C::SimdMove, false, 0},
    {"movq (%rdi), %xmm0", {0xf3, 0x0f, 0x7e, 0x07}, C::SimdMove, true, 0},
    {"movq %xmm0, (%rdi)", {0x66, 0x0f, 0xd6, 0x07}, C::SimdMove, true, 0},
    {"movd %eax, %mm0", {0x0f, 0x6e, 0xc0}, C::SimdMove, false, 0},
    {"movq (%rdi), %mm1", {0x0f, 0x6f, 0x0f}, C::SimdMove, true, 0},
    {"movntps %xmm0, (%rdi)", {0x0f, 0x2b, 0x07}, C::SimdMove, true, 0},
    {"movntdq %xmm0, (%rdi)", {0x66, 0x0f, 0xe7, 0x07}, C::SimdMove, true, 0},
    {"movmskpd %xmm0, %eax", {0x66, 0x0f, 0x50, 0xc0}, C::SimdMove, false, 0},
    {"lddqu (%rdi), %xmm0", {0xf2, 0x0f, 0xf0, 0x07}, C::SimdMove, true, 0},
    {"paddd %mm1, %mm0", {0x0f, 0xfe, 0xc1}, C::Mmx64, false, 0},
    {"paddd %xmm1, %xmm0", {0x66, 0x0f, 0xfe, 0xc1}, C::Simd128Int, false, 0},
    {"pxor %mm0, %mm0", {0x0f, 0xef, 0xc0}, C::Mmx64, false, 0},
    {"pxor %xmm0, %xmm0", {0x66, 0x0f, 0xef, 0xc0}, C::Simd128Int, false, 0},
    {"pmullw (%rdi), %mm2", {0x0f, 0xd5, 0x17}, C::Mmx64, true, 0},
    {"pmuludq %xmm1, %xmm0", {0x66, 0x0f, 0xf4, 0xc1}, C::Simd128Int, false, 0},
    {"psrlq $4, %mm0", {0x0f, 0x73, 0xd0, 0x04}, C::Mmx64, false, 0},
    {"pslldq $4, %xmm0", {0x66, 0x0f, 0x73, 0xf8, 0x04}, C::Simd128Int, false, 0},
    {"pcmpeqb %xmm1, %xmm0", {0x66, 0x0f, 0x74, 0xc1}, C::Simd128Int, false, 0},
    {"punpcklbw %mm1, %mm0", {0x0f, 0x60, 0xc1}, C::Mmx64, false, 0},
    {"punpcklqdq %xmm1, %xmm0", {0x66, 0x0f, 0x6c, 0xc1}, C::Simd128Int, false, 0},
    {"pshufd $0, %xmm1, %xmm0", {0x66, 0x0f, 0x70, 0xc1, 0x00}, C::Simd128Int, false, 0},
    {"pshufw $0, %mm1, %mm0", {0x0f, 0x70, 0xc1, 0x00}, C::Mmx64, false, 0},
    {"pmovmskb %xmm0, %eax", {0x66, 0x0f, 0xd7, 0xc0}, C::Simd128Int, false, 0},
    {"pinsrw $1, %eax, %mm0", {0x0f, 0xc4, 0xc0, 0x01}, C::Mmx64, false, 0},
    {"pextrw $1, %xmm0, %eax", {0x66, 0x0f, 0xc5, 0xc0, 0x01}, C::Simd128Int, false, 0},
    {"emms", {0x0f, 0x77}, C::Mmx64, false, 0},
    {"pshufb %xmm1, %xmm0", {0x66, 0x0f, 0x38, 0x00, 0xc1}, C::Simd128Int, false, 0},
    {"pshufb %mm1, %mm0", {0x0f, 0x38, 0x00, 0xc1}, C::Mmx64, false, 0},
    {"ptest %xmm1, %xmm0", {0x66, 0x0f, 0x38, 0x17, 0xc1}, C::Simd128Int, false, 0},
    {"pminsd %xmm1, %xmm0", {0x66, 0x0f, 0x38, 0x39, 0xc1}, C::Simd128Int, false, 0},
    {"roundsd $1, %xmm1, %xmm0", {0x66, 0x0f, 0x3a, 0x0b, 0xc1, 0x01}, C::SseScalarDp, false, 0},
    {"roundps $1, %xmm1, %xmm0", {0x66, 0x0f, 0x3a, 0x08, 0xc1, 0x01}, C::SsePackedSp, false, 0},
    {"blendpd $1, %xmm1, %xmm0", {0x66, 0x0f, 0x3a, 0x0d, 0xc1, 0x01}, C::SsePackedDp, false, 0},
    {"dpps $0xff, %xmm1, %xmm0", {0x66, 0x0f, 0x3a, 0x40, 0xc1, 0xff}, C::SsePackedSp, false, 0},
    {"palignr $4, %xmm1, %xmm0", {0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x04}, C::Simd128Int, false, 0},
    {"pcmpistri $0, %xmm1, %xmm0", {0x66, 0x0f, 0x3a, 0x63, 0xc1, 0x00}, C::Simd128Int, false, 0},
    {"crc32q %rax, %rbx", {0xf2, 0x48, 0x0f, 0x38, 0xf1, 0xd8}, C::IntAlu, false, 0},
    {"movbe (%rdi), %eax", {0x0f, 0x38, 0xf0, 0x07}, C::IntAlu, true, 0},
    {"vaddps %ymm1, %ymm2, %ymm0", {0xc5, 0xec, 0x58, 0xc1}, C::SsePackedSp, false, 0},
    {"vaddsd %xmm1, %xmm2, %xmm0", {0xc5, 0xeb, 0x58, 0xc1}, C::SseScalarDp, false, 0},
    {"vmulpd (%rdi), %ymm1, %ymm0", {0xc5, 0xf5, 0x59, 0x07}, C::SsePackedDp, true, 0},
    {"vdivss %xmm1, %xmm2, %xmm0", {0xc5, 0xea, 0x5e, 0xc1}, C::SseDivSp, false, 0},
    {"vmovdqu (%rdi), %ymm0", {0xc5, 0xfe, 0x6f, 0x07}, C::SimdMove, true, 0},
    {"vmovaps %ymm0, (%rdi)", {0xc5, 0xfc, 0x29, 0x07}, C::SimdMove, true, 0},
    {"vpaddd %ymm1, %ymm2, %ymm0", {0xc5, 0xed, 0xfe, 0xc1}, C::Simd128Int, false, 0},
    {"vpxor %xmm1, %xmm1, %xmm1", {0xc5, 0xf1, 0xef, 0xc9}, C::Simd128Int, false, 0},
    {"vpcmpeqb (%rdi), %ymm1, %ymm0", {0xc5, 0xf5, 0x74, 0x07}, C::Simd128Int, true, 0},
    {"vpmovmskb %ymm0, %eax", {0xc5, 0xfd, 0xd7, 0xc0}, C::Simd128Int, false, 0},
    {"vzeroupper", {0xc5, 0xf8, 0x77}, C::SimdMove, false, 0},
    {"vbroadcastss (%rdi), %ymm0", {0xc4, 0xe2, 0x7d, 0x18, 0x07}, C::SimdMove, true, 0},
    {"vfmadd231pd %ymm1, %ymm2, %ymm0", {0xc4, 0xe2, 0xed, 0xb8, 0xc1}, C::SsePackedSp, false, 0},
    {"vaddpd %zmm1, %zmm2, %zmm0", {0x62, 0xf1, 0xed, 0x48, 0x58, 0xc1}, C::SsePackedDp, false, 0},
    {"vmovdqu64 (%rdi), %zmm0", {0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x07}, C::SimdMove, true, 0},
    {"andn %rax, %rbx, %rcx", {0xc4, 0xe2, 0xe0, 0xf2, 0xc8}, C::IntAlu, false, 0},
};

const char* class_name(InsnClass c) {
    static const char* const kNames[] = {
        "Nop", "IntAlu", "IntShift", "IntMul", "IntDiv", "CondBranch", "DirectJump", "IndirectJump",
        "DirectCall", "IndirectCall", "Return", "X87Arith", "X87Div", "X87Complex", "X87Move", "SseScalarSp",
        "SseScalarDp", "SsePackedSp", "SsePackedDp", "SseDivSp", "SseDivDp", "Mmx64", "Simd128Int", "SimdMove",
        "StringOp", "Microcode", "Fence", "Syscall", "Halt"};
    static_assert(sizeof kNames / sizeof kNames[0] == static_cast<unsigned>(InsnClass::Count_));
    return kNames[static_cast<unsigned>(c)];
}

}  // namespace

TEST(X86Classify, EncodingTable) {
    for (const Encoding& e : kEncodings) {
        SCOPED_TRACE(e.text);
        const X86Instruction r = decode_instruction(e.bytes.data(), static_cast<unsigned>(e.bytes.size()));
        EXPECT_TRUE(r.known);
        EXPECT_STREQ(class_name(r.cls), class_name(e.cls));
        EXPECT_EQ(r.memory_form, e.memory_form);
        const bool direct = e.cls == C::CondBranch || e.cls == C::DirectJump || e.cls == C::DirectCall;
        EXPECT_EQ(r.has_rel, direct);
        if (direct) {
            EXPECT_EQ(static_cast<int>(e.bytes.size()) + r.rel, e.target_offset);
        }
    }
}

TEST(X86Classify, RepAndLockPrefixes) {
    const std::uint8_t rep_movsq[] = {0xF3, 0x48, 0xA5};
    EXPECT_TRUE(decode_instruction(rep_movsq, 3).rep);
    const std::uint8_t movsb[] = {0xA4};
    EXPECT_FALSE(decode_instruction(movsb, 1).rep);
    const std::uint8_t lock_xadd[] = {0xF0, 0x48, 0x0F, 0xC1, 0x07};
    const X86Instruction r = decode_instruction(lock_xadd, 5);
    EXPECT_TRUE(r.lock);
    EXPECT_EQ(r.cls, C::Microcode);
    // F3 on a non-string instruction is a mandatory prefix, not a repeat.
    const std::uint8_t popcnt[] = {0xF3, 0x48, 0x0F, 0xB8, 0xC7};
    EXPECT_FALSE(decode_instruction(popcnt, 5).rep);
}

TEST(X86Classify, NeverReadsPastTheLength) {
    // A truncated instruction must not be read beyond `length`: classify prefixes-only and cut encodings.
    const std::uint8_t bytes[] = {0x66, 0x0F, 0x58, 0xC1};
    for (unsigned n = 0; n <= sizeof bytes; ++n) decode_instruction(bytes, n);
    const std::uint8_t prefixes[] = {0x66, 0xF3, 0x48};
    EXPECT_FALSE(decode_instruction(prefixes, 3).known);
}

TEST(X86Classify, UnknownEncodingsAreFlagged) {
    const std::uint8_t ud1[] = {0x0F, 0xB9, 0xC0};
    EXPECT_FALSE(decode_instruction(ud1, 3).known);
    const std::uint8_t invalid64[] = {0x06};  // push es: not in 64-bit mode
    EXPECT_FALSE(decode_instruction(invalid64, 1).known);
}

TEST(X86Classify, ValgrindSpecialSequence) {
    const std::uint8_t client_request[] = {0x48, 0xC1, 0xC7, 0x03, 0x48, 0xC1, 0xC7, 0x0D, 0x48, 0xC1,
                                           0xC7, 0x3D, 0x48, 0xC1, 0xC7, 0x33, 0x48, 0x87, 0xDB};
    EXPECT_TRUE(is_valgrind_special_sequence(client_request, sizeof client_request));
    EXPECT_FALSE(is_valgrind_special_sequence(client_request, 15));
    const std::uint8_t rol[] = {0x48, 0xC1, 0xC7, 0x03};
    EXPECT_FALSE(is_valgrind_special_sequence(rol, sizeof rol));
    // valgrind.h's x86 preamble, rotates of edi by 3, 13, 29 and 19, then xchg %ebx, %ebx: the request.
    const std::uint8_t request32[] = {0xC1, 0xC7, 0x03, 0xC1, 0xC7, 0x0D, 0xC1, 0xC7, 0x1D, 0xC1, 0xC7, 0x13,
                                      0x87, 0xDB};
    EXPECT_TRUE(is_valgrind_special_sequence(request32, sizeof request32, X86Mode::Protected32));
    EXPECT_FALSE(is_valgrind_special_sequence(request32, sizeof request32));
    EXPECT_FALSE(is_valgrind_special_sequence(client_request, sizeof client_request, X86Mode::Protected32));
}

// 32-bit mode (an i386 program): the one-byte inc and dec, and the opcodes 64-bit mode dropped, are instructions
// there; the same bytes in 64-bit mode are still a REX prefix and unknown encodings.
TEST(X86Classify, ThirtyTwoBitMode) {
    X86OperandOptions mode32;
    mode32.mode = X86Mode::Protected32;
    const std::uint8_t dec_ecx[] = {0x49};
    const X86Instruction dec = decode_instruction(dec_ecx, 1, mode32);
    EXPECT_TRUE(dec.known);
    EXPECT_EQ(dec.cls, C::IntAlu);
    EXPECT_EQ(dec.form, InsnForm::IncDec);
    EXPECT_FALSE(decode_instruction(dec_ecx, 1).known);  // a lone REX prefix
    const std::uint8_t int80[] = {0xCD, 0x80};
    EXPECT_EQ(decode_instruction(int80, 2, mode32).cls, C::Syscall);
    const std::uint8_t push_es[] = {0x06};
    EXPECT_TRUE(decode_instruction(push_es, 1, mode32).known);
    EXPECT_FALSE(decode_instruction(push_es, 1).known);
    const std::uint8_t pusha[] = {0x60};
    EXPECT_EQ(decode_instruction(pusha, 1, mode32).cls, C::Microcode);
    // C4 with a memory ModRM is les; with a register ModRM it is VEX in both modes.
    const std::uint8_t les[] = {0xC4, 0x18};
    EXPECT_EQ(decode_instruction(les, 2, mode32).cls, C::Microcode);
    EXPECT_TRUE(decode_instruction(les, 2, mode32).memory_form);
    const std::uint8_t vaddps[] = {0xC5, 0xF8, 0x58, 0xC1};
    EXPECT_EQ(decode_instruction(vaddps, 4, mode32).cls, C::SsePackedSp);
    EXPECT_EQ(decode_instruction(vaddps, 4, mode32).extension, vg::GuestExtension::Avx);
    // lahf and sahf need CPUID's LAHF64 only in 64-bit mode.
    const std::uint8_t sahf[] = {0x9E};
    EXPECT_EQ(decode_instruction(sahf, 1, mode32).extension, vg::GuestExtension::None);
    EXPECT_EQ(decode_instruction(sahf, 1).extension, vg::GuestExtension::Lahf64);
    // 82 is group 1 again (an alias of 80).
    const std::uint8_t add82[] = {0x82, 0xC0, 0x05};
    EXPECT_TRUE(decode_instruction(add82, 3, mode32).operands.known);
    EXPECT_FALSE(decode_instruction(add82, 3).operands.known);
    // A direct branch's displacement is the same in both modes.
    const std::uint8_t jne[] = {0x75, 0xF7};
    EXPECT_EQ(decode_instruction(jne, 2, mode32).cls, C::CondBranch);
    EXPECT_EQ(decode_instruction(jne, 2, mode32).rel, -9);
}

// The timing form (emulator/model/insn_form.h) of encodings whose form the core's table covers, and of a few
// whose class's figure stands. Bytes from GNU as, as above.
TEST(X86Form, EncodingTable) {
    using F = InsnForm;
    struct FormCase {
        const char* text;
        std::vector<std::uint8_t> bytes;
        InsnForm form;
    };
    const FormCase cases[] = {
        {"add %ebx, %eax", {0x01, 0xd8}, F::None},
        {"adc %ebx, %eax", {0x11, 0xd8}, F::AdcSbb},
        {"sbb $1, %eax", {0x83, 0xd8, 0x01}, F::AdcSbb},
        {"lock adc %eax, (%rdi)", {0xf0, 0x11, 0x07}, F::None},
        {"lea (%rbx,%rcx), %eax", {0x8d, 0x04, 0x0b}, F::None},
        {"lea 8(%rbx,%rcx), %eax", {0x8d, 0x44, 0x0b, 0x08}, F::LeaIndexDisp},
        {"lea (%rbx,%rcx,8), %eax", {0x8d, 0x04, 0xcb}, F::LeaScaled},
        {"lea 8(%rbx,%rcx,8), %eax", {0x8d, 0x44, 0xcb, 0x08}, F::LeaScaledDisp},
        {"lea 8(%rbx), %eax", {0x8d, 0x43, 0x08}, F::None},
        {"cmovne %ebx, %eax", {0x0f, 0x45, 0xc3}, F::Cmov},
        {"shl %cl, %eax", {0xd3, 0xe0}, F::ShiftCl},
        {"shl $3, %eax", {0xc1, 0xe0, 0x03}, F::ShiftImm},
        {"rol $3, %eax", {0xc1, 0xc0, 0x03}, F::Rotate},
        {"rcl %eax", {0xd1, 0xd0}, F::RotateCarry},
        {"shr $3, %rax", {0x48, 0xc1, 0xe8, 0x03}, F::Shr64},
        {"shl $3, %rax", {0x48, 0xc1, 0xe0, 0x03}, F::ShiftImm},
        {"rol $3, %rax", {0x48, 0xc1, 0xc0, 0x03}, F::Rotate64},
        {"shr %cl, %rax", {0x48, 0xd3, 0xe8}, F::ShiftCl64},
        {"ror %cl, %rax", {0x48, 0xd3, 0xc8}, F::ShiftCl64},
        {"shl %cl, %rax", {0x48, 0xd3, 0xe0}, F::ShiftCl},
        {"shr %cl, %eax", {0xd3, 0xe8}, F::ShiftCl},
        {"shld $3, %rbx, %rax", {0x48, 0x0f, 0xa4, 0xd8, 0x03}, F::Shld64},
        {"shld %cl, %rbx, %rax", {0x48, 0x0f, 0xa5, 0xd8}, F::ShldCl64},
        {"shrd %cl, %rbx, %rax", {0x48, 0x0f, 0xad, 0xd8}, F::DoubleShift},
        {"shld $3, %ebx, %eax", {0x0f, 0xa4, 0xd8, 0x03}, F::DoubleShift},
        {"bswap %eax", {0x0f, 0xc8}, F::Bswap32},
        {"bswap %rax", {0x48, 0x0f, 0xc8}, F::Bswap64},
        {"bsf %ebx, %eax", {0x0f, 0xbc, 0xc3}, F::BitScan},
        {"mov (%rdi), %al", {0x8a, 0x07}, F::LoadByte},
        {"mov %bl, %al", {0x8a, 0xc3}, F::None},
        {"setc %bl", {0x0f, 0x92, 0xc3}, F::Setcc},
        {"inc %eax", {0xff, 0xc0}, F::IncDec},
        {"neg %rax", {0x48, 0xf7, 0xd8}, F::NegNot},
        {"movsbl %bl, %eax", {0x0f, 0xbe, 0xc3}, F::MovExtend},
        {"movzwl %bx, %eax", {0x0f, 0xb7, 0xc3}, F::MovExtend},
        {"movslq %ebx, %rax", {0x48, 0x63, 0xc3}, F::MovExtend},
        {"sar %eax", {0xd1, 0xf8}, F::ShiftImm},
        {"shl $3, %ax", {0x66, 0xc1, 0xe0, 0x03}, F::None},
        {"paddd %mm1, %mm0", {0x0f, 0xfe, 0xc1}, F::MmxAlu},
        {"pcmpeqd %xmm1, %xmm0", {0x66, 0x0f, 0x76, 0xc1}, F::XmmAlu},
        {"psllq $1, %mm1", {0x0f, 0x73, 0xf1, 0x01}, F::MmxShift},
        {"psllq $1, %xmm1", {0x66, 0x0f, 0x73, 0xf1, 0x01}, F::XmmShift},
        {"pslldq $1, %xmm1", {0x66, 0x0f, 0x73, 0xf9, 0x01}, F::ByteShiftXmm},
        {"pshuflw $0x1b, %xmm1, %xmm0", {0xf2, 0x0f, 0x70, 0xc1, 0x1b}, F::XmmShift},
        {"pshufw $0x1b, %mm1, %mm0", {0x0f, 0x70, 0xc1, 0x1b}, F::MmxShift},
        {"punpcklbw %xmm1, %xmm0", {0x66, 0x0f, 0x60, 0xc1}, F::XmmShift},
        {"setne (%rdi)", {0x0f, 0x95, 0x07}, F::Setcc},
        {"movzbl %bl, %eax", {0x0f, 0xb6, 0xc3}, F::MovzxByte},
        {"movzbq %bl, %rax", {0x48, 0x0f, 0xb6, 0xc3}, F::MovzxByte},
        {"movzbl (%rdi), %eax", {0x0f, 0xb6, 0x07}, F::None},
        {"movzbw %bl, %ax", {0x66, 0x0f, 0xb6, 0xc3}, F::None},
        {"imul %ebx, %eax", {0x0f, 0xaf, 0xc3}, F::Imul32},
        {"imul $7, %rbx, %rax", {0x48, 0x6b, 0xc3, 0x07}, F::Imul64},
        {"mul %bl", {0xf6, 0xe3}, F::Mul8},
        {"mul %bx", {0x66, 0xf7, 0xe3}, F::Mul16},
        {"mul %ebx", {0xf7, 0xe3}, F::Mul32},
        {"idiv %ecx", {0xf7, 0xf9}, F::Idiv32},
        {"div %rbx", {0x48, 0xf7, 0xf3}, F::Div64},
        {"fadd %st(1), %st", {0xd8, 0xc1}, F::Fadd},
        {"fmul %st(1), %st", {0xd8, 0xc9}, F::Fmul},
        {"fdivrp %st, %st(1)", {0xde, 0xf1}, F::Fdiv},
        {"fchs", {0xd9, 0xe0}, F::FchsFabs},
        {"fsqrt", {0xd9, 0xfa}, F::Fsqrt},
        {"addsd %xmm1, %xmm0", {0xf2, 0x0f, 0x58, 0xc1}, F::SseAdd},
        {"mulps %xmm1, %xmm0", {0x0f, 0x59, 0xc1}, F::SseMul},
        {"andps %xmm1, %xmm0", {0x0f, 0x54, 0xc1}, F::SseLogic},
        {"divpd %xmm1, %xmm0", {0x66, 0x0f, 0x5e, 0xc1}, F::DivPd},
        {"sqrtss %xmm1, %xmm0", {0xf3, 0x0f, 0x51, 0xc1}, F::DivSs},
        {"pmullw %mm1, %mm0", {0x0f, 0xd5, 0xc1}, F::PmulMmx},
        {"pmullw %xmm1, %xmm0", {0x66, 0x0f, 0xd5, 0xc1}, F::PmulXmm},
        {"paddd %xmm1, %xmm0", {0x66, 0x0f, 0xfe, 0xc1}, F::XmmAlu},
        {"pslldq $4, %xmm0", {0x66, 0x0f, 0x73, 0xf8, 0x04}, F::ByteShiftXmm},
        {"psrlq $4, %xmm0", {0x66, 0x0f, 0x73, 0xd0, 0x04}, F::XmmShift},
        {"movaps %xmm1, %xmm0", {0x0f, 0x28, 0xc1}, F::FpRegMove},
        {"movaps (%rdi), %xmm0", {0x0f, 0x28, 0x07}, F::None},
        {"movups (%rdi), %xmm0", {0x0f, 0x10, 0x07}, F::UnalignedLoad},
        {"movupd (%rdi), %xmm0", {0x66, 0x0f, 0x10, 0x07}, F::UnalignedLoad},
        {"movdqu (%rdi), %xmm0", {0xf3, 0x0f, 0x6f, 0x07}, F::UnalignedLoad},
        {"lddqu (%rdi), %xmm0", {0xf2, 0x0f, 0xf0, 0x07}, F::UnalignedLoad},
        {"movups %xmm0, (%rdi)", {0x0f, 0x11, 0x07}, F::None},
        {"movsd (%rdi), %xmm0", {0xf2, 0x0f, 0x10, 0x07}, F::None},
        {"movdqa (%rdi), %xmm0", {0x66, 0x0f, 0x6f, 0x07}, F::None},
        {"movss %xmm1, %xmm0", {0xf3, 0x0f, 0x10, 0xc1}, F::MovssReg},
        {"vmulsd %xmm2, %xmm1, %xmm0", {0xc5, 0xf3, 0x59, 0xc2}, F::None},
    };
    for (const FormCase& c : cases) {
        const X86Instruction r = decode_instruction(c.bytes.data(), static_cast<unsigned>(c.bytes.size()));
        EXPECT_EQ(static_cast<int>(r.form), static_cast<int>(c.form)) << c.text;
    }
}
