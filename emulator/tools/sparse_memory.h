// A private guest memory for trace replay: where the DS save area and PEBS records live when there is no real
// guest. Pages appear when first written; reads of untouched memory fail, as a fault would.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>

#include "emulator/pmu/pmu.h"

namespace netburst::emu {

class SparseMemory {
public:
    bool read(std::uint64_t address, void* buffer, unsigned size) const;
    bool write(std::uint64_t address, const void* buffer, unsigned size);
    GuestMemory as_guest_memory();

private:
    static constexpr std::uint64_t kPage = 4096;
    std::unordered_map<std::uint64_t, std::array<std::uint8_t, kPage>> pages_;
};

}  // namespace netburst::emu
