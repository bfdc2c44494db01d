// Which tool build a program needs, from its ELF header: x86-64, i386 (gcc -m32), and everything Valgrind is left
// to judge (scripts, other machines, x32, files that are not there).
#include <elf.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "emulator/run/guest_platform.h"

using namespace netburst::emu::run;

namespace {

std::string write_file(const std::string& name, const std::vector<unsigned char>& bytes) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    return path;
}

// The first bytes of an ELF header: identification, e_type (executable), e_machine, and padding.
std::vector<unsigned char> elf_header(unsigned char elf_class, unsigned machine) {
    std::vector<unsigned char> h(64, 0);
    h[EI_MAG0] = ELFMAG0;
    h[EI_MAG1] = ELFMAG1;
    h[EI_MAG2] = ELFMAG2;
    h[EI_MAG3] = ELFMAG3;
    h[EI_CLASS] = elf_class;
    h[EI_DATA] = ELFDATA2LSB;
    h[EI_VERSION] = EV_CURRENT;
    h[EI_NIDENT] = ET_EXEC;
    h[EI_NIDENT + 2] = static_cast<unsigned char>(machine & 0xff);
    h[EI_NIDENT + 3] = static_cast<unsigned char>(machine >> 8);
    return h;
}

TEST(GuestPlatform, ThisTestIsAnAmd64Program) {
    EXPECT_EQ(guest_platform_of("/proc/self/exe"), GuestPlatform::kAmd64);
}

TEST(GuestPlatform, AnI386HeaderNeedsTheX86Build) {
    EXPECT_EQ(guest_platform_of(write_file("gp-i386", elf_header(ELFCLASS32, EM_386))), GuestPlatform::kX86);
    EXPECT_EQ(guest_platform_of(write_file("gp-amd64", elf_header(ELFCLASS64, EM_X86_64))), GuestPlatform::kAmd64);
}

TEST(GuestPlatform, EverythingElseIsLeftToValgrind) {
    EXPECT_EQ(guest_platform_of(write_file("gp-x32", elf_header(ELFCLASS32, EM_X86_64))), GuestPlatform::kOther);
    EXPECT_EQ(guest_platform_of(write_file("gp-arm", elf_header(ELFCLASS32, EM_ARM))), GuestPlatform::kOther);
    std::vector<unsigned char> big_endian = elf_header(ELFCLASS32, EM_386);
    big_endian[EI_DATA] = ELFDATA2MSB;
    EXPECT_EQ(guest_platform_of(write_file("gp-msb", big_endian)), GuestPlatform::kOther);
    EXPECT_EQ(guest_platform_of(write_file("gp-script", {'#', '!', '/', 'b', 'i', 'n', '/', 's', 'h', '\n'})),
              GuestPlatform::kOther);
    EXPECT_EQ(guest_platform_of(write_file("gp-short", {0x7f, 'E', 'L', 'F', 1})), GuestPlatform::kOther);
    EXPECT_EQ(guest_platform_of(::testing::TempDir() + "gp-no-such-file"), GuestPlatform::kOther);
}

}  // namespace

// The note for an x86-64 program follows the emulated CPUID's Intel 64 bit: models 0-2 have none.
TEST(GuestPlatform, TheNoteFor64BitCodeFollowsTheModelsIntel64Bit) {
    for (unsigned model : {0u, 1u, 2u}) EXPECT_NE(no_64_bit_mode_note(model, GuestPlatform::kAmd64), "") << model;
    for (unsigned model : {3u, 4u, 6u}) EXPECT_EQ(no_64_bit_mode_note(model, GuestPlatform::kAmd64), "") << model;
    EXPECT_EQ(no_64_bit_mode_note(2, GuestPlatform::kOther), "");  // a script: its interpreter is what runs
}
