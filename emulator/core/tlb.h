// The translation look-aside buffers. The DTLB is fully associative with LRU replacement (64 entries, 4 KB
// pages); the ITLB is set associative (128 entries, 4-way) and is only consulted when the trace cache misses,
// because the trace cache is virtually addressed.
//
// A fully associative LRU of 64 entries is "is this page among the 64 most recently used distinct pages". It is
// kept as a list in recency order (a hit moves its entry to the front, a miss reuses the last one) with hash
// chains to find a page's entry: every access costs a few steps, hit or miss, however the pages are spread (a
// column walk through a large array misses on every access and used to pay two scans of all entries each time).
// The two most recent entries are known apart from the list (first_, second_), and the list holds them at its
// front in either order: two streams alternating between two pages (a row and a column of two arrays) then only
// trade those two, and the list is put in order (materialize) before anything else moves in it.
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
            chain_[i] = kNone;
            bucket_of_[i] = 0;
            // Recency list 0, 1, ..., entries-1 (all empty); the last one is reused first.
            newer_[i] = static_cast<std::uint8_t>(i == 0 ? kNone : i - 1);
            older_[i] = static_cast<std::uint8_t>(i + 1 == entries_ ? kNone : i + 1);
        }
        std::memset(bucket_, kNone, sizeof bucket_);
        newest_ = 0;
        oldest_ = static_cast<std::uint8_t>(entries_ - 1);
        first_ = 0;
        second_ = entries_ > 1 ? 1 : kNone;
        mru_page_ = second_page_ = kInvalidBlock;
    }

    // True on a hit. A miss installs the page (the page walk that follows always succeeds).
    __attribute__((always_inline)) bool access(std::uint64_t page) {
        if (page == mru_page_) return true;  // inline: the commonest case
        if (page == second_page_) {
            // The two most recent entries trade places (the list keeps them at its front in either order).
            const std::uint8_t e = second_;
            second_ = first_;
            first_ = e;
            second_page_ = mru_page_;
            mru_page_ = page;
            return true;
        }
        return access_other(page);
    }

private:
    __attribute__((always_inline)) bool access_other(std::uint64_t page) {
        materialize();
        const unsigned h = hash(page);
        for (unsigned e = bucket_[h]; e != kNone; e = chain_[e]) {
            if (page_[e] == page) {
                make_newest(e);
                second_ = first_;
                first_ = static_cast<std::uint8_t>(e);
                second_page_ = mru_page_;
                mru_page_ = page;
                return true;
            }
        }
        // Miss: the least recently used entry takes the page and moves to the front of the list.
        const unsigned victim = oldest_;
        if (page_[victim] != kInvalidBlock) unlink_chain(victim, bucket_of_[victim]);
        page_[victim] = page;
        bucket_of_[victim] = static_cast<std::uint8_t>(h);
        chain_[victim] = bucket_[h];
        bucket_[h] = static_cast<std::uint8_t>(victim);
        mru_page_ = page;
        if (entries_ == 1) return false;  // the one entry changed its page
        const std::uint8_t n = newer_[victim];  // with two entries or more the oldest has a newer neighbour
        older_[n] = kNone;
        oldest_ = n;
        newer_[victim] = kNone;
        older_[victim] = newest_;
        newer_[newest_] = static_cast<std::uint8_t>(victim);
        newest_ = static_cast<std::uint8_t>(victim);
        second_ = first_;
        first_ = static_cast<std::uint8_t>(victim);
        second_page_ = page_[second_];
        return false;
    }

    static constexpr std::uint8_t kNone = 0xFF;
    static unsigned hash(std::uint64_t page) { return static_cast<unsigned>((page ^ (page >> 8)) & 255); }
    // Puts the list's front in recency order: first_, then second_.
    void materialize() {
        if (newest_ != first_) make_newest(first_);
    }
    void make_newest(unsigned e) {
        if (e == newest_) return;
        // Unlink (it has a newer neighbour, since it is not the newest).
        const std::uint8_t n = newer_[e], o = older_[e];
        older_[n] = o;
        if (o == kNone) oldest_ = n; else newer_[o] = n;
        // Push at the front.
        newer_[e] = kNone;
        older_[e] = newest_;
        newer_[newest_] = static_cast<std::uint8_t>(e);
        newest_ = static_cast<std::uint8_t>(e);
    }
    void unlink_chain(unsigned e, unsigned h) {
        if (bucket_[h] == e) {
            bucket_[h] = chain_[e];
            return;
        }
        for (unsigned p = bucket_[h]; p != kNone; p = chain_[p]) {
            if (chain_[p] == e) {
                chain_[p] = chain_[e];
                return;
            }
        }
    }

    unsigned entries_ = kMaxEntries;
    std::uint64_t page_[kMaxEntries];
    std::uint8_t chain_[kMaxEntries];      // next entry in the same hash bucket
    std::uint8_t bucket_of_[kMaxEntries];  // the hash bucket of the entry's page
    std::uint8_t newer_[kMaxEntries];      // recency list neighbours
    std::uint8_t older_[kMaxEntries];
    std::uint8_t bucket_[256];             // first entry of each hash bucket
    std::uint8_t newest_ = 0, oldest_ = 0;
    // The most recent entry and the one before it (kNone with one entry), and their pages (kInvalidBlock when
    // there is none).
    std::uint8_t first_ = 0, second_ = kNone;
    std::uint64_t mru_page_ = kInvalidBlock, second_page_ = kInvalidBlock;
};

// 128 entries, 4-way: the set-associative LRU array with one "line" per 4 KB page.
class InstructionTlb {
public:
    void reset(unsigned entries, unsigned ways) { array_.reset(entries << kPageBits, ways, 1u << kPageBits); }
    // True on a hit; a miss installs the page.
    bool access(std::uint64_t address) {
        const std::uint64_t page = address >> kPageBits;
        // Nothing here has timing: the functional tier's way serves both tiers.
        if (array_.touch<false>(page) != nullptr) return true;
        array_.insert<false>(page);
        return false;
    }

private:
    LruCache<128, 8> array_;
};

}  // namespace netburst::emu
