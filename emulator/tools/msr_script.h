// The --msr file of netburst-emu replay: raw register writes applied before the trace runs.
//
//   wrmsr ADDR VALUE [thread=T]     write an MSR (as wrmsr on logical processor T, default 0)
//   poke ADDR VALUE                 store a 64-bit little-endian VALUE at ADDR in the replay's guest memory
//                                   (to set up a DS save area for PEBS)
//   # comment
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace netburst::emu {

struct MsrScriptLine {
    int line = 0;
    enum class Kind { WriteMsr, Poke } kind = Kind::WriteMsr;
    std::uint64_t address = 0;
    std::uint64_t value = 0;
    unsigned thread = 0;
};

// Parses the script; on error returns false with "FILE:LINE: message" in *error.
bool parse_msr_script(const std::string& text, const std::string& name, std::vector<MsrScriptLine>* out,
                      std::string* error);

}  // namespace netburst::emu
