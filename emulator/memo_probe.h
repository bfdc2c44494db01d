// A hash-only prototype of the timing memo (doc/speed.md), to measure before building replay how often a memo would
// hit. At each block start (the first instruction after a branch) it takes the core's timing state relative to
// the current cycle (Core::timing_state); at the next block start the block's key is that state, the block's
// addresses and everything the model answered for it (each Outcome relative to the block's start: uop retirement
// and replay causes, event records with their cycles, intervals). Key seen before: a hit. This over-counts a
// memo's hits at most by blocks whose different inputs happened to give the same answers.
//
// Freestanding: the table is a fixed array of keys the owner provides, in sets of eight with least-recently-used
// replacement, so that it behaves as a memo of that many states would: a full set forgets its oldest state to
// learn the new one (a memo bounded by memory has to).
#pragma once

#include <cstdint>

#include "emulator/core/core.h"
#include "emulator/core/state_hash.h"
#include "emulator/model/outcome.h"

namespace netburst::emu {

class MemoProbe {
public:
    static constexpr unsigned kLog2Ways = 3;

    // `table` holds 2^log2_slots keys, zeroed; log2_slots >= kLog2Ways.
    MemoProbe(std::uint64_t* table, unsigned log2_slots)
        : table_(table), set_mask_((std::uint64_t{1} << (log2_slots - kLog2Ways)) - 1) {}

    // Before the instruction at `pc` runs; `state` is evaluated only at a block start.
    template <class StateOf>
    void before(std::uint64_t pc, StateOf state) {
        if (!block_open_ || block_ended_) {
            if (block_open_) finish_block();
            const Core::TimingState s = state();
            state_ = s.hash;
            reference_ = s.reference;
            acc_ = StateHash(0);
            block_open_ = true;
            block_ended_ = false;
        }
        acc_.add(pc);
    }

    void after(const Outcome& o, bool ends_block) {
        StateHash h(reference_);
        h.add_cycle(o.fetch);
        h.add_cycle(o.retire);
        h.add_cycle(o.frontier);
        for (unsigned i = 0; i < o.num_uops; ++i) {
            const UopRecord& u = o.uops[i];
            h.add_cycle(u.retire);
            h.add(static_cast<unsigned>(u.kind) | u.bogus << 4 | u.last_of_instruction << 5 | u.has_exec_event << 6 |
                  static_cast<unsigned>(u.exec_event) << 8 | u.exec_mask_bit << 24);
            h.add_cycle(u.exec_cycle);
            h.add(u.replay_causes | std::uint64_t{u.mob_mask} << 16);
        }
        for (unsigned i = 0; i < o.num_events; ++i) {
            const EventRecord& e = o.events[i];
            h.add_cycle(e.cycle);
            h.add(static_cast<unsigned>(e.event) | e.mask_bit << 16 | std::uint64_t{e.count} << 24);
        }
        for (unsigned i = 0; i < o.num_intervals; ++i) {
            const IntervalRecord& r = o.intervals[i];
            h.add_cycle(r.begin);
            h.add_cycle(r.end);
            h.add(static_cast<unsigned>(r.event) | r.mask_bit << 16 | std::uint64_t{r.per_cycle} << 24);
        }
        acc_.add(h.value());
        if (ends_block) block_ended_ = true;
    }

    std::uint64_t blocks() const { return blocks_; }
    std::uint64_t hits() const { return hits_; }
    std::uint64_t stored() const { return stored_; }
    std::uint64_t evicted() const { return evicted_; }

private:
    void finish_block() {
        std::uint64_t key = state_ ^ (acc_.value() * 0x9E3779B97F4A7C15ull);
        if (key == 0) key = 1;
        ++blocks_;
        constexpr unsigned kWays = 1u << kLog2Ways;
        std::uint64_t* set = table_ + ((key & set_mask_) << kLog2Ways);
        unsigned way = 0;
        while (way < kWays && set[way] != key) ++way;
        if (way < kWays) {
            ++hits_;
        } else {
            way = kWays - 1;
            if (set[way] != 0) ++evicted_;
            ++stored_;
        }
        for (; way > 0; --way) set[way] = set[way - 1];  // most recently used first
        set[0] = key;
    }

    std::uint64_t* table_;
    std::uint64_t set_mask_;
    bool block_open_ = false, block_ended_ = false;
    std::uint64_t state_ = 0;
    Tick reference_ = 0;
    StateHash acc_{0};
    std::uint64_t blocks_ = 0, hits_ = 0, stored_ = 0, evicted_ = 0;
};

}  // namespace netburst::emu
