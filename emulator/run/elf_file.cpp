#include "emulator/run/elf_file.h"

#include <elf.h>

#include <cstring>
#include <fstream>

namespace netburst::emu::run {

namespace {

bool read_at(std::ifstream& in, std::uint64_t offset, void* out, std::size_t size) {
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    return static_cast<bool>(in.read(static_cast<char*>(out), static_cast<std::streamsize>(size)));
}

// The GNU build id in a PT_NOTE segment's notes, if any. A note's header is three 4-byte words in both classes.
std::string build_id_in(std::ifstream& in, std::uint64_t offset, std::uint64_t size) {
    static_assert(sizeof(Elf64_Nhdr) == sizeof(Elf32_Nhdr), "note headers of one size");
    if (size > (1u << 20)) return "";
    std::string bytes(size, '\0');
    if (!read_at(in, offset, bytes.data(), bytes.size())) return "";
    std::size_t at = 0;
    const auto align4 = [](std::size_t n) { return (n + 3) & ~std::size_t{3}; };
    while (at + sizeof(Elf64_Nhdr) <= bytes.size()) {
        Elf64_Nhdr h;
        std::memcpy(&h, bytes.data() + at, sizeof h);
        const std::size_t name_at = at + sizeof h;
        const std::size_t desc_at = name_at + align4(h.n_namesz);
        if (desc_at + h.n_descsz > bytes.size()) break;
        if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && std::memcmp(bytes.data() + name_at, "GNU", 4) == 0)
            return bytes.substr(desc_at, h.n_descsz);
        at = desc_at + align4(h.n_descsz);
    }
    return "";
}

}  // namespace

bool ElfInfo::vaddr_of(std::uint64_t offset, std::uint64_t* vaddr) const {
    for (const ElfSegment& s : loads)
        if (offset >= s.offset && offset - s.offset < s.filesz) {
            *vaddr = s.vaddr + (offset - s.offset);
            return true;
        }
    return false;
}

namespace {

// The program headers of either class: an x86-64 program's (ELFCLASS64) or an i386 one's (ELFCLASS32).
template <typename Ehdr, typename Phdr>
ElfInfo read_program_headers(std::ifstream& in) {
    ElfInfo info;
    Ehdr eh;
    if (!read_at(in, 0, &eh, sizeof eh) || eh.e_phentsize != sizeof(Phdr) || eh.e_phnum > 256) return info;
    for (unsigned i = 0; i < eh.e_phnum; ++i) {
        Phdr ph;
        if (!read_at(in, eh.e_phoff + i * sizeof ph, &ph, sizeof ph)) return info;
        if (ph.p_type == PT_LOAD) info.loads.push_back(ElfSegment{ph.p_offset, ph.p_vaddr, ph.p_filesz});
        if (ph.p_type == PT_NOTE && info.build_id.empty()) info.build_id = build_id_in(in, ph.p_offset, ph.p_filesz);
    }
    info.valid = true;
    return info;
}

}  // namespace

ElfInfo read_elf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char ident[EI_NIDENT];
    if (!in || !read_at(in, 0, ident, sizeof ident) || std::memcmp(ident, ELFMAG, SELFMAG) != 0 ||
        ident[EI_DATA] != ELFDATA2LSB)
        return ElfInfo{};
    if (ident[EI_CLASS] == ELFCLASS64) return read_program_headers<Elf64_Ehdr, Elf64_Phdr>(in);
    if (ident[EI_CLASS] == ELFCLASS32) return read_program_headers<Elf32_Ehdr, Elf32_Phdr>(in);
    return ElfInfo{};
}

}  // namespace netburst::emu::run
