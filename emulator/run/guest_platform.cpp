#include "emulator/run/guest_platform.h"

#include <cstring>
#include <fstream>

#include "emulator/x86/guest_cpuid.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

GuestPlatform guest_platform_of(const std::string& path) {
    unsigned char header[NB_ELF_HEADER_BYTES];
    std::ifstream in(path, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return GuestPlatform::kOther;
    return static_cast<GuestPlatform>(nb_guest_elf_of(header, sizeof header));
}

bool wants_fixed_layout(GuestPlatform platform) {
    return nb_guest_elf_wants_fixed_layout(static_cast<nb_guest_elf>(platform)) != 0;
}

std::string no_64_bit_mode_note(unsigned model, GuestPlatform platform) {
    const vg::GuestCpuIdentity* id = vg::guest_cpu_identity(model);
    const bool intel64 = id != nullptr && (id->extended_edx >> 29 & 1u) != 0;  // leaf 0x80000001 EDX: Intel 64
    if (intel64 || platform != GuestPlatform::kAmd64) return "";
    return "note: the model " + std::to_string(model) + " Pentium 4 (" + model_codename(model) +
           ") had no 64-bit mode; this x86-64 program runs all the same (--no-64-bit-note: no note)";
}

}  // namespace netburst::emu::run
