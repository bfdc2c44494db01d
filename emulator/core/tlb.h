// The translation look-aside buffers. The DTLB is fully associative with LRU replacement (64 entries, 4 KB
// pages); the ITLB is set associative (128 entries, 4-way) and is only consulted when the trace cache misses,
// because the trace cache is virtually addressed.
//
// A fully associative LRU of 64 entries is "is this page among the 64 most recently used distinct pages". It is
// kept as entries with use stamps: a hit writes one stamp, a miss searches for the oldest. A direct-mapped hint
// table finds the entry of a page without scanning in the common case.
#pragma once

#include <cstdint>
#include <cstring>

#include "emulator/core/lru_cache.h"

namespace netburst::emu {

constexpr unsigned kPageBits = 12;

class DataTlb {
public:
    static constexpr unsigned kMaxEntries = 64;

    void reset(unsigned entries) {
        entries_ = entries > kMaxEntries ? kMaxEntries : (entries == 0 ? 1 : entries);
        for (unsigned i = 0; i < kMaxEntries; ++i) {
            page_[i] = kInvalidBlock;
            stamp_[i] = 0;
        }
        std::memset(hint_, 0, sizeof hint_);
        clock_ = 0;
        mru_page_ = kInvalidBlock;
    }

    // True on a hit. A miss installs the page (the page walk that follows always succeeds).
    bool access(std::uint64_t page) {
        if (page == mru_page_) return true;
        mru_page_ = page;
        const unsigned h = hash(page);
        unsigned e = hint_[h];
        if (page_[e] != page) {
            e = kMaxEntries;
            for (unsigned i = 0; i < entries_; ++i) {
                if (page_[i] == page) {
                    e = i;
                    break;
                }
            }
        }
        if (e < kMaxEntries) {
            stamp_[e] = ++clock_;
            hint_[h] = static_cast<std::uint8_t>(e);
            return true;
        }
        unsigned victim = 0;
        for (unsigned i = 1; i < entries_; ++i)
            if (stamp_[i] < stamp_[victim]) victim = i;
        page_[victim] = page;
        stamp_[victim] = ++clock_;
        hint_[h] = static_cast<std::uint8_t>(victim);
        return false;
    }

private:
    static unsigned hash(std::uint64_t page) {
        return static_cast<unsigned>((page ^ (page >> 8) ^ (page >> 17)) & 255);
    }

    unsigned entries_ = kMaxEntries;
    std::uint64_t page_[kMaxEntries];
    std::uint64_t stamp_[kMaxEntries];
    std::uint8_t hint_[256];
    std::uint64_t clock_ = 0;
    std::uint64_t mru_page_ = kInvalidBlock;
};

// 128 entries, 4-way: the set-associative LRU array with one "line" per 4 KB page.
class InstructionTlb {
public:
    void reset(unsigned entries, unsigned ways) { array_.reset(entries << kPageBits, ways, 1u << kPageBits); }
    // True on a hit; a miss installs the page.
    bool access(std::uint64_t address) {
        const std::uint64_t page = address >> kPageBits;
        if (array_.touch(page) != nullptr) return true;
        CacheLine victim;
        array_.insert(page, &victim);
        return false;
    }

private:
    LruCache<128, 8> array_;
};

}  // namespace netburst::emu
