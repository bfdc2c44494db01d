#include "emulator/pmu/memory_window.h"

namespace netburst::emu {

namespace {

bool covers(const MemoryWindow& w, std::uint64_t address, unsigned n) {
    return address >= w.base && address - w.base <= w.size && n <= w.size - (address - w.base);
}

// Byte loops: the tool has no C library memcpy.
bool read_window(void* context, std::uint64_t address, void* buffer, unsigned size) {
    const auto* w = static_cast<const MemoryWindow*>(context);
    if (!covers(*w, address, size)) return false;
    const unsigned char* from = w->bytes + (address - w->base);
    for (unsigned i = 0; i < size; ++i) static_cast<unsigned char*>(buffer)[i] = from[i];
    return true;
}

bool write_window(void* context, std::uint64_t address, const void* buffer, unsigned size) {
    const auto* w = static_cast<const MemoryWindow*>(context);
    if (!covers(*w, address, size)) return false;
    unsigned char* to = w->bytes + (address - w->base);
    for (unsigned i = 0; i < size; ++i) to[i] = static_cast<const unsigned char*>(buffer)[i];
    return true;
}

}  // namespace

GuestMemory MemoryWindow::view() {
    GuestMemory m;
    m.context = this;
    m.read = read_window;
    m.write = write_window;
    return m;
}

}  // namespace netburst::emu
