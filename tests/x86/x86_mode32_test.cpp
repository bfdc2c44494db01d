// 32-bit code (an i386 program, as a Northwood ran it): the decoder front and the opcode table with
// X86OperandOptions::mode32. The encodings are GNU as's (`as --32`, checked with objdump -d).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "emulator/x86/x86_decode.h"
#include "emulator/x86/x86_instruction.h"

namespace netburst::emu {
namespace {

using C = InsnClass;
using Bytes = std::vector<std::uint8_t>;

X86Instruction decode32(const Bytes& b) {
    X86OperandOptions o;
    o.mode32 = true;
    return decode_instruction(b.data(), static_cast<unsigned>(b.size()), o);
}

X86Decoded front32(const Bytes& b) { return decode_x86(b.data(), static_cast<unsigned>(b.size()), true); }

constexpr unsigned kEax = 0, kEcx = 1, kEdx = 2, kEbx = 3, kEsp = 4, kEbp = 5, kEsi = 6, kEdi = 7;

// 40-4F are inc and dec in 32-bit code; in 64-bit code the same byte is REX and the instruction is what follows.
TEST(X86Mode32, OneByteIncAndDecAreInstructionsNotRex) {
    const X86Instruction inc = decode32({0x40});  // inc %eax
    EXPECT_TRUE(inc.known);
    EXPECT_EQ(inc.cls, C::IntAlu);
    EXPECT_EQ(inc.form, InsnForm::IncDec);
    EXPECT_EQ(inc.operands.reads, reg_gpr(kEax) | kRegFlags) << "reads eax, and keeps CF";
    EXPECT_EQ(inc.operands.writes, reg_gpr(kEax) | kRegFlags);
    const X86Instruction dec = decode32({0x4F});  // dec %edi
    EXPECT_EQ(dec.operands.writes, reg_gpr(kEdi) | kRegFlags);
    const X86Instruction inc16 = decode32({0x66, 0x41});  // inc %cx: merges into ecx
    EXPECT_EQ(inc16.operands.reads, reg_gpr(kEcx) | kRegFlags);
    EXPECT_FALSE(front32({0x40}).rex);
    // The same byte in 64-bit code is a REX prefix, with no opcode after it.
    const std::uint8_t rex[] = {0x40};
    EXPECT_FALSE(decode_instruction(rex, 1).known);
}

// mod 00, rm 101 is an absolute disp32 in 32-bit code (RIP-relative in 64-bit code): no register is read.
TEST(X86Mode32, AbsoluteAddressesAndSib) {
    const X86Decoded abs = front32({0x8B, 0x0D, 0x44, 0x33, 0x22, 0x11});  // mov 0x11223344, %ecx
    EXPECT_TRUE(abs.mem);
    EXPECT_EQ(abs.base, -1);
    EXPECT_EQ(abs.index, -1);
    EXPECT_EQ(abs.disp_size, 4);
    EXPECT_EQ(decode32({0x8B, 0x0D, 0x44, 0x33, 0x22, 0x11}).operands.reads, 0u);
    const X86Instruction sib = decode32({0x8B, 0x44, 0x8C, 0x08});  // mov 0x8(%esp,%ecx,4), %eax
    EXPECT_EQ(sib.operands.address, reg_gpr(kEsp) | reg_gpr(kEcx));
    EXPECT_EQ(sib.operands.writes, reg_gpr(kEax));
}

// The 67 prefix in 32-bit code selects 16-bit addressing: base and index from ModRM.rm, no SIB, disp16.
TEST(X86Mode32, SixteenBitAddressing) {
    const X86Decoded bx_si = front32({0x67, 0x8B, 0x00});  // mov (%bx,%si), %eax
    EXPECT_TRUE(bx_si.addr16);
    EXPECT_EQ(bx_si.base, static_cast<int>(kEbx));
    EXPECT_EQ(bx_si.index, static_cast<int>(kEsi));
    EXPECT_EQ(bx_si.imm_pos, 3u);
    const X86Decoded bp = front32({0x67, 0x8B, 0x4E, 0x10});  // mov 0x10(%bp), %ecx
    EXPECT_EQ(bp.base, static_cast<int>(kEbp));
    EXPECT_EQ(bp.index, -1);
    EXPECT_EQ(bp.disp_size, 1);
    const X86Decoded disp16 = front32({0x67, 0x8B, 0x16, 0x34, 0x12});  // mov 0x1234, %edx
    EXPECT_EQ(disp16.base, -1);
    EXPECT_EQ(disp16.disp_size, 2);
    EXPECT_EQ(disp16.imm_pos, 5u);
    // In 64-bit code 67 only narrows the address: the ModRM byte keeps its 32/64-bit meaning.
    const std::uint8_t addr32[] = {0x67, 0x8B, 0x00};  // mov (%eax), %eax
    const X86Decoded d64 = decode_x86(addr32, 3);
    EXPECT_FALSE(d64.addr16);
    EXPECT_EQ(d64.base, static_cast<int>(kEax));
}

// C4, C5 and 62 are les, lds and bound when a memory operand follows; with a register ModRM they are VEX and EVEX.
TEST(X86Mode32, LesLdsAndBoundAreNotVex) {
    const X86Instruction les = decode32({0xC4, 0x06});  // les (%esi), %eax
    EXPECT_TRUE(les.known);
    EXPECT_EQ(les.cls, C::Microcode);
    EXPECT_TRUE(les.memory_form);
    EXPECT_EQ(les.operands.address, reg_gpr(kEsi));
    EXPECT_EQ(les.operands.writes, reg_gpr(kEax));
    EXPECT_EQ(decode32({0xC5, 0x4B, 0x04}).operands.writes, reg_gpr(kEcx));  // lds 0x4(%ebx), %ecx
    EXPECT_FALSE(front32({0xC5, 0x4B, 0x04}).vex);
    const X86Instruction bound = decode32({0x62, 0x02});  // bound %eax, (%edx)
    EXPECT_EQ(bound.cls, C::Microcode);
    EXPECT_EQ(bound.operands.reads, reg_gpr(kEax) | reg_gpr(kEdx));
    EXPECT_TRUE(front32({0xC5, 0xE9, 0xFE, 0xD9}).vex);  // vpaddd %xmm1, %xmm2, %xmm3
    EXPECT_EQ(decode32({0xC5, 0xE9, 0xFE, 0xD9}).extension, vg::GuestExtension::Avx);
}

// Opcodes that exist only in 32-bit code get rows of their own; the same bytes in 64-bit code stay unknown.
TEST(X86Mode32, ThirtyTwoBitOnlyOpcodes) {
    struct Case {
        Bytes bytes;
        C cls;
        const char* text;
    };
    const Case cases[] = {
        {{0x60}, C::Microcode, "pusha"},         {{0x61}, C::Microcode, "popa"},
        {{0x27}, C::Microcode, "daa"},           {{0xD4, 0x0A}, C::Microcode, "aam"},
        {{0x06}, C::IntAlu, "push %es"},         {{0x1F}, C::Microcode, "pop %ds"},
        {{0x63, 0xC1}, C::Microcode, "arpl"},    {{0x82, 0xC0, 0x05}, C::IntAlu, "add $5, %al (82)"},
        {{0x9F}, C::IntAlu, "lahf"},             {{0x9E}, C::IntAlu, "sahf"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const X86Instruction r = decode32(c.bytes);
        EXPECT_TRUE(r.known);
        EXPECT_EQ(r.cls, c.cls);
        EXPECT_TRUE(r.operands.known);
    }
    const X86Instruction pusha = decode32({0x60});
    EXPECT_EQ(pusha.operands.reads & 0xFFu, 0xFFu) << "all eight registers";
    EXPECT_EQ(decode32({0x61}).operands.writes & reg_gpr(kEsp), reg_gpr(kEsp)) << "popa moves esp";
    // lahf and sahf are in every 32-bit x86; in 64-bit code they need CPUID's LAHF-SAHF bit.
    EXPECT_EQ(decode32({0x9F}).extension, vg::GuestExtension::None);
    const std::uint8_t lahf[] = {0x9F};
    EXPECT_EQ(decode_instruction(lahf, 1).extension, vg::GuestExtension::Lahf64);
    const std::uint8_t pusha64[] = {0x60};
    EXPECT_FALSE(decode_instruction(pusha64, 1).known);
}

// The system-call instructions of 32-bit Linux: int $0x80 and sysenter.
TEST(X86Mode32, SystemCalls) {
    EXPECT_EQ(decode32({0xCD, 0x80}).cls, C::Syscall);
    EXPECT_TRUE(decode32({0x0F, 0x34}).known);
}

// push and pop of a register use esp in 32-bit code as rsp in 64-bit code.
TEST(X86Mode32, PushAndPop) {
    const X86Instruction push = decode32({0x55});  // push %ebp
    EXPECT_EQ(push.operands.reads, reg_gpr(kEbp) | reg_gpr(kEsp));
    EXPECT_EQ(push.operands.writes, reg_gpr(kEsp));
    const X86Instruction pop = decode32({0x5D});  // pop %ebp
    EXPECT_EQ(pop.operands.writes, reg_gpr(kEbp) | reg_gpr(kEsp));
}

// valgrind.h's x86 client-request preamble: roll $3, $13, $29, $19 of edi, then xchgl %ebx, %ebx.
TEST(X86Mode32, ValgrindSpecialSequence) {
    const std::uint8_t request[] = {0xC1, 0xC7, 0x03, 0xC1, 0xC7, 0x0D, 0xC1, 0xC7,
                                    0x1D, 0xC1, 0xC7, 0x13, 0x87, 0xDB};
    EXPECT_TRUE(is_valgrind_special_sequence(request, sizeof request, true));
    EXPECT_FALSE(is_valgrind_special_sequence(request, 11, true));
    EXPECT_FALSE(is_valgrind_special_sequence(request, sizeof request, false));
}

}  // namespace
}  // namespace netburst::emu
