// The front end: trace-cache delivery and build mode, the microcode ROM, and the TC_deliver_mode timeline.
//
// Deliver mode: a trace-cache hit delivers up to deliver_width uops per cycle (6 per 2 clocks).
// Build mode: on a miss the front end fetches the code through the ITLB and the L2 and decodes one x86
// instruction per cycle (thesis 4.1); the first fetch after a miss pays the detection delay and the L2 (or
// memory) latency, later sequential 64-byte blocks are assumed prefetched, a jump to another block waits for it.
// The microcode ROM: the trace cache holds a pointer; the ROM then sequences the flow, and the logical processor
// counts as neither delivering nor building for TC_deliver_mode while it does.
#include "emulator/core/core.h"

namespace netburst::emu {

namespace {
constexpr unsigned kFromBuild = 0, kFromDeliver = 1, kFromRom = 2;  // uop_queue_writes
constexpr unsigned kItlbHit = 0, kItlbMiss = 1;
constexpr unsigned kWalkInstruction = 1;                             // page_walk_type ITMISS

}  // namespace

template <class Sink>
Cycle Core::build(Thread& th, unsigned t, const Instruction& insn, Cycle earliest, Sink* sink) {
    const bool building = th.fetch_mode == FrontMode::Build;
    Cycle decode = 0;
    if constexpr (Sink::kTiming)
        decode = building ? max_cycle(earliest, th.last_decode + 1) : earliest + cfg_.tc_miss_cycles;
    const std::uint64_t block = insn.pc >> 6;
    if (block != th.code_block) {
        const bool sequential = building && block == th.code_block + 1;
        sink->event(decode, EventId::BpuFetchRequest, 0);
        const bool itlb_hit = itlb_[t].access(insn.pc);
        sink->event(decode, EventId::ItlbReference, itlb_hit ? kItlbHit : kItlbMiss);
        Cycle ready = decode;
        if (!itlb_hit) {
            sink->event(decode, EventId::PageWalkType, kWalkInstruction);
            ready += cfg_.page_walk_cycles;
        }
        const std::uint64_t physical = fold(insn.pc, asid(t));
        const Tick bytes = mem_.code_read(physical, to_ticks(ready), sink);
        if (Sink::kTiming && (!sequential || !itlb_hit)) ready = max_cycle(ready, ceil_cycle(bytes));
        th.code_block = block;
        decode = ready;
        if (cfg_.detect_smc) code_regions_[(physical >> 10) & 4095] = physical >> 10;
    }
    return decode;
}

// The two tiers.
template Cycle Core::build(Thread&, unsigned, const Instruction&, Cycle, EventSink*);
template Cycle Core::build(Thread&, unsigned, const Instruction&, Cycle, FunctionalSink*);

void Core::fetch(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, EventSink* sink,
                 Delivery* d) {
    const bool shared = smt_shared();
    const TraceCache::Access a = tc_.access(t, tag_pc(insn.pc, t), plan.tc_slots);
    Cycle earliest = th.next_fetch;
    FrontMode mode;
    if (a.hit) {
        ++th.detail.tc_hits;
        if (th.fetch_mode == FrontMode::Build) earliest = max_cycle(earliest, th.last_decode + cfg_.build_exit_cycles);
        mode = FrontMode::Deliver;
        // An immediate wider than a slot holds takes a second slot of the line, and of the three delivered a
        // cycle (CoreConfig::tc_imm_bits). Only delivery's bandwidth: a line's capacity is not changed.
        if (takes_second_slot(insn, plan)) earliest = fetch_bw_.take(t, earliest, smt_shared());
    } else {
        ++th.detail.tc_misses;
        earliest = build(th, t, insn, earliest, sink);
        mode = FrontMode::Build;
    }
    th.fetch_mode = mode;

    unsigned records = record_count(plan, cfg_.rom_record_cap);
    if (records > Delivery::kMax) records = Delivery::kMax;
    const std::uint64_t bulk = plan.total_uops - records;
    d->count = records;
    if (!plan.from_rom) {
        const unsigned bit = mode == FrontMode::Build ? kFromBuild : kFromDeliver;
        const Cycle first = fetch_bw_.take(t, earliest, shared);
        d->cycle[0] = first;
        Cycle last = first;
        unsigned same = 1;
        for (unsigned i = 1; i < records; ++i) {
            const Cycle c = fetch_bw_.take(t, earliest, shared);
            d->cycle[i] = c;
            if (c != last) {
                queue_writes(th, last, bit, same, sink);
                same = 0;
            }
            ++same;
            last = c;
        }
        queue_writes(th, last, bit, same, sink);
        set_mode(th, mode, first);
        d->first = first;
        d->last = last;
    } else {
        // The pointer into the ROM comes from the trace cache (or the decoder), then the ROM delivers.
        const Cycle pointer = fetch_bw_.take(t, earliest, shared);
        set_mode(th, mode, pointer);
        sink->event(pointer, EventId::TcMsXfer, 0, 2);  // counted twice per transfer (table note)
        const Cycle rom_start = pointer + cfg_.rom_switch_cycles;
        set_mode(th, FrontMode::Idle, rom_start);
        Cycle last = rom_start;
        for (unsigned i = 0; i < records; ++i) {
            if (i + 1 == records && bulk != 0) {
                // The flow's summarised uops come before its last record.
                const Cycle bulk_first = fetch_bw_.take(t, last, shared);
                const Cycle bulk_last = fetch_bw_.take_bulk(t, bulk_first, bulk - 1, shared);
                // The run's uops spread over its cycles as (at most) two intervals with an exact total:
                // q per cycle everywhere, one more in the first r cycles. Bounded, whatever the flow's length.
                const std::uint64_t span = bulk_last - bulk_first + 1;
                const std::uint64_t q = bulk / span, r = bulk % span;
                if (q != 0) sink->interval(bulk_first, bulk_last + 1, EventId::UopQueueWrites, kFromRom,
                                           static_cast<unsigned>(q > 15 ? 15 : q));
                if (r != 0) sink->interval(bulk_first, bulk_first + r, EventId::UopQueueWrites, kFromRom, 1);
                last = bulk_last;
            }
            last = fetch_bw_.take(t, rom_start > last ? rom_start : last, shared);
            d->cycle[i] = last;
            queue_writes(th, last, kFromRom, 1, sink);
        }
        d->first = pointer;
        d->last = last;
        th.next_fetch = max_cycle(th.next_fetch, last + cfg_.rom_switch_cycles);
    }
    if (mode == FrontMode::Build) th.last_decode = d->last;
    th.next_fetch = max_cycle(th.next_fetch, d->last);
    if (plan.pause) {
        set_mode(th, FrontMode::Idle, d->last + 1);
        th.next_fetch = max_cycle(th.next_fetch, d->last + 1 + cfg_.pause_cycles);
    }
}

void Core::new_queue_cycle(Thread& th, Cycle cycle, unsigned bit, unsigned count, EventSink* sink) {
    flush_queue_writes(th, sink);
    th.queue_cycle = cycle;
    th.queue_bit = bit;
    th.queue_cpl = th.cpl;
    th.queue_count += count;
}

void Core::flush_queue_writes(Thread& th, EventSink* sink) {
    if (th.queue_count == 0) return;
    sink->event(th.queue_cycle, EventId::UopQueueWrites, th.queue_bit, th.queue_count);
    th.queue_count = 0;
}

void Core::set_mode(Thread& th, FrontMode mode, Cycle when) {
    ModeLog& log = th.modes;
    if (mode == log.current) return;
    if (when < modes_emitted_) when = modes_emitted_;
    if (log.tail != log.head) {
        const unsigned last = (log.tail - 1) % ModeLog::kMax;
        if (log.when[last] >= when) {
            // Same cycle (or clamped behind): the later mode wins.
            log.mode[last] = mode;
            log.current = mode;
            return;
        }
        if (log.tail - log.head == ModeLog::kMax) {
            // Full (the other logical processor has not moved for a long time): merge into the last entry.
            log.mode[last] = mode;
            log.current = mode;
            return;
        }
    }
    log.when[log.tail % ModeLog::kMax] = when;
    log.mode[log.tail % ModeLog::kMax] = mode;
    ++log.tail;
    log.current = mode;
}

void Core::emit_modes(Cycle until, EventSink* sink) {
    // TC_deliver_mode bit for (logical processor 0 mode, logical processor 1 mode); -1 for both idle.
    static constexpr int kPair[3][3] = {
        /* LP0 deliver */ {0, 1, 2},
        /* LP0 build   */ {3, 4, 5},
        /* LP0 idle    */ {6, 7, -1},
    };
    Cycle cur = modes_emitted_;
    while (cur < until) {
        Cycle next = until;
        for (Thread& th : threads_) {
            ModeLog& log = th.modes;
            while (log.head != log.tail && log.when[log.head % ModeLog::kMax] <= cur) {
                log.at_emitted = log.mode[log.head % ModeLog::kMax];
                ++log.head;
            }
            if (log.head != log.tail && log.when[log.head % ModeLog::kMax] < next)
                next = log.when[log.head % ModeLog::kMax];
        }
        const int bit = kPair[static_cast<unsigned>(threads_[0].modes.at_emitted)]
                             [static_cast<unsigned>(threads_[1].modes.at_emitted)];
        if (bit >= 0) sink->interval(cur, next, EventId::TcDeliverMode, static_cast<unsigned>(bit));
        cur = next;
    }
    modes_emitted_ = until;
}

}  // namespace netburst::emu
