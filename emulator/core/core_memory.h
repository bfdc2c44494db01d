// What loads, stores and branches do to the functional state, shared by both tiers: a load uop (its DTLB and cache
// accesses, with its split second line; in the timing tier also its port, the replay loop and the store buffer),
// a store-address uop's DTLB access and split check, a retired store's write into the caches (and the
// self-modifying-code check), and a branch's retirement events. Each is a template over the sink: the timing tier
// (EventSink) also computes when things happen; the functional tier (FunctionalSink) only counts. One
// implementation, so the two tiers cannot disagree on what happened.
//
// Included at the end of core.h, so that each tier gets them inlined where it wants.
#pragma once

#include "emulator/core/core.h"

namespace netburst::emu {

// Mask bits and helpers of the functions below.
namespace core_memory {
constexpr unsigned kMmnp = 0, kMmnm = 1, kMmtp = 2, kMmtm = 3;                                 // branch_retired
constexpr unsigned kTypeUncond = 0, kTypeCond = 1, kTypeCall = 2, kTypeReturn = 3, kTypeIndirect = 4;
constexpr unsigned kSplitBit = 1;                                // load_port_replay / store_port_replay
constexpr unsigned kLoadSplitComplete = 0, kStoreSplitComplete = 1;                            // memory_complete
constexpr unsigned kNoSta = 1, kNoStd = 3, kPartialData = 4, kUnalignedAddr = 5;               // MOB_load_replay
constexpr unsigned kDataWalk = 0;                                                              // page_walk_type
constexpr unsigned kFlush = 4;                                                                 // TC_misc
constexpr unsigned kClearCycles = 0, kSmcClear = 6;                                            // machine_clear
constexpr unsigned k64kConflict = 3;                                                           // memory_cancel
constexpr unsigned kStackPointer = 4;                                        // reg_gpr(4): rsp, its scoreboard index

inline std::uint64_t dtlb_page(std::uint64_t physical, unsigned thread) {
    return (physical >> kPageBits) ^ (static_cast<std::uint64_t>(thread) << 50);
}

inline bool splits(std::uint64_t address, unsigned size) { return (address & 63) + size > 64; }

// retired_branch_type / retired_mispred_branch_type bits of a branch class (table definitions: CALL counts
// direct and indirect calls for retired_branch_type, INDIRECT counts returns, indirect calls and indirect jumps).
inline unsigned branch_type_bits(InsnClass c, bool mispredicted_type) {
    switch (c) {
    case InsnClass::CondBranch: return 1u << kTypeCond;
    case InsnClass::DirectJump: return 1u << kTypeUncond;
    case InsnClass::DirectCall: return mispredicted_type ? 0u : 1u << kTypeCall;
    case InsnClass::IndirectCall: return 1u << kTypeCall | 1u << kTypeIndirect;
    case InsnClass::Return: return 1u << kTypeReturn | 1u << kTypeIndirect;
    case InsnClass::IndirectJump: return 1u << kTypeIndirect;
    default: return 0;
    }
}
}  // namespace core_memory

template <class Sink>
__attribute__((always_inline)) inline Core::LoadAccess Core::load_access(unsigned t, const MemOperand& m, Tick issue,
                                                                         Sink* sink) {
    // Locals until the end (a LoadAccess built early lives on the stack).
    const std::uint64_t address = m.address;
    const unsigned size = m.size == 0 ? 1 : m.size;
    const unsigned as = asid(t);
    const std::uint64_t physical = fold(address, as);
    std::uint16_t causes = 0, mob = 0;
    Tick access = issue;
    if (!dtlb_.access(core_memory::dtlb_page(physical, t))) {
        sink->event(to_cycle(issue), EventId::PageWalkType, core_memory::kDataWalk);
        causes = kReplayDtlbMiss;
        access += to_ticks(cfg_.page_walk_cycles);
    }
    const MemorySystem::LoadResult r = mem_.load(address, physical, as, access, sink);
    Tick fill = r.fill;
    bool l1_miss = r.l1_miss, l2_miss = r.l2_miss, alias = r.alias, split = false;
    std::uint64_t second = 0;
    if (__builtin_expect(core_memory::splits(address, size), 0)) {
        // The second line is a second access (for the miss counts) and the load is replayed once.
        split = true;
        second = (address | 63) + 1;
        const MemorySystem::LoadResult r2 = mem_.load(second, fold(second, as), as, access, sink);
        l1_miss = l1_miss || r2.l1_miss;
        l2_miss = l2_miss || r2.l2_miss;
        alias = alias || r2.alias;
        fill = max_tick(fill, r2.fill);
        sink->event(to_cycle(issue), EventId::LoadPortReplay, core_memory::kSplitBit);
        causes |= kReplaySplit;
        mob = 1u << core_memory::kSplitBit;
    }
    // The L1's data conflict (64K aliasing) cancels the access until the aliasing line has gone. memory_cancel
    // counts in the timing tier only (its store-buffer conflicts depend on what is in flight).
    if constexpr (Sink::kTiming)
        if (alias) sink->event(to_cycle(access), EventId::MemoryCancel, core_memory::k64kConflict);
    if (l1_miss) causes |= kReplayL1LoadMiss;
    if (l2_miss) causes |= kReplayL2LoadMiss;
    return LoadAccess{fill, access, second, causes, mob, split};
}

template <class Sink>
__attribute__((always_inline)) inline Tick Core::load_uop(Thread& th, unsigned t, const MemOperand* m,
                                                          const UopSpec& s, Tick ready, Sink* sink,
                                                          std::uint16_t* causes, std::uint16_t* mob, Tick* spec) {
    [[maybe_unused]] const Tick latency = to_ticks(s.fp_load ? cfg_.l1_fp_latency : cfg_.l1_latency);
    if (m == nullptr) {
        // A load whose address the input does not give (a return address): assume it hits the L1.
        if constexpr (Sink::kTiming) {
            const Tick issue = issue_on(Unit::Load, ready, 1);
            *spec = issue + latency;
            return issue + latency;
        }
        return 0;
    }
    Tick issue = 0;
    if constexpr (Sink::kTiming) {
        // An older store whose address is still unknown: the MOB holds the load (NO_STA) and sends it again when
        // the address is known, as it does for store data (below), not round the scheduler's replay loop.
        if (ready < th.stores.max_sta()) {
            sink->event(to_cycle(ready), EventId::MobLoadReplay, core_memory::kNoSta);
            *causes |= kReplayMob;
            *mob |= 1u << core_memory::kNoSta;
            ready = th.stores.max_sta();
        }
        issue = issue_on(Unit::Load, ready, s.busy);
        *spec = issue + latency;
    }
    const LoadAccess a = load_access(t, *m, issue, sink);
    *causes |= a.causes;
    *mob |= a.mob;

    Tick data = 0;
    if constexpr (Sink::kTiming) {
        if (a.fill <= a.access) {
            data = a.access + latency;
        } else {
            // The line is missing or still being filled: the load goes round the replay loop until a pass finds
            // the line; after replay_passes_max passes it leaves the loop and waits for the fill. The passes that
            // find the line missing do not take the load port (the miss is known: its fill buffer is still
            // waiting), so a miss costs the access and one more slot. That lets independent misses stream from
            // the L2 at its rate of a line every other cycle (32 bytes per cycle, as measured on Northwood [XB]),
            // while a dependent load still sees the 7-cycle loop: data 16 cycles after an L2 hit's access [AT]
            // (doc/emulator-model.md, "Replay").
            const Tick loop = to_ticks(cfg_.replay_cycles);
            const Tick passes = (a.fill - a.access + loop - 1) / loop;  // the first pass at or after the fill
            const Tick found = passes <= cfg_.replay_passes_max ? a.access + passes * loop : a.fill;
            const Tick pass = load_port_.claim(found, TickRing::kCycleStart);
            data = pass + latency;
            mem_.mark_used(m->address, asid(t), pass);
            if (a.split) mem_.mark_used(a.second, asid(t), pass);
        }
        if (a.split) data += to_ticks(cfg_.split_penalty);
    }
    if (a.split) sink->event(to_cycle(data), EventId::MemoryComplete, core_memory::kLoadSplitComplete);

    if constexpr (Sink::kTiming) {
        const StoreBuffer::Check c = th.stores.check(m->address, m->size == 0 ? 1 : m->size, issue);
        switch (c.conflict) {
        case StoreBuffer::Conflict::None: break;
        case StoreBuffer::Conflict::NoStd:
            // The store's data is not there yet: the MOB holds the load until it is (NO_STD), and the scheduler
            // wakes the load's dependents for the forwarded data, so they are not replayed.
            sink->event(to_cycle(issue), EventId::MobLoadReplay, core_memory::kNoStd);
            *causes |= kReplayMob;
            *mob |= 1u << core_memory::kNoStd;
            [[fallthrough]];
        case StoreBuffer::Conflict::Forward:
            // Forwarded data takes the load's own latency plus store_forward_ticks from the store data being ready.
            data = max_tick(a.access + latency, c.wait + latency + cfg_.store_forward_ticks);
            *spec = data;
            break;
        case StoreBuffer::Conflict::PartialData:
        case StoreBuffer::Conflict::UnalignedAddr: {
            const unsigned bit = c.conflict == StoreBuffer::Conflict::PartialData ? core_memory::kPartialData
                                                                                  : core_memory::kUnalignedAddr;
            sink->event(to_cycle(issue), EventId::MobLoadReplay, bit);
            *causes |= kReplayMob;
            *mob |= 1u << bit;
            // The MOB holds the load until the store has written the cache and sends it again then, as for NO_STD
            // and NO_STA: its dependents are woken for that time, not sent round the replay loop. (A store's
            // address is known early now that it waits for its address registers only, so such a load is held
            // in the MOB rather than behind the store's address.)
            data = max_tick(data, c.wait + latency);
            *spec = data;
            break;
        }
        case StoreBuffer::Conflict::Alias64K:
            sink->event(to_cycle(issue), EventId::MemoryCancel, core_memory::k64kConflict);
            data = max_tick(data, c.wait + latency);
            *spec = data;
            break;
        }
    }
    return data;
}

template <class Sink>
__attribute__((always_inline)) inline Tick Core::store_address(unsigned t, const MemOperand& m, Tick issue, Tick done,
                                                               Sink* sink, std::uint16_t* causes, std::uint16_t* mob) {
    const std::uint64_t physical = fold(m.address, asid(t));
    if (!dtlb_.access(core_memory::dtlb_page(physical, t))) {
        sink->event(to_cycle(issue), EventId::PageWalkType, core_memory::kDataWalk);
        *causes |= kReplayDtlbMiss;
        done += to_ticks(cfg_.page_walk_cycles);
    }
    if (core_memory::splits(m.address, m.size == 0 ? 1 : m.size)) {
        done += to_ticks(cfg_.split_penalty);
        sink->event(to_cycle(issue), EventId::StorePortReplay, core_memory::kSplitBit);
        sink->event(to_cycle(done), EventId::MemoryComplete, core_memory::kStoreSplitComplete);
        *causes |= kReplaySplit;
        *mob |= 1u << core_memory::kSplitBit;
    }
    return done;
}

template <class Sink>
__attribute__((always_inline)) inline void Core::commit_store(Thread& th, unsigned t, unsigned sb_index,
                                                              const MemOperand* m, std::uint64_t sseq, Cycle retire,
                                                              Sink* sink) {
    Cycle c = 0;
    [[maybe_unused]] Tick released = 0;
    if constexpr (Sink::kTiming) {
        // Stores leave the buffer in order, store_commit_stores every store_commit_cycles: the slot is counted in
        // 1/store_commit_stores cycles, and the store writes at the cycle its slot falls in (or the next).
        const std::uint64_t per = cfg_.store_commit_stores == 0 ? 1 : cfg_.store_commit_stores;
        std::uint64_t slot = (retire + cfg_.store_commit_delay) * per;
        if (slot < th.commit_slot + cfg_.store_commit_cycles) slot = th.commit_slot + cfg_.store_commit_cycles;
        th.commit_slot = slot;
        c = (slot + per - 1) / per;
        th.last_commit = c;
        released = to_ticks(c + 1);
    }
    if (m != nullptr) {
        const std::uint64_t physical = fold(m->address, asid(t));
        released = mem_.store(m->address, physical, asid(t), to_ticks(c), sink);
        if (cfg_.detect_smc && code_regions_[(physical >> 10) & 4095] == physical >> 10) {
            // A store into code the trace cache holds: the whole trace cache is flushed and the pipeline cleared.
            tc_.flush();
            for (std::uint64_t& r : code_regions_) r = ~std::uint64_t{0};
            sink->event(c, EventId::TcMisc, core_memory::kFlush, 2);  // the SDM: each flush is counted twice
            sink->event(c, EventId::MachineClear, core_memory::kSmcClear);
            sink->interval(c, c + cfg_.smc_clear_cycles, EventId::MachineClear, core_memory::kClearCycles);
            if constexpr (Sink::kTiming) {
                set_mode(th, FrontMode::Idle, c);
                th.next_fetch = max_cycle(th.next_fetch, c + cfg_.smc_clear_cycles);
            }
            th.fetch_mode = FrontMode::Deliver;
            th.code_block = ~std::uint64_t{0};
            ++th.detail.smc_flushes;
        }
    }
    if constexpr (Sink::kTiming) {
        th.stores.set_commit(sb_index, to_ticks(c));
        th.sb_free[sseq & 63] = ceil_cycle(released);
    }
}

template <class Sink>
__attribute__((always_inline)) inline void Core::branch_events(InsnClass cls, bool taken_flag, bool mispredicted,
                                                               Cycle when, Sink* sink, std::uint64_t n) {
    const bool taken = cls != InsnClass::CondBranch || taken_flag;
    sink->event(when, EventId::BranchRetired, taken ? (mispredicted ? core_memory::kMmtm : core_memory::kMmtp) : (mispredicted ? core_memory::kMmnm : core_memory::kMmnp), n);
    for (unsigned bits = core_memory::branch_type_bits(cls, false); bits != 0; bits &= bits - 1)
        sink->event(when, EventId::RetiredBranchType, static_cast<unsigned>(__builtin_ctz(bits)), n);
    if (!mispredicted) return;
    sink->event(when, EventId::MispredBranchRetired, 0, n);
    for (unsigned bits = core_memory::branch_type_bits(cls, true); bits != 0; bits &= bits - 1)
        sink->event(when, EventId::RetiredMispredBranchType, static_cast<unsigned>(__builtin_ctz(bits)), n);
}

}  // namespace netburst::emu
