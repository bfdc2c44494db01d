// The call edges of one process image for `netburst-run record --callgrind`: per (call site, callee) pair, how many
// calls were made and what the sampled event cost while they were open, inclusive of everything they called (the
// exact count, and the samples taken). The shadow call stack (shadow_stack.h) adds a call's costs when the call
// returns, or when its thread or the image ends with the call still open.
//
// Open addressing with linear probing over a power-of-two table that doubles at half load, as PcCounts.
// Freestanding: memory comes from the allocator the owner gives (Valgrind's in the tool, malloc in tests).
#pragma once

#include <cstddef>
#include <cstdint>

namespace netburst::emu::vg {

class CallEdges {
public:
    struct Entry {
        std::uint64_t site;     // the call instruction's address (0: empty slot)
        std::uint64_t callee;   // where the call went (shadow_stack.h: followed through a stub's jumps)
        std::uint64_t calls;
        std::uint64_t exact;    // the exact count while the calls were open
        std::uint64_t samples;  // samples taken while they were open
    };
    using Alloc = void* (*)(std::size_t);
    using Free = void (*)(void*);

    CallEdges() = default;
    CallEdges(const CallEdges&) = delete;  // one owner of the table
    CallEdges& operator=(const CallEdges&) = delete;
    ~CallEdges() {
        if (table_ != nullptr && free_ != nullptr) free_(table_);
    }

    // False when memory runs out.
    bool init(Alloc alloc, Free release) {
        alloc_ = alloc;
        free_ = release;
        return resize(256);
    }
    void clear() {
        for (std::size_t i = 0; i < capacity_; ++i) table_[i] = Entry{0, 0, 0, 0, 0};
        used_ = 0;
    }
    // Adds to the edge site -> callee (made when new). Nothing to add, a site of 0 or no memory: nothing happens.
    void add(std::uint64_t site, std::uint64_t callee, std::uint64_t calls, std::uint64_t exact, std::uint64_t samples) {
        if (site == 0 || (calls | exact | samples) == 0) return;
        if (2 * (used_ + 1) > capacity_ && !resize(capacity_ * 2)) return;
        Entry* e = slot(site, callee);
        if (e->site == 0) {
            *e = Entry{site, callee, 0, 0, 0};
            ++used_;
        }
        e->calls += calls;
        e->exact += exact;
        e->samples += samples;
    }
    template <typename Fn>
    void for_each(Fn fn) const {
        for (std::size_t i = 0; i < capacity_; ++i)
            if (table_[i].site != 0) fn(table_[i]);
    }
    std::size_t size() const { return used_; }

private:
    Entry* slot(std::uint64_t site, std::uint64_t callee) const {
        // Fibonacci hashing of both addresses: one site may call many callees (an indirect call) and the reverse.
        const std::uint64_t h = (site ^ (callee * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
        std::size_t i = static_cast<std::size_t>(h >> 20) & (capacity_ - 1);
        while (table_[i].site != 0 && (table_[i].site != site || table_[i].callee != callee))
            i = (i + 1) & (capacity_ - 1);
        return &table_[i];
    }
    bool resize(std::size_t capacity) {
        auto* fresh = static_cast<Entry*>(alloc_(capacity * sizeof(Entry)));
        if (!fresh) return false;
        Entry* old = table_;
        const std::size_t old_capacity = capacity_;
        table_ = fresh;
        capacity_ = capacity;
        clear();
        for (std::size_t i = 0; i < old_capacity; ++i)
            if (old[i].site != 0) {
                *slot(old[i].site, old[i].callee) = old[i];
                ++used_;
            }
        if (old) free_(old);
        return true;
    }

    Alloc alloc_ = nullptr;
    Free free_ = nullptr;
    Entry* table_ = nullptr;
    std::size_t capacity_ = 0;
    std::size_t used_ = 0;
};

}  // namespace netburst::emu::vg
