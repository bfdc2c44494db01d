// The data side of the memory hierarchy: L1 data cache, fill buffers, L2 (and the Xeon MP's L3), the
// write-combining buffers that hold store misses, and the bus behind them.
//
//  - L1D: write-through, true LRU, looked up with the linear address. A store that misses does not allocate
//    (CoreConfig::l1_write_allocate, off by default). Apart from aliasing (below), load misses are counted like a
//    plain set-associative LRU cache counts read misses (cachegrind's D1 with the same geometry): every load
//    access is one lookup, a line is installed at the miss and a later access to it is a hit even while its fill
//    is in flight (it then waits for the data).
//  - The L1 tells lines apart by linear address bits 15:6 only (21:6 on Prescott): the optimization manual's
//    "data conflict", or 64K aliasing. Only one line with given bits 15:6 can be in the L1, so an access whose
//    bits 15:6 match a line of another address (64 KB or a multiple away, or the same linear address in the
//    other logical processor's address space: the L1's "shared mode" of the SDM's context-ID description) is an
//    aliasing conflict: a miss that replaces that line once its fill has completed and its reader has read it.
//    The L1 is keyed by those bits (the block), and a line's tag word holds the rest: the linear address above
//    them and the address space.
//  - Fill buffers bound the L1 misses outstanding (4 on Northwood, 8 on Prescott).
//  - L2: write-back, 128-byte lines of two 64-byte sectors, one request every other cycle (every 3.5 cycles on
//    Prescott: CoreConfig::l2_request_ticks). A miss fetches both sectors [ORM]. Lines are Exclusive after a
//    read and Modified after a write (no other bus agents are modelled, so nothing is ever Shared).
#pragma once

#include <cstdint>

#include "emulator/core/bus.h"
#include "emulator/core/event_sink.h"
#include "emulator/model/functional_sink.h"
#include "emulator/core/lru_cache.h"
#include "emulator/core/tick_ring.h"

namespace netburst::emu {

namespace memory_system_detail {
// BSQ_cache_reference mask bits.
constexpr unsigned kRd2HitE = 1, kRd2HitM = 2, kRd3HitE = 4, kRd3HitM = 5, kWr2Hit = 6, kWr3Hit = 7;
constexpr unsigned kRd2Miss = 8, kRd3Miss = 9, kWr2Miss = 10, kWr3Miss = 11;

// L2/L3 line state: dirty bit per 64-byte sector.
constexpr std::uint32_t dirty_bit(std::uint64_t physical) { return 1u << ((physical >> 6) & 1); }
}  // namespace memory_system_detail

class MemorySystem {
public:
    void reset(const CoreConfig& config);

    // Both tiers run the same code (Sink is EventSink for the timing tier, FunctionalSink for the functional
    // one): the caches' contents, replacement order and line states are one functional state, and the timing tier
    // only adds what it computes on top (fill buffers, port slots, when data arrives). With FunctionalSink the
    // Tick arguments are ignored and the returned times are 0.

    struct LoadResult {
        Tick fill;      // when the line is in the L1 (at or before the access for a hit)
        bool l1_miss;   // a primary L1 miss (the load is replay-tagged 1stL)
        bool l2_miss;
        bool alias;     // the miss was a 64K-aliasing conflict with a line of another address
    };
    // A load uop reading the L1 at tick `access`. `linear` indexes and tags the L1, `physical` (the linear
    // address with the address space folded in) tags the L2 and L3; `asid` names the address space. A load that
    // finds its line missing or still being filled is replayed by the core until the line is there.
    template <class Sink>
    __attribute__((always_inline)) LoadResult load(std::uint64_t linear, std::uint64_t physical, unsigned asid,
                                                   Tick access, Sink* out) {
        ++stats_.l1_loads;
        const std::uint64_t tag = l1_tag(linear, asid);
        CacheLine* line = l1_.touch<Sink::kTiming>(l1_block(linear));
        if (line != nullptr && has_tag(line, tag))
            return LoadResult{Sink::kTiming ? l1_.timing(line).ready : 0, false, false, false};
        return load_miss(l1_block(linear), tag, line, physical, access, out);
    }
    // The replayed load that missed on this line read it at `when`: until then an aliasing line may not take the
    // line's place.
    void mark_used(std::uint64_t linear, unsigned asid, Tick when);

    // A retired store writing the caches at tick `when`. Returns when its store-buffer entry is released.
    template <class Sink>
    Tick store(std::uint64_t linear, std::uint64_t physical, unsigned asid, Tick when, Sink* out);

    // A 64-byte code fetch for trace-cache build mode, through the L2. Returns when the bytes arrive.
    template <class Sink>
    Tick code_read(std::uint64_t physical, Tick when, Sink* out) {
        bool missed = false;
        return read_l2(physical, when, false, &missed, out);
    }

    // The timing tier resumes after the functional tier: every fill is complete (lru_cache.h).
    void forget_timing() {
        l1_.forget_timing();
        l2_.forget_timing();
        if (has_l3_) l3_.forget_timing();
    }

    // Forget port reservations before `tick` (time only moves forward).
    void advance(Tick tick) { l2_port_.advance(tick); }
    // The timing state after the hash's reference (the L2 port's from `from`, as TickRing::hash_future): the L2 port, fill and write-combining buffers, the bus. (Lines
    // still being filled are not here: a memo takes each access's fill time as an input.)
    template <class Hash>
    void hash_future(Hash* h, Tick from) const {
        l2_port_.hash_future(h, from);
        h->add_pool(fill_free_, fill_buffers_);
        h->add_pool(wcb_free_, wc_buffers_);
        bus_.hash_future(h);
    }

    // The first free L2 request slot at or after `tick`, claimed. Slots are every l2_request_ticks ticks, counted
    // from tick 0 (a fixed grid, as the L2 pipeline runs whether or not a request comes).
    Tick l2_slot(Tick tick) {
        if (tick < l2_port_.base()) tick = l2_port_.base();
        Tick t = (tick + l2_request_ticks_ - 1) / l2_request_ticks_ * l2_request_ticks_;
        while (l2_port_.taken(t)) t += l2_request_ticks_;
        l2_port_.set(t);
        return t;
    }

    struct Stats {
        std::uint64_t l1_loads = 0, l1_load_misses = 0, l2_reads = 0, l2_read_misses = 0, l3_read_misses = 0;
        std::uint64_t alias_conflicts = 0, store_commits = 0, l2_write_misses = 0;
    };
    const Stats& stats() const { return stats_; }
    std::uint64_t bus_transactions() const { return bus_.transactions(); }

    // For tests: is the line holding `linear` in the L1 (for address space `asid`)?
    bool l1_holds(std::uint64_t linear, unsigned asid);

private:
    // The L1's block (the set and the aliasing bits) and tag (what tells apart the addresses sharing a block) of
    // a linear address. A line keeps its tag in its two 32-bit words (the L1 has no other use for them).
    std::uint64_t l1_block(std::uint64_t linear) const { return (linear >> l1_.line_bits()) & l1_block_mask_; }
    std::uint64_t l1_tag(std::uint64_t linear, unsigned asid) const {
        return (linear >> l1_alias_bits_) << 1 | (asid & 1);
    }
    static bool has_tag(const CacheLine* line, std::uint64_t tag) {
        return line->aux == static_cast<std::uint32_t>(tag) && line->state == static_cast<std::uint32_t>(tag >> 32);
    }
    static void set_tag(CacheLine* line, std::uint64_t tag) {
        line->aux = static_cast<std::uint32_t>(tag);
        line->state = static_cast<std::uint32_t>(tag >> 32);
    }

    // The L1 miss of load(), and read_l2()'s L2 hit, inline (their commonest cases); the L2 miss is not.
    template <class Sink>
    __attribute__((always_inline)) LoadResult load_miss(std::uint64_t block, std::uint64_t tag, CacheLine* line,
                                                        std::uint64_t physical, Tick access, Sink* out) {
        ++stats_.l1_load_misses;
        if (line != nullptr) ++stats_.alias_conflicts;
        Tick start = 0;
        unsigned fb = 0;
        if constexpr (Sink::kTiming) {
            // The miss is known after the tag check.
            start = access + l1_ticks_;
            if (line != nullptr) {
                // The aliasing line keeps its place until its fill is done and the load waiting for it has read
                // it, then this miss replaces it.
                const LineTiming& timing = l1_.timing(line);
                start = max_tick(start, max_tick(timing.ready, timing.used));
            }
            for (unsigned i = 1; i < fill_buffers_; ++i)
                if (fill_free_[i] < fill_free_[fb]) fb = i;
            start = max_tick(start, fill_free_[fb]);
        }
        bool l2_miss = false;
        const Tick fill = read_l2(physical, start, false, &l2_miss, out);
        if constexpr (Sink::kTiming) fill_free_[fb] = fill;
        const bool alias = line != nullptr;
        if (line == nullptr) line = l1_.insert<Sink::kTiming>(block);
        set_tag(line, tag);
        if constexpr (Sink::kTiming) l1_.timing(line) = LineTiming{fill, 0};
        return LoadResult{fill, true, l2_miss, alias};
    }
    template <class Sink>
    __attribute__((always_inline)) Tick read_l2(std::uint64_t physical, Tick start, bool for_ownership,
                                                bool* missed, Sink* out) {
        using namespace memory_system_detail;
        ++stats_.l2_reads;
        Tick slot = 0;
        if constexpr (Sink::kTiming) slot = l2_slot(start);
        const std::uint64_t block = physical >> l2_.line_bits();
        CacheLine* line = l2_.touch<Sink::kTiming>(block);
        if (line != nullptr) {
            *missed = false;
            out->event(to_cycle(slot), EventId::BsqCacheReference,
                       (line->state & dirty_bit(physical)) != 0 ? kRd2HitM : kRd2HitE);
            if (for_ownership) line->state |= dirty_bit(physical);
            return Sink::kTiming ? max_tick(slot + l2_ticks_, l2_.timing(line).ready) : 0;
        }
        *missed = true;
        return read_l2_miss(physical, block, slot, for_ownership, out);
    }
    template <class Sink>
    Tick read_l2_miss(std::uint64_t physical, std::uint64_t block, Tick slot, bool for_ownership, Sink* out);
    template <class Sink>
    Tick fill_l2(std::uint64_t physical, std::uint64_t block, Tick start, bool for_ownership, Tick evict_at, Sink* out);
    template <class Sink>
    Tick read_l3(std::uint64_t physical, Tick start, bool for_ownership, Sink* out);
    template <class Sink>
    void evict_l2(const CacheLine& victim, Tick when, Sink* out);

    LruCache<256, 16> l1_;      // up to 16 KB of 64-byte lines
    LruCache<16384, 8> l2_;     // up to 2 MB of 128-byte lines
    LruCache<65536, 8> l3_;     // up to 8 MB of 128-byte lines
    bool has_l3_ = false;
    bool write_allocate_ = false;
    unsigned l1_alias_bits_ = 16;
    std::uint64_t l1_block_mask_ = (std::uint64_t{1} << 10) - 1;
    TickRing l2_port_;
    Tick l2_request_ticks_ = 4;
    Tick fill_free_[16];
    unsigned fill_buffers_ = 4;
    Tick wcb_free_[16];
    std::uint64_t last_store_block_ = ~std::uint64_t{0};  // the 64-byte block the previous store wrote
    unsigned wc_buffers_ = 6;
    Tick l1_ticks_ = 4, l2_ticks_ = 14, l3_ticks_ = 28;
    Bus bus_;
    Stats stats_;
};

}  // namespace netburst::emu
