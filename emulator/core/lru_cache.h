// A set-associative cache with true LRU replacement, in the style of cachegrind's cg_sim.c: each set is a short
// array kept in most-recently-used order, so a hit on the MRU line costs one compare and a miss shifts the set.
// Used for the L1 data cache, the L2 and the L3, which differ only in geometry and in what a line carries.
//
// Lines are identified by their block number (address >> line bits), which also gives the set. Each line keeps
// the tick its data arrives (a line can be allocated before its fill completes: a later access "hits" but waits)
// and a few state bits for the cache that owns it.
#pragma once

#include <cstdint>
#include <cstring>

#include "emulator/core/ticks.h"

namespace netburst::emu {

struct CacheLine {
    std::uint64_t block;  // address >> line_bits; kInvalidBlock when empty
    Tick ready;           // when the data is (or will be) present
    Tick used;            // the L1: when the load that missed on this line read it (an aliasing line waits)
    std::uint32_t state;  // owner-defined bits (sector dirty bits for the L2 and L3)
    std::uint32_t aux;    // owner-defined (the L1 keeps the address-space tag of a linearly tagged line here)
};

constexpr std::uint64_t kInvalidBlock = ~std::uint64_t{0};

template <unsigned MaxLines, unsigned MaxWays>
class LruCache {
public:
    // `size` and `line` in bytes, powers of two; ways <= MaxWays.
    void reset(unsigned size, unsigned ways, unsigned line) {
        ways_ = ways;
        line_bits_ = 0;
        while ((1u << line_bits_) < line) ++line_bits_;
        sets_ = size / line / ways;
        if (sets_ == 0) sets_ = 1;
        if (sets_ * ways_ > MaxLines) sets_ = MaxLines / ways_;
        for (unsigned i = 0; i < sets_ * ways_; ++i) lines_[i] = CacheLine{kInvalidBlock, 0, 0, 0, 0};
    }

    unsigned line_bits() const { return line_bits_; }
    unsigned ways() const { return ways_; }
    unsigned sets() const { return sets_; }
    std::uint64_t block_of(std::uint64_t address) const { return address >> line_bits_; }

    // Looks the block up; on a hit makes it most recently used and returns it (it is then the set's first line).
    CacheLine* touch(std::uint64_t block) {
        CacheLine* set = set_of(block);
        if (set[0].block == block) return &set[0];
        for (unsigned w = 1; w < ways_; ++w) {
            if (set[w].block == block) {
                const CacheLine hit = set[w];
                std::memmove(&set[1], &set[0], w * sizeof(CacheLine));
                set[0] = hit;
                return &set[0];
            }
        }
        return nullptr;
    }

    // Looks the block up without changing the replacement order.
    CacheLine* peek(std::uint64_t block) {
        CacheLine* set = set_of(block);
        for (unsigned w = 0; w < ways_; ++w)
            if (set[w].block == block) return &set[w];
        return nullptr;
    }

    // Inserts a block that missed as most recently used; the least recently used line falls out into *victim
    // (victim->block is kInvalidBlock when the way was empty). Returns the new line.
    CacheLine* insert(std::uint64_t block, CacheLine* victim) {
        CacheLine* set = set_of(block);
        *victim = set[ways_ - 1];
        std::memmove(&set[1], &set[0], (ways_ - 1) * sizeof(CacheLine));
        set[0] = CacheLine{block, 0, 0, 0, 0};
        return &set[0];
    }

    // Replaces a particular line of the block's set (an aliasing line) in place and makes it most recently used.
    CacheLine* replace(CacheLine* line, std::uint64_t block) {
        CacheLine* set = set_of(block);
        const unsigned w = static_cast<unsigned>(line - set);
        std::memmove(&set[1], &set[0], w * sizeof(CacheLine));
        set[0] = CacheLine{block, 0, 0, 0, 0};
        return &set[0];
    }

    CacheLine* set_of(std::uint64_t block) { return &lines_[(block & (sets_ - 1)) * ways_]; }

    void invalidate_all() {
        for (unsigned i = 0; i < sets_ * ways_; ++i) lines_[i] = CacheLine{kInvalidBlock, 0, 0, 0, 0};
    }

private:
    unsigned sets_ = 1, ways_ = 1, line_bits_ = 6;
    CacheLine lines_[MaxLines];
};

}  // namespace netburst::emu
