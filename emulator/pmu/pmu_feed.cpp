// The core model's feed: routes every occurrence of an Outcome to the counters whose ESCR detects it, and derives
// from the retiring uops the events the PMU counts itself (uops_retired, instr_retired, instr_completed and the
// three tagged events). This is the emulator's hot path: register decoding happened when software wrote the
// registers (Pmu::reprogram), so here an occurrence costs a table lookup and a bit test per counting counter.
#include "emulator/pmu/pmu.h"

#include <cstring>

namespace netburst::emu {

// The 4-bit bus caps what one cycle delivers to a counter at 15, however many records the occurrences arrive in.
// Returns how many of `count` occurrences in `cycle` still fit.
inline unsigned Pmu::bus_room(unsigned n, Cycle cycle, unsigned count) {
    CapSlot& slot = cap_[cycle & (kCapSlots - 1)];
    if (slot.cycle != cycle) {
        slot.cycle = cycle;
        std::memset(slot.sum, 0, sizeof slot.sum);
    }
    const unsigned room = CycleBuckets::kMaxPerCycle - slot.sum[n];
    const unsigned add = count < room ? count : room;
    slot.sum[n] = static_cast<std::uint8_t>(slot.sum[n] + add);
    return add;
}

// A plain counter adds at once; everything else (per-cycle evaluation, overflow handling) takes the slow path.
inline void Pmu::deliver_point(unsigned n, Cycle cycle, unsigned count) {
    CounterState& c = counters_[n];
    if (c.fast) {
        const unsigned add = bus_room(n, cycle, count);
        if (c.value + add <= kCounterValueMask) {
            c.value += add;
            return;
        }
        count_slow(n, cycle, 1, add);
        return;
    }
    deliver_point_slow(n, cycle, count);
}

void Pmu::deliver_point_slow(unsigned n, Cycle cycle, unsigned count) {
    if (counters_[n].mode == Mode::PerCycle) {
        buckets_[n].add_point(cycle, count);
        return;
    }
    const unsigned add = bus_room(n, cycle, count);
    if (add != 0) count_slow(n, cycle, 1, add);
}

inline void Pmu::deliver_interval(unsigned n, Cycle begin, Cycle end, unsigned per_cycle) {
    if (per_cycle > CycleBuckets::kMaxPerCycle) per_cycle = CycleBuckets::kMaxPerCycle;
    CounterState& c = counters_[n];
    const std::uint64_t total = (end - begin) * per_cycle;
    if (c.fast && c.value + total <= kCounterValueMask) {
        c.value += total;
        return;
    }
    if (c.mode == Mode::PerCycle) {
        buckets_[n].add_interval(begin, end, per_cycle);
        return;
    }
    count_slow(n, begin, end - begin, per_cycle);
}

// `count` occurrences of (event, bit) for an event the PMU derives from uops.
inline void Pmu::deliver_own(EventId event, unsigned bit, Cycle cycle, unsigned q, unsigned count) {
    const RouteList& list = own_routes_[event];
    for (unsigned i = 0; i < list.count; ++i)
        if (list.routes[i].takes(bit, q)) deliver_point(list.routes[i].counter, cycle, count);
}

// One occurrence that sets several mask bits (execution_event: the uop's tag bits). SDM 18.15.6.3: "If any one of
// the tag bits selected by the mask is set, the related counter is incremented by one."
inline void Pmu::deliver_own_any(EventId event, std::uint16_t bits, Cycle cycle, unsigned q) {
    const RouteList& list = own_routes_[event];
    for (unsigned i = 0; i < list.count; ++i) {
        for (std::uint16_t b = bits; b != 0; b = static_cast<std::uint16_t>(b & (b - 1))) {
            if (list.routes[i].takes(static_cast<unsigned>(__builtin_ctz(b)), q)) {
                deliver_point(list.routes[i].counter, cycle, 1);
                break;
            }
        }
    }
}

inline void Pmu::deliver_retirement(Cycle cycle, unsigned q, std::uint32_t counts) {
    const unsigned routes = num_retire_routes_;
    for (unsigned i = 0; i < routes; ++i) {
        const RetireRoute& r = retire_routes_[i];
        // Sum of the selected bytes (at most 2 x 96, so no byte carries into the next).
        unsigned n = ((counts & r.bytes[q]) * 0x01010101u) >> 24;
        if (n == 0) continue;
        if (n > CycleBuckets::kMaxPerCycle) n = CycleBuckets::kMaxPerCycle;
        CounterState& c = counters_[r.counter];
        if (c.fast && c.value + n <= kCounterValueMask)
            c.value += n;
        else
            deliver_point_slow(r.counter, cycle, n);
    }
}

// Retirement counts without tagging: the uops and instructions of an outcome that retire in the same cycle are
// counted together (an outcome's uops are in retirement order). NetBurst retires at most three uops per cycle, so
// only one outcome contributes to a cycle's retirement counts and the 4-bit bus cap applies to the group alone.
// With kBackEndTags, the same pass delivers the uops' execution and replay tags (see consume).
template <bool kBackEndTags>
inline void Pmu::feed_retirement(const Outcome& o, unsigned q) {
    const unsigned num_uops = o.num_uops;
    if (num_uops == 0) return;
    const bool counts_uops = !kBackEndTags || want_uops_;
    const bool exec = kBackEndTags && want_exec_;
    // Most uops met no replay cause the tag selects: that test first, the full rule (TagConfig) after it.
    const std::uint16_t replay_causes = kBackEndTags && want_replay_ ? tags_.replay_causes : 0;
    std::uint32_t counts = 0;  // bytes: non-bogus uops, bogus uops, non-bogus instructions, bogus instructions
    Cycle cycle = o.uops[0].retire;
    for (unsigned i = 0; i < num_uops; ++i) {
        const UopRecord& u = o.uops[i];
        if (counts_uops) {
            if (u.retire != cycle) {
                deliver_retirement(cycle, q, counts);
                counts = 0;
                cycle = u.retire;
            }
            const unsigned shift = u.bogus ? 8u : 0u;
            counts += (1u << shift) + (static_cast<std::uint32_t>(u.last_of_instruction) << (16 + shift));
        }
        if (!kBackEndTags) continue;
        if (exec) {
            const std::uint8_t tags = tags_.execution_tags(u, q);
            if (tags)
                deliver_own_any(EventId::ExecutionEvent,
                                u.bogus ? facts_.exec_bogus_bits[tags] : facts_.exec_nbogus_bits[tags], u.retire, q);
        }
        if ((u.replay_causes & replay_causes) != 0 && tags_.replay_tag(u, q))
            deliver_own(EventId::ReplayEvent, u.bogus ? facts_.replay_bogus : facts_.replay_nbogus, u.retire, q, 1);
    }
    if (counts_uops) deliver_retirement(cycle, q, counts);
}

void Pmu::consume(const Outcome& o) {
    const unsigned thread = o.thread & 1u;
    // Remember where instructions retire only while a PMI can be raised or one waits for its return address.
    // (An outcome without uops, from stop_thread or serialize, retires no instruction.)
    if (o.num_uops != 0 && (watch_pmis_ || pmi_.waiting(thread))) pmi_.note_retired(thread, o.retire, o.pc);
    if (counting_ != 0) {
        const unsigned q = qualifier_index(thread, o.cpl);
        // Locals, because every store into a counter could alias the outcome or the route lists for the compiler.
        const std::uint64_t routed = routed_events_;  // bit per EventId with a route: most records have none
        const unsigned num_events = o.num_events;
        for (unsigned i = 0; i < num_events; ++i) {
            const EventRecord e = o.events[i];
            if (!((routed >> static_cast<unsigned>(e.event)) & 1u)) continue;
            const RouteList& list = core_routes_[e.event];
            const unsigned routes = list.count;
            for (unsigned k = 0; k < routes; ++k) {
                const Route r = list.routes[k];
                if (r.takes(e.mask_bit, q)) deliver_point(r.counter, e.cycle, e.count);
            }
        }
        const unsigned num_intervals = o.num_intervals;
        for (unsigned i = 0; i < num_intervals; ++i) {
            const IntervalRecord iv = o.intervals[i];
            if (!((routed >> static_cast<unsigned>(iv.event)) & 1u) || iv.end <= iv.begin) continue;
            const RouteList& list = core_routes_[iv.event];
            const unsigned routes = list.count;
            for (unsigned k = 0; k < routes; ++k) {
                const Route r = list.routes[k];
                if (r.takes(iv.mask_bit, q)) deliver_interval(r.counter, iv.begin, iv.end, iv.per_cycle);
            }
        }
        if (!want_tags_) {
            if (want_uops_) feed_retirement<false>(o, q);
        } else if (want_fe_ || watch_pmis_) {
            feed_tagged_uops(o, q);
        } else {
            // Without front-end tagging no instruction is tagged, so the retirement counts are the untagged ones,
            // and the execution and replay tags are taken in the same pass. (With PMIs or PEBS armed, every
            // count is delivered uop by uop in retirement order: feed_tagged_uops.)
            feed_retirement<true>(o, q);
        }
        if (reprogram_pending_) run_pending_reprogram();
    }
    advance(o.frontier);
}

// With tagging: each retiring uop is tagged (front-end, execution, replay) and counted on its own, because PEBS
// samples individual uops. An instruction carries the front-end tag when any of its uops does (instr_retired
// NBOGUSTAG/BOGUSTAG); its bogus state is that of the uop that retires it.
void Pmu::feed_tagged_uops(const Outcome& o, unsigned q) {
    feeding_ = &o;
    bool instruction_tagged = false;
    for (unsigned i = 0; i < o.num_uops; ++i) {
        const UopRecord& u = o.uops[i];
        const Cycle at = u.retire;
        feeding_kind_ = u.kind;
        deliver_own(EventId::UopsRetired, u.bogus ? facts_.uops_bogus : facts_.uops_nbogus, at, q, 1);
        if (want_fe_ && tags_.front_end_tag(u, q)) {
            instruction_tagged = true;
            deliver_own(EventId::FrontEndEvent, u.bogus ? facts_.fe_bogus : facts_.fe_nbogus, at, q, 1);
        }
        if (want_exec_) {
            const std::uint8_t tags = tags_.execution_tags(u, q);
            if (tags)
                deliver_own_any(EventId::ExecutionEvent,
                                u.bogus ? facts_.exec_bogus_bits[tags] : facts_.exec_nbogus_bits[tags], at, q);
        }
        if (want_replay_ && (u.replay_causes & tags_.replay_causes) != 0 && tags_.replay_tag(u, q))
            deliver_own(EventId::ReplayEvent, u.bogus ? facts_.replay_bogus : facts_.replay_nbogus, at, q, 1);
        if (u.last_of_instruction) {
            deliver_own(EventId::InstrRetired, facts_.instr_retired_bit[(u.bogus ? 2 : 0) + (instruction_tagged ? 1 : 0)],
                        at, q, 1);
            deliver_own(EventId::InstrCompleted, u.bogus ? facts_.completed_bogus : facts_.completed_nbogus, at, q, 1);
            instruction_tagged = false;
        }
    }
    feeding_ = nullptr;
}

}  // namespace netburst::emu
