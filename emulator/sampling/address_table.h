// A growing hash table keyed by addresses, for the sampler's per-image tables (PcCounts: a count per instruction;
// CallEdges: a cost per call site and callee): open addressing with linear probing over a power-of-two table that
// doubles at half load. Freestanding: memory comes from the allocator the owner gives (Valgrind's in the tool,
// malloc in tests).
//
// Entry is plain data whose all-zero value is the empty slot, with
//   bool empty() const;                  its key is unset (no instruction lives at address 0)
//   bool same_key(const Entry&) const;
//   std::uint64_t key_hash() const;      mixed well enough that the high bits of a product spread it
//   void set_key(const Entry&);          copies the key fields only: a new entry is an empty slot (all zero) with
//                                        the key's key, so a key need not initialise its other fields (a key with
//                                        wide zeroed costs would cost a memset on every lookup)
#pragma once

#include <cstddef>
#include <cstdint>

namespace netburst::emu::vg {

template <class Entry>
class AddressTable {
public:
    using Alloc = void* (*)(std::size_t);
    using Free = void (*)(void*);

    AddressTable() = default;
    AddressTable(const AddressTable&) = delete;  // one owner of the table
    AddressTable& operator=(const AddressTable&) = delete;
    ~AddressTable() {
        if (table_ != nullptr && free_ != nullptr) free_(table_);
    }

    // False when memory runs out.
    bool init(Alloc alloc, Free release, std::size_t capacity) {
        alloc_ = alloc;
        free_ = release;
        return resize(capacity);
    }
    void clear() {
        for (std::size_t i = 0; i < capacity_; ++i) table_[i] = Entry{};
        used_ = 0;
    }
    // The entry with `key`'s key, made with that key and zeros when new; nullptr when the key is empty or memory
    // runs out.
    Entry* find_or_add(const Entry& key) {
        if (key.empty()) return nullptr;
        if (2 * (used_ + 1) > capacity_ && !resize(capacity_ * 2)) return nullptr;
        Entry* e = slot(key);
        if (e->empty()) {
            e->set_key(key);
            ++used_;
        }
        return e;
    }
    template <typename Fn>
    void for_each(Fn fn) const {
        for (std::size_t i = 0; i < capacity_; ++i)
            if (!table_[i].empty()) fn(table_[i]);
    }
    std::size_t size() const { return used_; }

private:
    Entry* slot(const Entry& key) const {
        // Fibonacci hashing: addresses are dense and their low bits alone would cluster.
        std::size_t i = static_cast<std::size_t>((key.key_hash() * 0x9E3779B97F4A7C15ull) >> 20) & (capacity_ - 1);
        while (!table_[i].empty() && !table_[i].same_key(key)) i = (i + 1) & (capacity_ - 1);
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
            if (!old[i].empty()) {
                *slot(old[i]) = old[i];
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
