// A count per instruction address, for the sampler's exact per-instruction counts: open addressing with linear
// probing over a power-of-two table that doubles at half load. Freestanding: memory comes from the allocator the
// owner gives (Valgrind's in the tool, malloc in tests).
#pragma once

#include <cstddef>
#include <cstdint>

namespace netburst::emu::vg {

class PcCounts {
public:
    struct Entry {
        std::uint64_t pc;     // 0: empty (no instruction lives at address 0)
        std::uint64_t count;
        bool sampled;         // a sample named this address (its place in the source is wanted too)
    };
    using Alloc = void* (*)(std::size_t);
    using Free = void (*)(void*);

    PcCounts() = default;
    PcCounts(const PcCounts&) = delete;  // one owner of the table
    PcCounts& operator=(const PcCounts&) = delete;
    ~PcCounts() {
        if (table_ != nullptr && free_ != nullptr) free_(table_);
    }

    // False when memory runs out.
    bool init(Alloc alloc, Free release) {
        alloc_ = alloc;
        free_ = release;
        return resize(1024);
    }
    void clear() {
        for (std::size_t i = 0; i < capacity_; ++i) table_[i] = Entry{0, 0, false};
        used_ = 0;
    }
    // The entry of `pc`, made when new; nullptr when pc is 0 or memory runs out.
    Entry* find_or_add(std::uint64_t pc) {
        if (pc == 0) return nullptr;
        if (2 * (used_ + 1) > capacity_ && !resize(capacity_ * 2)) return nullptr;
        Entry* e = slot(pc);
        if (e->pc == 0) {
            e->pc = pc;
            ++used_;
        }
        return e;
    }
    void add(std::uint64_t pc, std::uint64_t count) {
        if (Entry* e = find_or_add(pc)) e->count += count;
    }
    void mark_sampled(std::uint64_t pc) {
        if (Entry* e = find_or_add(pc)) e->sampled = true;
    }
    template <typename Fn>
    void for_each(Fn fn) const {
        for (std::size_t i = 0; i < capacity_; ++i)
            if (table_[i].pc != 0) fn(table_[i]);
    }
    std::size_t size() const { return used_; }

private:
    Entry* slot(std::uint64_t pc) const {
        // Fibonacci hashing: instruction addresses are dense and their low bits alone would cluster.
        std::size_t i = static_cast<std::size_t>((pc * 0x9E3779B97F4A7C15ull) >> 20) & (capacity_ - 1);
        while (table_[i].pc != 0 && table_[i].pc != pc) i = (i + 1) & (capacity_ - 1);
        return &table_[i];
    }
    bool resize(std::size_t capacity) {
        auto* fresh = static_cast<Entry*>(alloc_(capacity * sizeof(Entry)));
        if (!fresh) return false;
        Entry* old = table_;
        const std::size_t old_capacity = capacity_;
        table_ = fresh;
        capacity_ = capacity;
        used_ = 0;
        clear();
        for (std::size_t i = 0; i < old_capacity; ++i)
            if (old[i].pc != 0) {
                Entry* e = slot(old[i].pc);
                *e = old[i];
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
