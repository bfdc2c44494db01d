// Guest memory that is a window of host bytes: [base, base + size) maps onto `bytes`, and any access outside it is
// refused, so that a stray PEBS write is dropped rather than landing elsewhere. The sampler's private DS save area
// and the component tests' in-process DS area are both this. Freestanding (the Valgrind tool links it).
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/pmu/pmu_types.h"

namespace netburst::emu {

struct MemoryWindow {
    std::uint64_t base = 0;
    unsigned char* bytes = nullptr;
    std::size_t size = 0;
    // The window as the PMU's GuestMemory; it refers to this object, which must outlive its use.
    GuestMemory view();
};

}  // namespace netburst::emu
