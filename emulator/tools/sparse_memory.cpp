#include "emulator/tools/sparse_memory.h"

namespace netburst::emu {

bool SparseMemory::read(std::uint64_t address, void* buffer, unsigned size) const {
    auto* out = static_cast<std::uint8_t*>(buffer);
    for (unsigned i = 0; i < size; ++i) {
        auto it = pages_.find((address + i) / kPage);
        if (it == pages_.end()) return false;
        out[i] = it->second[(address + i) % kPage];
    }
    return true;
}

bool SparseMemory::write(std::uint64_t address, const void* buffer, unsigned size) {
    const auto* in = static_cast<const std::uint8_t*>(buffer);
    for (unsigned i = 0; i < size; ++i) {
        auto& page = pages_.try_emplace((address + i) / kPage).first->second;
        page[(address + i) % kPage] = in[i];
    }
    return true;
}

GuestMemory SparseMemory::as_guest_memory() {
    GuestMemory m;
    m.context = this;
    m.read = [](void* ctx, std::uint64_t a, void* b, unsigned n) { return static_cast<SparseMemory*>(ctx)->read(a, b, n); };
    m.write = [](void* ctx, std::uint64_t a, const void* b, unsigned n) {
        return static_cast<SparseMemory*>(ctx)->write(a, b, n);
    };
    return m;
}

}  // namespace netburst::emu
