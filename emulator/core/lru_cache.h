// A set-associative cache with true LRU replacement, in the style of cachegrind's cg_sim.c: each set keeps its
// tags in most-recently-used order, so a hit on the MRU line costs one compare and a hit further down shifts the
// tags above it. Used for the L1 data cache, the L2 and the L3 (and the ITLB), which differ only in geometry and
// in what a line carries.
//
// The tags (block numbers) are kept apart from the lines' contents, and a line's contents stay in one place while
// it is cached (each tag names its slot): reordering moves eight-byte tags and one-byte slot numbers, never whole
// lines, and a pointer to a line stays valid until the line is replaced.
//
// Lines are identified by their block number (address >> line bits), which also gives the set. Each line keeps
// the tick its data arrives (a line can be allocated before its fill completes: a later access "hits" but waits)
// and a few state bits for the cache that owns it.
#pragma once

#include <cstdint>

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
    static_assert(MaxWays <= 255, "slot numbers are bytes");

    // `size` and `line` in bytes, powers of two; ways <= MaxWays.
    void reset(unsigned size, unsigned ways, unsigned line) {
        ways_ = ways;
        line_bits_ = 0;
        while ((1u << line_bits_) < line) ++line_bits_;
        sets_ = size / line / ways;
        if (sets_ == 0) sets_ = 1;
        if (sets_ * ways_ > MaxLines) sets_ = MaxLines / ways_;
        invalidate_all();
    }

    unsigned line_bits() const { return line_bits_; }
    unsigned ways() const { return ways_; }
    unsigned sets() const { return sets_; }
    std::uint64_t block_of(std::uint64_t address) const { return address >> line_bits_; }

    // Looks the block up; on a hit makes it most recently used and returns its line.
    CacheLine* touch(std::uint64_t block) {
        const unsigned base = set_base(block);
        std::uint64_t* tag = &tags_[base];
        if (tag[0] == block) return &lines_[base + slots_[base]];
        for (unsigned w = 1; w < ways_; ++w) {
            if (tag[w] == block) {
                std::uint8_t* slot = &slots_[base];
                const std::uint8_t s = slot[w];
                for (unsigned k = w; k > 0; --k) {
                    tag[k] = tag[k - 1];
                    slot[k] = slot[k - 1];
                }
                tag[0] = block;
                slot[0] = s;
                return &lines_[base + s];
            }
        }
        return nullptr;
    }

    // Looks the block up without changing the replacement order.
    CacheLine* peek(std::uint64_t block) {
        const unsigned base = set_base(block);
        for (unsigned w = 0; w < ways_; ++w)
            if (tags_[base + w] == block) return &lines_[base + slots_[base + w]];
        return nullptr;
    }

    // Inserts a block that missed as most recently used; the least recently used line falls out into *victim
    // (victim->block is kInvalidBlock when the way was empty). Returns the new line.
    CacheLine* insert(std::uint64_t block, CacheLine* victim) { return insert(block, victim, true); }
    // The same when the victim does not matter.
    CacheLine* insert(std::uint64_t block) { return insert(block, nullptr, false); }

    void invalidate_all() {
        for (unsigned i = 0; i < sets_ * ways_; ++i) {
            tags_[i] = kInvalidBlock;
            slots_[i] = static_cast<std::uint8_t>(i % ways_);
            lines_[i] = CacheLine{kInvalidBlock, 0, 0, 0, 0};
        }
    }

private:
    __attribute__((always_inline)) CacheLine* insert(std::uint64_t block, CacheLine* victim, bool keep_victim) {
        const unsigned base = set_base(block);
        std::uint64_t* tag = &tags_[base];
        std::uint8_t* slot = &slots_[base];
        const std::uint8_t s = slot[ways_ - 1];
        for (unsigned k = ways_ - 1; k > 0; --k) {
            tag[k] = tag[k - 1];
            slot[k] = slot[k - 1];
        }
        tag[0] = block;
        slot[0] = s;
        CacheLine& line = lines_[base + s];
        if (keep_victim) *victim = line;
        line = CacheLine{block, 0, 0, 0, 0};
        return &line;
    }

    unsigned set_base(std::uint64_t block) const { return static_cast<unsigned>(block & (sets_ - 1)) * ways_; }

    unsigned sets_ = 1, ways_ = 1, line_bits_ = 6;
    std::uint64_t tags_[MaxLines];   // per set, most recently used first
    std::uint8_t slots_[MaxLines];   // per set, in the tags' order: which of the set's lines holds that block
    CacheLine lines_[MaxLines];
};

}  // namespace netburst::emu
