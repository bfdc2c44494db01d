#include "emulator/run/guest_platform.h"

#include <elf.h>

#include <cstring>
#include <fstream>

#include "emulator/x86/guest_cpuid.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

GuestPlatform guest_platform_of(const std::string& path) {
    // e_ident and e_type sit at the same place in both classes, and e_machine right after them.
    unsigned char header[EI_NIDENT + 4];
    std::ifstream in(path, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return GuestPlatform::kOther;
    if (std::memcmp(header, ELFMAG, SELFMAG) != 0 || header[EI_DATA] != ELFDATA2LSB) return GuestPlatform::kOther;
    const unsigned machine = header[EI_NIDENT + 2] | header[EI_NIDENT + 3] << 8;
    if (header[EI_CLASS] == ELFCLASS64 && machine == EM_X86_64) return GuestPlatform::kAmd64;
    if (header[EI_CLASS] == ELFCLASS32 && machine == EM_386) return GuestPlatform::kX86;
    return GuestPlatform::kOther;
}

std::string no_64_bit_mode_note(unsigned model, GuestPlatform platform) {
    const vg::GuestCpuIdentity* id = vg::guest_cpu_identity(model);
    const bool intel64 = id != nullptr && (id->extended_edx >> 29 & 1u) != 0;  // leaf 0x80000001 EDX: Intel 64
    if (intel64 || platform != GuestPlatform::kAmd64) return "";
    return "note: the model " + std::to_string(model) + " Pentium 4 (" + model_codename(model) +
           ") had no 64-bit mode; this x86-64 program runs all the same (--no-64-bit-note: no note)";
}

}  // namespace netburst::emu::run
