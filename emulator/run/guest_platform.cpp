#include "emulator/run/guest_platform.h"

#include <elf.h>

#include <cstring>
#include <fstream>

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

}  // namespace netburst::emu::run
