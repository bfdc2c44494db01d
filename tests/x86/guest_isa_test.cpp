// Instructions of extensions a Pentium 4 model does not have (emulator/x86/guest_isa.h), from their bytes as
// GNU as encodes them, through the opcode table's extension column.
#include <gtest/gtest.h>

#include <vector>

#include "emulator/x86/guest_isa.h"
#include "emulator/x86/machine_info.h"
#include "emulator/x86/x86_instruction.h"

using namespace netburst::emu::vg;
using E = GuestExtension;

namespace {

struct Case {
    const char* text;
    std::vector<std::uint8_t> bytes;
    E extension;
};

const Case kCases[] = {
    {"addpd %xmm1,%xmm0", {0x66, 0x0F, 0x58, 0xC1}, E::None},
    {"movlps (%rcx),%xmm0", {0x0F, 0x12, 0x01}, E::None},
    {"movhpd (%rcx),%xmm0", {0x66, 0x0F, 0x16, 0x01}, E::None},
    {"bsf %ecx,%eax", {0x0F, 0xBC, 0xC1}, E::None},
    {"rep bsf (tzcnt) %ecx,%eax", {0xF3, 0x0F, 0xBC, 0xC1}, E::None},  // runs as bsf on older parts
    {"cmpxchg8b (%rdi)", {0x0F, 0xC7, 0x0F}, E::None},
    {"fxsave (%rax)", {0x0F, 0xAE, 0x00}, E::None},
    {"lfence", {0x0F, 0xAE, 0xE8}, E::None},
    {"endbr64", {0xF3, 0x0F, 0x1E, 0xFA}, E::None},
    {"fistp (%rax)", {0xDB, 0x18}, E::None},
    {"nopw 0x0(%rax,%rax,1)", {0x66, 0x0F, 0x1F, 0x44, 0x00, 0x00}, E::None},
    {"haddpd %xmm1,%xmm0", {0x66, 0x0F, 0x7C, 0xC1}, E::Sse3},
    {"addsubps %xmm1,%xmm0", {0xF2, 0x0F, 0xD0, 0xC1}, E::Sse3},
    {"movddup %xmm1,%xmm0", {0xF2, 0x0F, 0x12, 0xC1}, E::Sse3},
    {"movshdup %xmm1,%xmm0", {0xF3, 0x0F, 0x16, 0xC1}, E::Sse3},
    {"lddqu (%rcx),%xmm0", {0xF2, 0x0F, 0xF0, 0x01}, E::Sse3},
    {"fisttpl (%rax)", {0xDB, 0x08}, E::Sse3},
    {"monitor", {0x0F, 0x01, 0xC8}, E::Monitor},
    {"pshufb %xmm1,%xmm0", {0x66, 0x0F, 0x38, 0x00, 0xC1}, E::Ssse3},
    {"pshufb %mm1,%mm0", {0x0F, 0x38, 0x00, 0xC1}, E::Ssse3},
    {"palignr $8,%xmm1,%xmm0", {0x66, 0x0F, 0x3A, 0x0F, 0xC1, 0x08}, E::Ssse3},
    {"pminsd %xmm1,%xmm0", {0x66, 0x0F, 0x38, 0x39, 0xC1}, E::Sse41},
    {"ptest %xmm1,%xmm0", {0x66, 0x0F, 0x38, 0x17, 0xC1}, E::Sse41},
    {"roundsd $1,%xmm1,%xmm0", {0x66, 0x0F, 0x3A, 0x0B, 0xC1, 0x01}, E::Sse41},
    {"pcmpistri $0,%xmm1,%xmm0", {0x66, 0x0F, 0x3A, 0x63, 0xC1, 0x00}, E::Sse42},
    {"pcmpgtq %xmm1,%xmm0", {0x66, 0x0F, 0x38, 0x37, 0xC1}, E::Sse42},
    {"crc32l %ecx,%eax", {0xF2, 0x0F, 0x38, 0xF1, 0xC1}, E::Sse42},
    {"popcnt %rcx,%rax", {0xF3, 0x48, 0x0F, 0xB8, 0xC1}, E::Popcnt},
    {"lzcnt %ecx,%eax", {0xF3, 0x0F, 0xBD, 0xC1}, E::Lzcnt},
    {"movbe (%rcx),%eax", {0x0F, 0x38, 0xF0, 0x01}, E::Movbe},
    {"aesenc %xmm1,%xmm0", {0x66, 0x0F, 0x38, 0xDC, 0xC1}, E::Aes},
    {"pclmulqdq $0,%xmm1,%xmm0", {0x66, 0x0F, 0x3A, 0x44, 0xC1, 0x00}, E::Pclmul},
    {"vaddps %ymm2,%ymm1,%ymm0", {0xC5, 0xF4, 0x58, 0xC2}, E::Avx},
    {"vpbroadcastb %xmm1,%ymm0", {0xC4, 0xE2, 0x7D, 0x78, 0xC1}, E::Avx},
    {"vaddps %zmm2,%zmm1,%zmm0", {0x62, 0xF1, 0x74, 0x48, 0x58, 0xC2}, E::Avx512},
    {"cmpxchg16b (%rdi)", {0x48, 0x0F, 0xC7, 0x0F}, E::Cx16},
    {"lock cmpxchg16b (%rdi)", {0xF0, 0x48, 0x0F, 0xC7, 0x0F}, E::Cx16},
    {"sahf", {0x9E}, E::Lahf64},
    {"xgetbv", {0x0F, 0x01, 0xD0}, E::Xsave},
    {"xsave (%rax)", {0x0F, 0xAE, 0x20}, E::Xsave},
    {"rdrand %eax", {0x0F, 0xC7, 0xF0}, E::Rdrand},
    {"rdtscp", {0x0F, 0x01, 0xF9}, E::Rdtscp},
    {"xtest", {0x0F, 0x01, 0xD6}, E::Rtm},
};

E extension_of(const std::vector<std::uint8_t>& bytes) {
    return netburst::emu::decode_instruction(bytes.data(), static_cast<unsigned>(bytes.size())).extension;
}

nb_emulator_info machine(unsigned model) {
    nb_emulator_info m;
    describe_machine(netburst::emu::EmulatedMachine{}.with_model(model), &m);
    return m;
}

}  // namespace

TEST(GuestIsa, EachEncodingHasItsExtension) {
    for (const Case& c : kCases)
        EXPECT_EQ(extension_of(c.bytes), c.extension) << c.text;
}

TEST(GuestIsa, AnInstructionIsMissingWhereTheModelsCpuidLacksItsFlag) {
    struct Row {
        const char* text;
        std::vector<std::uint8_t> bytes;
        std::vector<unsigned> missing_on;
    };
    const Row rows[] = {
        {"haddpd", {0x66, 0x0F, 0x7C, 0xC1}, {0, 1, 2}},
        {"monitor", {0x0F, 0x01, 0xC8}, {0, 1, 2}},
        {"pshufb", {0x66, 0x0F, 0x38, 0x00, 0xC1}, {0, 1, 2, 3, 4, 6}},
        {"vaddps", {0xC5, 0xF4, 0x58, 0xC2}, {0, 1, 2, 3, 4, 6}},
        {"cmpxchg16b", {0x48, 0x0F, 0xC7, 0x0F}, {0, 1, 2, 3}},
        {"sahf", {0x9E}, {0, 1, 2, 3, 4}},
        {"addpd", {0x66, 0x0F, 0x58, 0xC1}, {}},
    };
    for (const Row& r : rows) {
        for (unsigned model : {0u, 1u, 2u, 3u, 4u, 6u}) {
            bool expected = false;
            for (unsigned m : r.missing_on) expected = expected || m == model;
            const E e = missing_extension(machine(model), extension_of(r.bytes));
            EXPECT_EQ(e != E::None, expected) << r.text << " on model " << model;
        }
    }
}

TEST(GuestIsa, NamesAreOneWord) {
    for (unsigned k = 0; k < static_cast<unsigned>(E::Count_); ++k) {
        const std::string name = extension_name(static_cast<E>(k));
        EXPECT_FALSE(name.empty());
        EXPECT_EQ(name.find(' '), std::string::npos) << name;
    }
}
