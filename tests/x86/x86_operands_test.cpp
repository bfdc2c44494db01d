// The opcode table's operand rules against a table of encodings. The bytes were produced by GNU as from the mnemonic
// in the first column (x86-64, AT&T syntax: the destination is the last operand); the expected reads and writes are
// the operands the Intel SDM (volume 2) defines for the form, with the rules of x86_instruction.h (partial registers,
// flags kept, zero idioms of the Northwood, model 2). "x87" is the x87 status and control words; st0-st7 the stack
// registers numbered from TOP before the instruction; "push", "pop", "pop2" and "fxch" how it moves TOP or renames.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "emulator/x86/x86_instruction.h"

using namespace netburst::emu;

namespace {

struct Encoding {
    const char* text;
    std::vector<std::uint8_t> bytes;
    const char* reads;
    const char* writes;
};

const Encoding kEncodings[] = {
    {"add %rbx, %rax", {0x48, 0x01, 0xd8}, "rax rbx", "rax flags"},
    {"add (%rsi,%rcx,8), %eax", {0x03, 0x04, 0xce}, "rax rsi rcx", "rax flags"},
    {"addq $1, 8(%rsp)", {0x48, 0x83, 0x44, 0x24, 0x08, 0x01}, "rsp", "flags"},
    {"adc %edx, %eax", {0x11, 0xd0}, "rax rdx flags", "rax flags"},
    {"sbb %eax, %eax", {0x19, 0xc0}, "rax flags", "rax flags"},
    {"xor %eax, %eax", {0x31, 0xc0}, "", "rax flags"},
    {"xor %r9d, %r9d", {0x45, 0x31, 0xc9}, "", "r9 flags"},
    {"sub %rcx, %rcx", {0x48, 0x29, 0xc9}, "", "rcx flags"},
    {"xor %al, %al", {0x30, 0xc0}, "rax", "rax flags"},
    {"xor %ebx, %eax", {0x31, 0xd8}, "rax rbx", "rax flags"},
    {"cmp %rdi, %rcx", {0x48, 0x39, 0xf9}, "rdi rcx", "flags"},
    {"cmp $5, %r12d", {0x41, 0x83, 0xfc, 0x05}, "r12", "flags"},
    {"test %eax, %eax", {0x85, 0xc0}, "rax", "flags"},
    {"mov %rax, %rbx", {0x48, 0x89, 0xc3}, "rax", "rbx"},
    {"mov 0x10(%rbp), %r9", {0x4c, 0x8b, 0x4d, 0x10}, "rbp", "r9"},
    {"mov %ecx, (%rdi,%rdx,4)", {0x89, 0x0c, 0x97}, "rcx rdi rdx", ""},
    {"mov %al, %bl", {0x88, 0xc3}, "rax rbx", "rbx"},
    {"mov %ah, %bl", {0x88, 0xe3}, "rax rbx", "rbx"},
    {"mov %sil, %al", {0x40, 0x88, 0xf0}, "rsi rax", "rax"},
    {"mov %ax, %bx", {0x66, 0x89, 0xc3}, "rax rbx", "rbx"},
    {"mov $5, %eax", {0xb8, 0x05, 0x00, 0x00, 0x00}, "", "rax"},
    {"movb $5, %al", {0xb0, 0x05}, "rax", "rax"},
    {"movw $5, %ax", {0x66, 0xb8, 0x05, 0x00}, "rax", "rax"},
    {"movabs $0x1122334455667788, %rax", {0x48, 0xb8, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}, "", "rax"},
    {"movzbl %al, %eax", {0x0f, 0xb6, 0xc0}, "rax", "rax"},
    {"movzbw (%rdi), %ax", {0x66, 0x0f, 0xb6, 0x07}, "rdi rax", "rax"},
    {"movsbq %cl, %rdx", {0x48, 0x0f, 0xbe, 0xd1}, "rcx", "rdx"},
    {"movslq %edi, %rax", {0x48, 0x63, 0xc7}, "rdi", "rax"},
    {"lea 8(%rax,%rbx,4), %rcx", {0x48, 0x8d, 0x4c, 0x98, 0x08}, "rax rbx", "rcx"},
    {"lea 0x10(%rip), %rsi", {0x48, 0x8d, 0x35, 0x10, 0x00, 0x00, 0x00}, "", "rsi"},
    {"push %r15", {0x41, 0x57}, "r15 rsp", "rsp"},
    {"pop %rbx", {0x5b}, "rsp", "rbx rsp"},
    {"call *%rax", {0xff, 0xd0}, "rax rsp", "rsp"},
    {"ret", {0xc3}, "rsp", "rsp"},
    {"leave", {0xc9}, "rbp", "rsp rbp"},
    {"jne .+2", {0x75, 0x00}, "flags", ""},
    {"jmp *(%rax,%rdi,8)", {0xff, 0x24, 0xf8}, "rax rdi", ""},
    {"cmovne %rdx, %rax", {0x48, 0x0f, 0x45, 0xc2}, "rdx rax flags", "rax"},
    {"sete %al", {0x0f, 0x94, 0xc0}, "flags rax", "rax"},
    {"setg (%rdi)", {0x0f, 0x9f, 0x07}, "flags rdi", ""},
    {"inc %eax", {0xff, 0xc0}, "rax flags", "rax flags"},
    {"decq (%rdi)", {0x48, 0xff, 0x0f}, "rdi flags", "flags"},
    {"neg %rax", {0x48, 0xf7, 0xd8}, "rax", "rax flags"},
    {"not %eax", {0xf7, 0xd0}, "rax", "rax"},
    {"shl $1, %eax", {0xd1, 0xe0}, "rax", "rax flags"},
    {"shl $3, %rax", {0x48, 0xc1, 0xe0, 0x03}, "rax", "rax flags"},
    {"sar %cl, %edx", {0xd3, 0xfa}, "rdx rcx flags", "rdx flags"},
    {"rol $1, %ebx", {0xd1, 0xc3}, "rbx flags", "rbx flags"},
    {"rcr $1, %eax", {0xd1, 0xd8}, "rax flags", "rax flags"},
    {"shld $4, %rax, %rbx", {0x48, 0x0f, 0xa4, 0xc3, 0x04}, "rax rbx", "rbx flags"},
    {"shrd %cl, %rax, %rbx", {0x48, 0x0f, 0xad, 0xc3}, "rax rbx rcx flags", "rbx flags"},
    {"imul %edx, %eax", {0x0f, 0xaf, 0xc2}, "rax rdx", "rax flags"},
    {"imul $12, %rbx, %rax", {0x48, 0x6b, 0xc3, 0x0c}, "rbx", "rax flags"},
    {"mulq (%rdi)", {0x48, 0xf7, 0x27}, "rdi rax", "rax rdx flags"},
    {"mul %cl", {0xf6, 0xe1}, "rcx rax", "rax flags"},
    {"divq %rcx", {0x48, 0xf7, 0xf1}, "rcx rax rdx", "rax rdx"},
    {"idivl (%rsi)", {0xf7, 0x3e}, "rsi rax rdx", "rax rdx"},
    {"cltq", {0x48, 0x98}, "rax", "rax"},
    {"cqto", {0x48, 0x99}, "rax", "rdx"},
    {"cltd", {0x99}, "rax", "rdx"},
    {"xchg %rax, %rbx", {0x48, 0x93}, "rax rbx", "rax rbx"},
    {"xadd %ecx, (%rdi)", {0x0f, 0xc1, 0x0f}, "rcx rdi", "rcx flags"},
    {"lock cmpxchg %rcx, (%rdi)", {0xf0, 0x48, 0x0f, 0xb1, 0x0f}, "rax rcx rdi", "rax flags"},
    {"bt %rsi, %rdi", {0x48, 0x0f, 0xa3, 0xf7}, "rsi rdi flags", "flags"},
    {"bts $3, %eax", {0x0f, 0xba, 0xe8, 0x03}, "rax flags", "rax flags"},
    {"bsf %rdi, %rax", {0x48, 0x0f, 0xbc, 0xc7}, "rdi", "rax flags"},
    {"tzcnt %rdi, %rax", {0xf3, 0x48, 0x0f, 0xbc, 0xc7}, "rdi", "rax flags"},
    {"popcnt %rdi, %rax", {0xf3, 0x48, 0x0f, 0xb8, 0xc7}, "rdi", "rax flags"},
    {"bswap %r8", {0x49, 0x0f, 0xc8}, "r8", "r8"},
    {"rep movsb", {0xf3, 0xa4}, "rsi rdi rcx flags", "rsi rdi rcx"},
    {"rep stosq", {0xf3, 0x48, 0xab}, "rax rdi rcx flags", "rdi rcx"},
    {"repne scasb", {0xf2, 0xae}, "rax rdi rcx flags", "rdi rcx flags"},
    {"lodsl", {0xad}, "rsi flags", "rsi rax"},
    {"cld", {0xfc}, "flags", "flags"},
    {"clc", {0xf8}, "flags", "flags"},
    {"pushf", {0x9c}, "flags rsp", "rsp"},
    {"lahf", {0x9f}, "flags rax", "rax"},
    {"syscall", {0x0f, 0x05}, "flags rax rdi rsi rdx r10 r8 r9", "rax rcx r11"},
    {"cpuid", {0x0f, 0xa2}, "rax rcx", "rax rbx rcx rdx"},
    {"rdtsc", {0x0f, 0x31}, "", "rax rdx"},
    {"nopw 0x0(%rax,%rax,1)", {0x66, 0x0f, 0x1f, 0x04, 0x00}, "", ""},
    {"endbr64", {0xf3, 0x0f, 0x1e, 0xfa}, "", ""},
    {"prefetcht0 (%rdi)", {0x0f, 0x18, 0x0f}, "rdi", ""},
    {"loop .+2", {0xe2, 0x00}, "rcx", "rcx"},
    {"mulsd %xmm1, %xmm0", {0xf2, 0x0f, 0x59, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"addsd (%rax), %xmm2", {0xf2, 0x0f, 0x58, 0x10}, "rax xmm2", "xmm2"},
    {"addps %xmm3, %xmm4", {0x0f, 0x58, 0xe3}, "xmm3 xmm4", "xmm4"},
    {"divpd %xmm9, %xmm8", {0x66, 0x45, 0x0f, 0x5e, 0xc1}, "xmm8 xmm9", "xmm8"},
    {"movsd %xmm1, %xmm0", {0xf2, 0x0f, 0x10, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"movsd (%rdi), %xmm0", {0xf2, 0x0f, 0x10, 0x07}, "rdi", "xmm0"},
    {"movsd %xmm0, 8(%rsp)", {0xf2, 0x0f, 0x11, 0x44, 0x24, 0x08}, "xmm0 rsp", ""},
    {"movss %xmm2, %xmm3", {0xf3, 0x0f, 0x10, 0xda}, "xmm2 xmm3", "xmm3"},
    {"movaps %xmm1, %xmm0", {0x0f, 0x28, 0xc1}, "xmm1", "xmm0"},
    {"movapd %xmm1, (%rdi)", {0x66, 0x0f, 0x29, 0x0f}, "xmm1 rdi", ""},
    {"movups (%rsi), %xmm15", {0x44, 0x0f, 0x10, 0x3e}, "rsi", "xmm15"},
    {"movlpd (%rdi), %xmm1", {0x66, 0x0f, 0x12, 0x0f}, "rdi xmm1", "xmm1"},
    {"movhps (%rdi), %xmm1", {0x0f, 0x16, 0x0f}, "rdi xmm1", "xmm1"},
    {"movhlps %xmm2, %xmm1", {0x0f, 0x12, 0xca}, "xmm1 xmm2", "xmm1"},
    {"movddup %xmm2, %xmm1", {0xf2, 0x0f, 0x12, 0xca}, "xmm2", "xmm1"},
    {"cvtsi2sd %eax, %xmm0", {0xf2, 0x0f, 0x2a, 0xc0}, "rax xmm0", "xmm0"},
    {"cvtsi2sdq (%rdi), %xmm0", {0xf2, 0x48, 0x0f, 0x2a, 0x07}, "rdi xmm0", "xmm0"},
    {"cvttsd2si %xmm0, %eax", {0xf2, 0x0f, 0x2c, 0xc0}, "xmm0", "rax"},
    {"cvtss2sd %xmm1, %xmm0", {0xf3, 0x0f, 0x5a, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"cvtdq2pd %xmm1, %xmm0", {0xf3, 0x0f, 0xe6, 0xc1}, "xmm1", "xmm0"},
    {"sqrtsd %xmm1, %xmm0", {0xf2, 0x0f, 0x51, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"sqrtpd %xmm1, %xmm0", {0x66, 0x0f, 0x51, 0xc1}, "xmm1", "xmm0"},
    {"ucomisd %xmm1, %xmm0", {0x66, 0x0f, 0x2e, 0xc1}, "xmm0 xmm1", "flags"},
    {"pxor %xmm0, %xmm0", {0x66, 0x0f, 0xef, 0xc0}, "", "xmm0"},
    {"pxor %xmm1, %xmm0", {0x66, 0x0f, 0xef, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"xorps %xmm0, %xmm0", {0x0f, 0x57, 0xc0}, "xmm0", "xmm0"},
    {"xorpd %xmm1, %xmm2", {0x66, 0x0f, 0x57, 0xd1}, "xmm1 xmm2", "xmm2"},
    {"psubd %xmm3, %xmm3", {0x66, 0x0f, 0xfa, 0xdb}, "xmm3", "xmm3"},
    {"paddq %xmm1, %xmm0", {0x66, 0x0f, 0xd4, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"pcmpeqb (%rdi), %xmm1", {0x66, 0x0f, 0x74, 0x0f}, "rdi xmm1", "xmm1"},
    {"pshufd $0x1b, %xmm1, %xmm0", {0x66, 0x0f, 0x70, 0xc1, 0x1b}, "xmm1", "xmm0"},
    {"psrldq $8, %xmm1", {0x66, 0x0f, 0x73, 0xd9, 0x08}, "xmm1", "xmm1"},
    {"movd %eax, %xmm0", {0x66, 0x0f, 0x6e, 0xc0}, "rax", "xmm0"},
    {"movq %xmm0, %rax", {0x66, 0x48, 0x0f, 0x7e, 0xc0}, "xmm0", "rax"},
    {"movq %xmm1, %xmm0", {0xf3, 0x0f, 0x7e, 0xc1}, "xmm1", "xmm0"},
    {"movdqu (%rsi), %xmm0", {0xf3, 0x0f, 0x6f, 0x06}, "rsi", "xmm0"},
    {"movdqa %xmm0, (%rdi)", {0x66, 0x0f, 0x7f, 0x07}, "xmm0 rdi", ""},
    {"pmovmskb %xmm1, %eax", {0x66, 0x0f, 0xd7, 0xc1}, "xmm1", "rax"},
    {"pinsrw $2, %eax, %xmm1", {0x66, 0x0f, 0xc4, 0xc8, 0x02}, "rax xmm1", "xmm1"},
    {"pextrw $2, %xmm1, %eax", {0x66, 0x0f, 0xc5, 0xc1, 0x02}, "xmm1", "rax"},
    {"shufps $0x44, %xmm1, %xmm0", {0x0f, 0xc6, 0xc1, 0x44}, "xmm0 xmm1", "xmm0"},
    {"unpcklpd %xmm1, %xmm0", {0x66, 0x0f, 0x14, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"haddpd %xmm1, %xmm0", {0x66, 0x0f, 0x7c, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"movmskpd %xmm1, %eax", {0x66, 0x0f, 0x50, 0xc1}, "xmm1", "rax"},
    {"paddw %mm1, %mm0", {0x0f, 0xfd, 0xc1}, "mm0 mm1", "mm0"},
    {"pxor %mm0, %mm0", {0x0f, 0xef, 0xc0}, "", "mm0"},
    {"movq %mm0, %rax", {0x48, 0x0f, 0x7e, 0xc0}, "mm0", "rax"},
    {"movd (%rdi), %mm1", {0x0f, 0x6e, 0x0f}, "rdi", "mm1"},
    {"emms", {0x0f, 0x77}, "", "x87"},
    {"fadd %st(1), %st", {0xd8, 0xc1}, "st0 st1", "st0"},
    {"fmul %st, %st(3)", {0xdc, 0xcb}, "st0 st3", "st3"},
    {"faddp %st, %st(2)", {0xde, 0xc2}, "st0 st2", "st2 pop"},
    {"fcompp", {0xde, 0xd9}, "st0 st1", "x87 pop2"},
    {"fld %st(2)", {0xd9, 0xc2}, "st2", "st7 push"},
    {"fldz", {0xd9, 0xee}, "", "st7 push"},
    {"fxch %st(3)", {0xd9, 0xcb}, "", "st0 st3 fxch"},
    {"fyl2x", {0xd9, 0xf1}, "st0 st1", "st1 pop"},
    {"fsincos", {0xd9, 0xfb}, "st0", "st0 st7 push"},
    {"fldcw (%rdi)", {0xd9, 0x2f}, "rdi", "x87"},
    {"fildl (%rdi)", {0xdb, 0x07}, "rdi", "st7 push"},
    {"fstpt (%rdi)", {0xdb, 0x3f}, "rdi st0", "pop"},
    {"fistpll (%rdi)", {0xdf, 0x3f}, "rdi st0", "pop"},
    {"fldl (%rdi)", {0xdd, 0x07}, "rdi", "st7 push"},
    {"fstl (%rdi)", {0xdd, 0x17}, "rdi st0", ""},
    {"fstpl (%rdi)", {0xdd, 0x1f}, "rdi st0", "pop"},
    {"fcoml (%rdi)", {0xdc, 0x17}, "rdi st0", "x87"},
    {"fucomip %st(1), %st", {0xdf, 0xe9}, "st0 st1", "flags pop"},
    {"fcmovne %st(1), %st", {0xdb, 0xc9}, "st0 st1 flags", "st0"},
    {"fnstsw %ax", {0xdf, 0xe0}, "x87 rax", "rax"},
    {"vpxor %ymm0, %ymm0, %ymm0", {0xc5, 0xfd, 0xef, 0xc0}, "", "xmm0"},
    {"vmovdqu (%rdi), %ymm1", {0xc5, 0xfe, 0x6f, 0x0f}, "rdi", "xmm1"},
    {"vpcmpeqb (%rdi), %ymm0, %ymm1", {0xc5, 0xfd, 0x74, 0x0f}, "rdi xmm0", "xmm1"},
    {"vpmovmskb %ymm1, %eax", {0xc5, 0xfd, 0xd7, 0xc1}, "xmm1", "rax"},
    {"vzeroupper", {0xc5, 0xf8, 0x77}, "", "xmm0 xmm1 xmm2 xmm3 xmm4 xmm5 xmm6 xmm7 xmm8 xmm9 xmm10 xmm11 xmm12 xmm13 xmm14 xmm15"},
    {"shlx %rcx, %rdi, %rax", {0xc4, 0xe2, 0xf1, 0xf7, 0xc7}, "rcx rdi", "rax"},
    {"pshufb %xmm1, %xmm0", {0x66, 0x0f, 0x38, 0x00, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"pcmpistri $0x3a, (%rdi), %xmm1", {0x66, 0x0f, 0x3a, 0x63, 0x0f, 0x3a}, "rdi xmm1", "rcx flags"},
    {"movbe (%rdi), %rax", {0x48, 0x0f, 0x38, 0xf0, 0x07}, "rdi", "rax"},
    {"movbe %ecx, (%rdi)", {0x0f, 0x38, 0xf1, 0x0f}, "rcx rdi", ""},
};

// i386 programs' encodings, read in 32-bit mode (GNU as --32; the register names are the 64-bit ones of the same
// numbers: rax is eax). 40-4F are inc and dec, 06-3F's x6 and x7, 60-63, C4, C5 (with a memory ModRM), CE, D4 and
// D5 are 32-bit mode's own, 67 selects 16-bit addressing, and a ModRM disp32 without a base is an absolute address.
const Encoding kEncodings32[] = {
    {"inc %eax", {0x40}, "rax flags", "rax flags"},
    {"dec %ecx", {0x49}, "rcx flags", "rcx flags"},
    {"inc %edi", {0x47}, "rdi flags", "rdi flags"},
    {"dec %esi", {0x4e}, "rsi flags", "rsi flags"},
    {"inc %ax", {0x66, 0x40}, "rax flags", "rax flags"},
    {"push %es", {0x06}, "rsp", "rsp"},
    {"pop %ds", {0x1f}, "rsp", "rsp"},
    {"daa", {0x27}, "rax flags", "rax flags"},
    {"aaa", {0x37}, "rax flags", "rax flags"},
    {"pusha", {0x60}, "rax rcx rdx rbx rsp rbp rsi rdi", "rsp"},
    {"popa", {0x61}, "rsp", "rax rcx rdx rbx rsp rbp rsi rdi"},
    {"bound %eax, (%ebx)", {0x62, 0x03}, "rax rbx", ""},
    {"arpl %ax, %bx", {0x63, 0xc3}, "rax rbx flags", "rbx flags"},
    {"les (%eax), %ebx", {0xc4, 0x18}, "rax", "rbx"},
    {"lds 4(%esi), %edi", {0xc5, 0x7e, 0x04}, "rsi", "rdi"},
    {"sahf", {0x9e}, "rax flags", "flags"},
    {"lahf", {0x9f}, "rax flags", "rax"},
    {"int $0x80", {0xcd, 0x80}, "rax rbx rcx rdx rsi rdi rbp flags", "rax"},
    {"sysenter", {0x0f, 0x34}, "rax rbx rcx rdx rsi rdi rbp flags", "rax"},
    {"into", {0xce}, "flags", ""},
    {"aam", {0xd4, 0x0a}, "rax", "rax flags"},
    {"addb $5, %al (82)", {0x82, 0xc0, 0x05}, "rax", "rax flags"},
    {"mov 0x1234, %ebx", {0x8b, 0x1d, 0x34, 0x12, 0x00, 0x00}, "", "rbx"},
    {"mov (%bx,%si), %eax", {0x67, 0x8b, 0x00}, "rbx rsi", "rax"},
    {"mov 4(%bp), %eax", {0x67, 0x8b, 0x46, 0x04}, "rbp", "rax"},
    {"vaddps %xmm1, %xmm0, %xmm0", {0xc5, 0xf8, 0x58, 0xc1}, "xmm0 xmm1", "xmm0"},
    {"push %ebp", {0x55}, "rbp rsp", "rsp"},
    {"pop %ebx", {0x5b}, "rsp", "rbx rsp"},
    {"add %ebx, %eax", {0x01, 0xd8}, "rax rbx", "rax flags"},
    {"mov (%esi,%ecx,8), %eax", {0x8b, 0x04, 0xce}, "rsi rcx", "rax"},
    {"call *%eax", {0xff, 0xd0}, "rax rsp", "rsp"},
    {"fnstsw %ax", {0xdf, 0xe0}, "x87 rax", "rax"},
};

RegMask mask_of(const std::string& names) {
    static const char* const kGpr[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                         "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    RegMask m = 0;
    std::istringstream in(names);
    std::string name;
    while (in >> name) {
        bool found = false;
        for (unsigned n = 0; n < 16; ++n)
            if (name == kGpr[n]) m |= reg_gpr(n), found = true;
        if (name == "flags") m |= kRegFlags, found = true;
        if (name == "x87") m |= kRegX87, found = true;
        if (name == "push") m |= kX87Push, found = true;
        if (name == "pop") m |= kX87Pop, found = true;
        if (name == "pop2") m |= kX87Pop2, found = true;
        if (name == "fxch") m |= kX87Exchange, found = true;
        if (name.size() == 3 && name.rfind("st", 0) == 0) m |= reg_st(static_cast<unsigned>(name[2] - '0')), found = true;
        if (name.size() == 3 && name.rfind("mm", 0) == 0) m |= reg_mm(static_cast<unsigned>(name[2] - '0')), found = true;
        if (name.rfind("xmm", 0) == 0) m |= reg_xmm(static_cast<unsigned>(std::stoi(name.substr(3)))), found = true;
        EXPECT_TRUE(found) << name;
    }
    return m;
}

std::string names_of(RegMask m) {
    static const char* const kGpr[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                         "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    std::string s;
    for (unsigned n = 0; n < 16; ++n)
        if (m & reg_gpr(n)) s += std::string(kGpr[n]) + " ";
    if (m & kRegFlags) s += "flags ";
    if (m & kRegX87) s += "x87 ";
    for (unsigned n = 0; n < 16; ++n)
        if (m & reg_xmm(n)) s += "xmm" + std::to_string(n) + " ";
    for (unsigned n = 0; n < 8; ++n)
        if (m & reg_st(n)) s += "st" + std::to_string(n) + " ";
    for (unsigned n = 0; n < 8; ++n)
        if (m & reg_mm(n)) s += "mm" + std::to_string(n) + " ";
    const RegMask top = m & kX87TopMask;
    if (top == kX87Push) s += "push ";
    if (top == kX87Pop) s += "pop ";
    if (top == kX87Pop2) s += "pop2 ";
    if (m & kX87Exchange) s += "fxch ";
    return s;
}

TEST(X86Operands, ReadsAndWritesOfEachEncoding) {
    for (const Encoding& e : kEncodings) {
        const X86Operands o = decode_instruction(e.bytes.data(), static_cast<unsigned>(e.bytes.size()), {}).operands;
        EXPECT_TRUE(o.known) << e.text;
        EXPECT_EQ(names_of(o.reads), names_of(mask_of(e.reads))) << e.text << ": reads";
        EXPECT_EQ(names_of(o.writes), names_of(mask_of(e.writes))) << e.text << ": writes";
    }
}

TEST(X86Operands, ReadsAndWritesInThirtyTwoBitMode) {
    X86OperandOptions mode32;
    mode32.mode = X86Mode::Protected32;
    for (const Encoding& e : kEncodings32) {
        const X86Operands o =
            decode_instruction(e.bytes.data(), static_cast<unsigned>(e.bytes.size()), mode32).operands;
        EXPECT_TRUE(o.known) << e.text;
        EXPECT_EQ(names_of(o.reads), names_of(mask_of(e.reads))) << e.text << ": reads";
        EXPECT_EQ(names_of(o.writes), names_of(mask_of(e.writes))) << e.text << ": writes";
    }
    // 16-bit addressing's displacement is two bytes: the immediate after it is found.
    const std::vector<std::uint8_t> add16 = {0x67, 0x83, 0x86, 0x10, 0x00, 0x05};  // addl $5, 0x10(%bp)
    EXPECT_EQ(decode_instruction(add16.data(), 6, mode32).imm_bits, 4u);
}

// The 90 nm Pentium 4 (models 3 and later) also breaks dependencies on xorps, xorpd and psub* of a register with
// itself; pxor, xor and sub do on every model.
TEST(X86Operands, PrescottZeroIdioms) {
    X86OperandOptions prescott;
    prescott.prescott_idioms = true;
    const std::vector<std::uint8_t> xorps = {0x0f, 0x57, 0xc0};        // xorps %xmm0, %xmm0
    const std::vector<std::uint8_t> xorpd = {0x66, 0x0f, 0x57, 0xc9};  // xorpd %xmm1, %xmm1
    const std::vector<std::uint8_t> psubq = {0x66, 0x0f, 0xfb, 0xd2};  // psubq %xmm2, %xmm2
    const std::vector<std::uint8_t> psubq_other = {0x66, 0x0f, 0xfb, 0xd1};  // psubq %xmm1, %xmm2
    for (const auto* bytes : {&xorps, &xorpd, &psubq}) {
        const X86Operands o =
            decode_instruction(bytes->data(), static_cast<unsigned>(bytes->size()), prescott).operands;
        EXPECT_TRUE(o.known);
        EXPECT_EQ(o.reads, 0u);
        EXPECT_NE(o.writes, 0u);
        EXPECT_NE(decode_instruction(bytes->data(), static_cast<unsigned>(bytes->size()), {}).operands.reads, 0u);
    }
    EXPECT_EQ(decode_instruction(psubq_other.data(), 4, prescott).operands.reads, reg_xmm(1) | reg_xmm(2));
}

// Encodings whose operands the table does not give are reported as unknown, so that the tool falls back to the IR.
TEST(X86Operands, UnknownEncodings) {
    const std::vector<std::vector<std::uint8_t>> unknown = {
        {0x66, 0x0f, 0x38, 0x41, 0xc1},        // phminposuw %xmm1, %xmm0 (SSE4.1)
        {0x66, 0x0f, 0x3a, 0x44, 0xc1, 0x00},  // pclmulqdq
        {0x62, 0xf1, 0x7d, 0x48, 0xef, 0xc0},  // vpxord (EVEX)
        {0x48},                                // a lone prefix
    };
    for (const auto& bytes : unknown)
        EXPECT_FALSE(decode_instruction(bytes.data(), static_cast<unsigned>(bytes.size()), {}).operands.known);
}

// The decoder never reads past the length it is given.
TEST(X86Operands, TruncatedEncodingsStayInBounds) {
    X86OperandOptions mode32;
    mode32.mode = X86Mode::Protected32;
    for (const Encoding& e : kEncodings) {
        for (unsigned len = 0; len < e.bytes.size(); ++len) {
            std::vector<std::uint8_t> copy(e.bytes.begin(), e.bytes.begin() + len);
            (void)decode_instruction(copy.data(), len, {}).operands;
            (void)decode_instruction(copy.data(), len, mode32).operands;
        }
    }
    for (const Encoding& e : kEncodings32) {
        for (unsigned len = 0; len < e.bytes.size(); ++len) {
            std::vector<std::uint8_t> copy(e.bytes.begin(), e.bytes.begin() + len);
            (void)decode_instruction(copy.data(), len, mode32).operands;
        }
    }
}

}  // namespace

// The registers a memory operand's address is formed from, apart from the rest of the reads: a store's address
// uop waits for them only (Instruction::address; 0: not known). Implicit addresses other than the stack's are not
// given.
TEST(X86Operands, AddressRegistersOfMemoryOperands) {
    const std::vector<std::uint8_t> store_indexed = {0x4c, 0x89, 0x04, 0xcf};  // mov %r8, (%rdi,%rcx,8)
    const X86Operands s = decode_instruction(store_indexed.data(), 4, {}).operands;
    EXPECT_EQ(s.address, reg_gpr(7) | reg_gpr(1));
    EXPECT_EQ(s.reads, reg_gpr(8) | reg_gpr(7) | reg_gpr(1));
    const std::vector<std::uint8_t> load_op = {0x4c, 0x23, 0x46, 0x08};  // and 0x8(%rsi), %r8
    const X86Operands l = decode_instruction(load_op.data(), 4, {}).operands;
    EXPECT_EQ(l.address, reg_gpr(6));
    const std::vector<std::uint8_t> push = {0x53};  // push %rbx
    const X86Operands p = decode_instruction(push.data(), 1, {}).operands;
    EXPECT_EQ(p.address, reg_gpr(4));
    const std::vector<std::uint8_t> movsb = {0xa4};  // movsb: rsi and rdi, not given
    EXPECT_EQ(decode_instruction(movsb.data(), 1, {}).operands.address, 0u);
    const std::vector<std::uint8_t> add = {0x01, 0xc8};  // add %ecx, %eax: no memory operand
    const X86Operands a = decode_instruction(add.data(), 2, {}).operands;
    EXPECT_EQ(a.address, 0u);
}

// The immediate's width as a signed number (Instruction::imm_bits: a wider one takes two trace-cache slots).
// Branch displacements and instructions without an immediate give 0.
TEST(X86Operands, ImmediateWidth) {
    const auto bits = [](std::vector<std::uint8_t> b) {
        return static_cast<unsigned>(decode_instruction(b.data(), static_cast<unsigned>(b.size()), {}).imm_bits);
    };
    EXPECT_EQ(bits({0x83, 0xc0, 0x03}), 3u);                          // add $3, %eax
    EXPECT_EQ(bits({0x83, 0xc0, 0xff}), 1u);                          // add $-1, %eax
    EXPECT_EQ(bits({0x81, 0xc3, 0x00, 0x40, 0x00, 0x00}), 16u);       // add $0x4000, %ebx
    EXPECT_EQ(bits({0x81, 0xc3, 0x00, 0x80, 0x00, 0x00}), 17u);       // add $0x8000, %ebx
    EXPECT_EQ(bits({0x81, 0xc3, 0x00, 0x00, 0x01, 0x00}), 18u);       // add $0x10000, %ebx
    EXPECT_EQ(bits({0x81, 0xc3, 0x00, 0x80, 0xff, 0xff}), 16u);       // add $-0x8000, %ebx
    EXPECT_EQ(bits({0x48, 0x89, 0x44, 0x24, 0x08}), 0u);              // mov %rax, 8(%rsp): a displacement
    EXPECT_EQ(bits({0x01, 0xc8}), 0u);                                // add %ecx, %eax
    EXPECT_EQ(bits({0x75, 0x10}), 0u);                                // jne: a branch displacement
    EXPECT_EQ(bits({0x49, 0xbb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00}), 49u);  // movabs $0xffffffffffff, %r11
}
