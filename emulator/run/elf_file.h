// The little of an ELF file the record writers need: its loadable segments, to turn a file offset into the address
// the object's own symbols and disassembly use (callgrind's "instr" positions), and its GNU build id.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace netburst::emu::run {

struct ElfSegment {
    std::uint64_t offset = 0;  // p_offset
    std::uint64_t vaddr = 0;   // p_vaddr
    std::uint64_t filesz = 0;  // p_filesz
};

struct ElfInfo {
    bool valid = false;  // a little-endian ELF file of either class (x86-64 or i386) was read
    std::vector<ElfSegment> loads;
    std::string build_id;  // raw bytes of NT_GNU_BUILD_ID, empty when absent
    // The address in the object's own terms of the byte at file offset `offset`, or false when no loadable segment
    // holds it.
    bool vaddr_of(std::uint64_t offset, std::uint64_t* vaddr) const;
};

// Reads path's program headers and build-id note; an unreadable or non-ELF file gives valid == false.
ElfInfo read_elf(const std::string& path);

}  // namespace netburst::emu::run
