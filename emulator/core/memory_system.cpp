#include "emulator/core/memory_system.h"

namespace netburst::emu {

using namespace memory_system_detail;

namespace {
unsigned clamp_count(unsigned n, unsigned max) { return n == 0 ? 1 : (n > max ? max : n); }

// Dirty sectors of a line (two state bits). Written out to avoid the libgcc popcount helper in the Valgrind tool.
unsigned dirty_sectors(std::uint32_t state) { return (state & 1u) + (state >> 1 & 1u); }
}  // namespace

void MemorySystem::reset(const CoreConfig& c) {
    l1_.reset(c.l1_size, c.l1_ways, c.l1_line);
    l2_.reset(c.l2_size, c.l2_ways, c.l2_line);
    has_l3_ = c.machine.has_l3 && c.l3_size != 0;
    if (has_l3_) {
        l3_.reset(c.l3_size, c.l3_ways, c.l2_line);
    } else {
        l3_.reset(128 * 8, 8, 128);  // unused; keep it small to reset
    }
    write_allocate_ = c.l1_write_allocate;
    // The aliasing bits must cover the set index (else two lines of one block could sit in different sets).
    l1_alias_bits_ = c.l1_alias_bits;
    const unsigned index_top = l1_.line_bits() + static_cast<unsigned>(__builtin_ctz(l1_.sets() | 1u << 20));
    if (l1_alias_bits_ < index_top) l1_alias_bits_ = index_top;
    if (l1_alias_bits_ > 40) l1_alias_bits_ = 40;
    l1_block_mask_ = (std::uint64_t{1} << (l1_alias_bits_ - l1_.line_bits())) - 1;
    l2_port_.reset();
    l2_request_ticks_ = c.l2_request_ticks == 0 ? 1 : c.l2_request_ticks;
    fill_buffers_ = clamp_count(c.fill_buffers, 16);
    wc_buffers_ = clamp_count(c.wc_buffers, 16);
    for (Tick& t : fill_free_) t = 0;
    for (Tick& t : wcb_free_) t = 0;
    last_store_block_ = ~std::uint64_t{0};
    l1_ticks_ = to_ticks(c.l1_latency);
    l2_ticks_ = to_ticks(c.l2_latency);
    l3_ticks_ = to_ticks(c.l3_latency);
    bus_.reset(c);
    stats_ = Stats{};
}

bool MemorySystem::l1_holds(std::uint64_t linear, unsigned asid) {
    const CacheLine* line = l1_.peek(l1_block(linear));
    return line != nullptr && has_tag(line, l1_tag(linear, asid));
}

void MemorySystem::mark_used(std::uint64_t linear, unsigned asid, Tick when) {
    CacheLine* line = l1_.peek(l1_block(linear));
    if (line == nullptr || !has_tag(line, l1_tag(linear, asid))) return;
    LineTiming& timing = l1_.timing(line);
    if (when > timing.used) timing.used = when;
}

// read_l2() when the L2 misses (slot: the L2 port cycle the read got; block: the L2 block).
template <class Sink>
Tick MemorySystem::read_l2_miss(std::uint64_t physical, std::uint64_t block, Tick slot, bool for_ownership,
                                Sink* out) {
    ++stats_.l2_read_misses;
    out->event(to_cycle(slot), EventId::BsqCacheReference, kRd2Miss);
    return fill_l2(physical, block, slot + l2_ticks_, for_ownership, slot, out);
}

// Reads the block from beyond the L2 (the L3, or the bus) from `start`, and installs it in the L2, dirty when read
// for ownership; the L2's victim is written back at `evict_at`. Returns when the data arrives.
template <class Sink>
Tick MemorySystem::fill_l2(std::uint64_t physical, std::uint64_t block, Tick start, bool for_ownership, Tick evict_at,
                           Sink* out) {
    Tick data;
    if (has_l3_) {
        data = read_l3(physical, start, for_ownership, out);
    } else {
        Tick adjacent;
        data = bus_.read(start, for_ownership, out, &adjacent);
    }
    CacheLine victim;
    CacheLine* line = l2_.insert<Sink::kTiming>(block, &victim);
    if constexpr (Sink::kTiming) l2_.timing(line).ready = data;
    line->state = for_ownership ? dirty_bit(physical) : 0;
    if (victim.block != kInvalidBlock) evict_l2(victim, evict_at, out);
    return data;
}

template <class Sink>
Tick MemorySystem::read_l3(std::uint64_t physical, Tick start, bool for_ownership, Sink* out) {
    const std::uint64_t block = physical >> l3_.line_bits();
    CacheLine* line = l3_.touch<Sink::kTiming>(block);
    if (line != nullptr) {
        out->event(to_cycle(start), EventId::BsqCacheReference,
                   (line->state & dirty_bit(physical)) != 0 ? kRd3HitM : kRd3HitE);
        return Sink::kTiming ? max_tick(start + l3_ticks_, l3_.timing(line).ready) : 0;
    }
    ++stats_.l3_read_misses;
    out->event(to_cycle(start), EventId::BsqCacheReference, kRd3Miss);
    Tick adjacent;
    const Tick data = bus_.read(start + l3_ticks_, for_ownership, out, &adjacent);
    CacheLine victim;
    line = l3_.insert<Sink::kTiming>(block, &victim);
    if constexpr (Sink::kTiming) l3_.timing(line).ready = data;
    if (victim.block != kInvalidBlock && victim.state != 0)
        bus_.write_back(start, dirty_sectors(victim.state), out);
    return data;
}

template <class Sink>
void MemorySystem::evict_l2(const CacheLine& victim, Tick when, Sink* out) {
    if (victim.state == 0) return;  // clean: dropped silently
    if (!has_l3_) {
        bus_.write_back(when, dirty_sectors(victim.state), out);
        return;
    }
    CacheLine* line = l3_.touch<Sink::kTiming>(victim.block);
    if (line != nullptr) {
        out->event(to_cycle(when), EventId::BsqCacheReference, kWr3Hit);
    } else {
        out->event(to_cycle(when), EventId::BsqCacheReference, kWr3Miss);
        CacheLine l3_victim;
        line = l3_.insert<Sink::kTiming>(victim.block, &l3_victim);
        if constexpr (Sink::kTiming) l3_.timing(line).ready = when;
        if (l3_victim.block != kInvalidBlock && l3_victim.state != 0)
            bus_.write_back(when, dirty_sectors(l3_victim.state), out);
    }
    line->state |= victim.state;
}

template <class Sink>
Tick MemorySystem::store(std::uint64_t linear, std::uint64_t physical, unsigned asid, Tick when, Sink* out) {
    ++stats_.store_commits;
    // L1: write-through. A hit refreshes the line's LRU position (as does a store to an aliasing line, which
    // does not replace it unless stores allocate).
    const std::uint64_t l1_line_tag = l1_tag(linear, asid);
    CacheLine* l1_line = l1_.touch<Sink::kTiming>(l1_block(linear));
    if ((l1_line == nullptr || !has_tag(l1_line, l1_line_tag)) && write_allocate_) {
        if (l1_line == nullptr) l1_line = l1_.insert<Sink::kTiming>(l1_block(linear));
        set_tag(l1_line, l1_line_tag);
        if constexpr (Sink::kTiming) l1_.timing(l1_line).ready = when;
    }
    // Consecutive stores to one 64-byte block are combined on their way to the L2 (the write-combining path
    // between the write-through L1 and the L2): only the first of a run looks the L2 up.
    const std::uint64_t block64 = physical >> 6;
    if (block64 == last_store_block_) return when + kTicksPerCycle;
    last_store_block_ = block64;
    // L2: write-back.
    Tick slot = 0;
    if constexpr (Sink::kTiming) slot = l2_slot(when);
    const std::uint64_t block = physical >> l2_.line_bits();
    CacheLine* line = l2_.touch<Sink::kTiming>(block);
    if (line != nullptr) {
        out->event(to_cycle(slot), EventId::BsqCacheReference, kWr2Hit);
        line->state |= dirty_bit(physical);
        return slot + kTicksPerCycle;
    }
    ++stats_.l2_write_misses;
    out->event(to_cycle(slot), EventId::BsqCacheReference, kWr2Miss);
    // The store moves into a write-combining buffer that waits for the line (read for ownership).
    unsigned w = 0;
    Tick accept = 0;
    if constexpr (Sink::kTiming) {
        for (unsigned i = 1; i < wc_buffers_; ++i)
            if (wcb_free_[i] < wcb_free_[w]) w = i;
        accept = max_tick(slot, wcb_free_[w]);
    }
    const Tick data = fill_l2(physical, block, accept + l2_ticks_, true, slot, out);
    if constexpr (Sink::kTiming) wcb_free_[w] = data;
    return accept + kTicksPerCycle;
}

// The two tiers.
template Tick MemorySystem::store(std::uint64_t, std::uint64_t, unsigned, Tick, EventSink*);
template Tick MemorySystem::store(std::uint64_t, std::uint64_t, unsigned, Tick, FunctionalSink*);
template Tick MemorySystem::read_l2_miss(std::uint64_t, std::uint64_t, Tick, bool, EventSink*);
template Tick MemorySystem::read_l2_miss(std::uint64_t, std::uint64_t, Tick, bool, FunctionalSink*);

}  // namespace netburst::emu
