// Which of the tool's builds a program needs. Valgrind runs a program with the tool built for the program's own
// platform (netburst-amd64-linux for x86-64, netburst-x86-linux for i386), which it chooses from the ELF header the
// way the kernel does; netburst-run reads the same header first, so that a program it cannot run yet gets its own
// message rather than Valgrind's.
#pragma once

#include <string>

#include "emulator/protocol/guest_elf.h"

namespace netburst::emu::run {

enum class GuestPlatform {
    kAmd64 = NB_ELF_AMD64,  // ELFCLASS64, EM_X86_64
    kX86 = NB_ELF_I386,     // ELFCLASS32, EM_386: built with gcc -m32, as every Pentium 4 before EM64T ran
    kOther = NB_ELF_OTHER,  // not an ELF file (a script: its interpreter decides), another machine, or unreadable
};

// From the file's ELF identification and e_machine alone (emulator/protocol/guest_elf.h).
GuestPlatform guest_platform_of(const std::string& path);
// Whether the program runs without the kernel's address randomisation (guest_elf.h says why).
bool wants_fixed_layout(GuestPlatform platform);

// The note for an x86-64 program on a model whose part had no 64-bit mode (models 0-2: no Intel 64 in the CPUID of
// the real parts, nor in the emulated one); empty when there is nothing to say.
std::string no_64_bit_mode_note(unsigned model, GuestPlatform platform);

}  // namespace netburst::emu::run
