#include "emulator/core/trace_cache.h"

#include "emulator/core/set_geometry.h"

namespace netburst::emu {

void TraceCache::reset(unsigned lines, unsigned ways) {
    const SetGeometry g = set_geometry(lines, ways, kMaxLines, kMaxWays);
    ways_ = g.ways;
    sets_ = g.sets;
    clock_ = 0;
    flush();
}

void TraceCache::flush() {
    ++epoch_;
    for (Line& l : lines_) {
        l.tag = kEmpty;
        l.stamp = 0;
        l.insns = 0;
        l.slots = 0;
        l.next = -1;
        for (std::uint16_t& low : l.pc_low) low = 0;
    }
    cursor_[0] = Cursor{};
    cursor_[1] = Cursor{};
}

int TraceCache::find(std::uint64_t tagged_pc) const {
    const unsigned base = set_of(tagged_pc) * ways_;
    for (unsigned w = 0; w < ways_; ++w)
        if (lines_[base + w].tag == tagged_pc) return static_cast<int>(base + w);
    return -1;
}

bool TraceCache::holds_line(std::uint64_t tagged_pc) const { return find(tagged_pc) >= 0; }

TraceCache::Access TraceCache::access_slow(unsigned thread, std::uint64_t tagged_pc, unsigned slots) {
    Cursor& c = cursor_[thread];
    const auto low = static_cast<std::uint16_t>(tagged_pc);
    const int hit = locate(c, tagged_pc);
    c.line = -1;  // off the recorded path of the line being delivered (or at its end)
    if (hit >= 0) {
        enter_line(c, hit, tagged_pc);
        return Access{true, true};
    }
    // Miss: build.
    if (slots > kLineSlots) slots = kLineSlots;
    if (c.build >= 0) {
        Line& b = lines_[c.build];
        if (b.tag == c.build_tag && b.insns < kLineSlots && b.slots + slots <= kLineSlots) {
            ++epoch_;
            b.pc_low[b.insns++] = low;
            b.slots = static_cast<std::uint8_t>(b.slots + slots);
            return Access{false, false};
        }
    }
    const unsigned base = set_of(tagged_pc) * ways_;
    unsigned victim = base;
    for (unsigned w = 1; w < ways_; ++w)
        if (lines_[base + w].stamp < lines_[victim].stamp) victim = base + w;
    // A cursor on the replaced line loses it (cursors never check the tag again).
    for (Cursor& other : cursor_)
        if (other.line == static_cast<int>(victim)) other.line = -1;
    ++epoch_;
    Line& n = lines_[victim];
    n.tag = tagged_pc;
    n.stamp = ++clock_;
    n.pc_low[0] = low;
    n.insns = 1;
    n.slots = static_cast<std::uint8_t>(slots);
    n.next = -1;
    c.build = static_cast<int>(victim);
    c.build_tag = tagged_pc;
    return Access{false, false};
}

}  // namespace netburst::emu
