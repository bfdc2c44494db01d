// The stores of one logical processor that have been allocated but not yet written to the caches, as the memory
// order buffer sees them when a younger load executes.
//
// Store forwarding on NetBurst (thesis section 5.3.3; Intel optimization manual): a load takes its data from an
// older store in the buffer when it starts at the same address and is no larger. Otherwise an overlapping load
// must wait until the store has written the cache, and the MOB replays it meanwhile:
//   NO_STD        the forwarding store's data is not ready yet (the load replays until it is);
//   PARTIAL_DATA  the load overlaps the store but is not contained in it at the same start;
//   UNALGN_ADDR   ... and its start differs from the store's within the 4-byte alignment;
//   NO_STA        an older store's address is still unknown when the load is ready;
//   64K aliasing  a load whose address equals an in-flight store's modulo 64 KB without overlapping it is
//                 treated as conflicting (memory_cancel 64K_CONF) and waits as well.
//
// Speed: most loads have no older in-flight store nearby, so a counting filter over 8-byte granules of address
// bits 3-10 (which also catches 64K aliases) answers "nothing to check" without scanning.
#pragma once

#include <cstdint>
#include <cstring>

#include "emulator/core/ticks.h"

namespace netburst::emu {

class StoreBuffer {
public:
    static constexpr unsigned kRing = 64;

    void reset() {
        head_ = tail_ = 0;
        std::memset(filter_, 0, sizeof filter_);
        max_sta_ = 0;
    }

    // Forgets the stores that have written the cache by `tick` (stores leave in order).
    void forget_until(Tick tick) {
        while (head_ != tail_ && entries_[head_ % kRing].commit <= tick) {
            const Entry& e = entries_[head_ % kRing];
            filter_update(e.address, e.size, -1);
            ++head_;
        }
    }

    // A new store (older than every load checked after it). Its commit tick follows with set_commit().
    unsigned add(std::uint64_t address, unsigned size, Tick sta, Tick std_ready) {
        if (tail_ - head_ == kRing) {
            // The buffer model holds more than any configuration allows in flight; drop the oldest.
            const Entry& old = entries_[head_ % kRing];
            filter_update(old.address, old.size, -1);
            ++head_;
        }
        const unsigned idx = tail_++;
        Entry& e = entries_[idx % kRing];
        e.address = address;
        e.size = static_cast<std::uint8_t>(size == 0 ? 1 : (size > 16 ? 16 : size));
        e.sta = sta;
        e.std_ready = std_ready;
        e.commit = ~Tick{0};
        filter_update(e.address, e.size, +1);
        if (sta > max_sta_) max_sta_ = sta;
        return idx;
    }
    void set_commit(unsigned idx, Tick commit) { entries_[idx % kRing].commit = commit; }

    // The latest store-address time of all older stores: a load ready before it is replayed (NO_STA).
    Tick max_sta() const { return max_sta_; }

    enum class Conflict : std::uint8_t { None, Forward, NoStd, PartialData, UnalignedAddr, Alias64K };
    struct Check {
        Conflict conflict;
        Tick wait;  // Forward/NoStd: when the store data is ready; the others: when the store writes the cache
    };
    // The youngest older store, still in the buffer at `issue`, that the load at [address, address+size)
    // depends on.
    Check check(std::uint64_t address, unsigned size, Tick issue) const {
        if (head_ == tail_ || !filter_hit(address, size)) return Check{Conflict::None, 0};
        const std::uint64_t end = address + size;
        for (unsigned i = tail_; i != head_;) {
            --i;
            const Entry& e = entries_[i % kRing];
            if (e.commit <= issue) break;  // this one and every older one are in the cache already
            const std::uint64_t e_end = e.address + e.size;
            if (address < e_end && e.address < end) {
                if (address == e.address && size <= e.size)
                    return Check{e.std_ready > issue ? Conflict::NoStd : Conflict::Forward, e.std_ready};
                return Check{((address ^ e.address) & 3) != 0 ? Conflict::UnalignedAddr : Conflict::PartialData,
                             e.commit};
            }
            const std::uint64_t lo = address & 0xFFFF, e_lo = e.address & 0xFFFF;
            if (lo < e_lo + e.size && e_lo < lo + size) return Check{Conflict::Alias64K, e.commit};
        }
        return Check{Conflict::None, 0};
    }

    // The stores still uncommitted after the hash's reference: their times and sizes. (Their addresses are not
    // state but inputs: a memo takes each load's check() against them as part of its key.)
    template <class Hash>
    void hash_future(Hash* h) const {
        for (unsigned i = head_; i != tail_; ++i) {
            const Entry& e = entries_[i % kRing];
            if (e.commit <= h->reference()) continue;
            h->add_tick(e.sta);
            h->add_tick(e.std_ready);
            h->add_tick(e.commit);
            h->add(e.size);
        }
        h->add_tick(max_sta_);
    }

private:
    struct Entry {
        std::uint64_t address;
        Tick sta, std_ready, commit;
        std::uint8_t size;
    };
    static unsigned granule(std::uint64_t a) { return static_cast<unsigned>((a >> 3) & 255); }
    void filter_update(std::uint64_t address, unsigned size, int delta) {
        const std::uint64_t last = address + size - 1;
        for (std::uint64_t g = address >> 3; g <= last >> 3; ++g)
            filter_[g & 255] = static_cast<std::uint16_t>(filter_[g & 255] + delta);
    }
    bool filter_hit(std::uint64_t address, unsigned size) const {
        const std::uint64_t last = address + (size == 0 ? 0 : size - 1);
        for (std::uint64_t g = address >> 3; g <= last >> 3; ++g)
            if (filter_[g & 255] != 0) return true;
        return false;
    }

    Entry entries_[kRing];
    unsigned head_ = 0, tail_ = 0;
    std::uint16_t filter_[256];
    Tick max_sta_ = 0;
};

}  // namespace netburst::emu
