// The core model's feed: routes every occurrence of an Outcome to the counters whose ESCR detects it, and derives
// from the retiring uops the events the PMU counts itself (uops_retired, instr_retired, instr_completed and the
// three tagged events). The hot path of the emulator: with no counter counting it only remembers where time is.
#include "emulator/pmu/pmu.h"

namespace netburst::emu {

// Plain counters add at once; the 4-bit bus caps each cycle at 15 per counter. Per-cycle counters collect.
inline void Pmu::deliver_point(unsigned n, Cycle cycle, unsigned count) {
    CounterState& c = counters_[n];
    if (c.mode == Mode::PerCycle) {
        buckets_[n].add_point(cycle, count);
        return;
    }
    std::uint64_t& slot = cap_[n][cycle & (kCapSlots - 1)];
    if ((slot >> 4) != cycle) slot = cycle << 4;
    const unsigned room = CycleBuckets::kMaxPerCycle - static_cast<unsigned>(slot & 15u);
    const unsigned add = count < room ? count : room;
    if (add == 0) return;
    slot += add;
    if (!c.slow && c.value + add <= kCounterValueMask) {
        c.value += add;
        return;
    }
    count_slow(n, cycle, 1, add);
}

inline void Pmu::deliver_interval(unsigned n, Cycle begin, Cycle end, unsigned per_cycle) {
    if (per_cycle > CycleBuckets::kMaxPerCycle) per_cycle = CycleBuckets::kMaxPerCycle;
    if (counters_[n].mode == Mode::PerCycle) {
        buckets_[n].add_interval(begin, end, per_cycle);
        return;
    }
    count_units(n, begin, end - begin, per_cycle);
}

// One occurrence of (event, bit), for the events the PMU derives from uops.
inline void Pmu::deliver_bit(EventId event, unsigned bit, Cycle cycle, unsigned q) {
    const RouteList& list = routes_[event];
    for (unsigned i = 0; i < list.count; ++i) {
        const Route& r = list.routes[i];
        if (((r.mask >> bit) & 1u) && r.qualifier.accepts(bit, q)) deliver_point(r.counter, cycle, 1);
    }
}

// One occurrence that sets several mask bits (execution_event: the uop's tag bits). SDM 18.15.6.3: "If any one of
// the tag bits selected by the mask is set, the related counter is incremented by one."
inline void Pmu::deliver_bits(EventId event, std::uint16_t bits, Cycle cycle, unsigned q) {
    const RouteList& list = routes_[event];
    for (unsigned i = 0; i < list.count; ++i) {
        const Route& r = list.routes[i];
        const std::uint16_t hit = static_cast<std::uint16_t>(r.mask & bits);
        if (hit && r.qualifier.accepts_any(hit, q)) deliver_point(r.counter, cycle, 1);
    }
}

void Pmu::consume(const Outcome& o) {
    const unsigned thread = o.thread & 1u;
    if (counting_ == 0) {
        // Nothing counts, but a PMI raised earlier may still wait for this instruction to learn where it returns.
        if (pmi_.waiting(thread)) pmi_.note_retired(thread, o.retire, o.pc);
        if (o.frontier > closed_) close_until(o.frontier);
        return;
    }
    pmi_.note_retired(thread, o.retire, o.pc);
    const unsigned q = qualifier_index(thread, o.cpl);

    for (unsigned i = 0; i < o.num_events; ++i) {
        const EventRecord& e = o.events[i];
        const RouteList& list = routes_[e.event];
        // The PMU counts its own events from uops: core records of them are ignored, so nothing counts twice.
        if (list.count == 0 || pmu_owned_[static_cast<unsigned>(e.event)]) continue;
        for (unsigned k = 0; k < list.count; ++k) {
            const Route& r = list.routes[k];
            if (((r.mask >> e.mask_bit) & 1u) && r.qualifier.accepts(e.mask_bit, q))
                deliver_point(r.counter, e.cycle, e.count);
        }
    }
    for (unsigned i = 0; i < o.num_intervals; ++i) {
        const IntervalRecord& iv = o.intervals[i];
        const RouteList& list = routes_[iv.event];
        if (list.count == 0 || pmu_owned_[static_cast<unsigned>(iv.event)] || iv.end <= iv.begin) continue;
        for (unsigned k = 0; k < list.count; ++k) {
            const Route& r = list.routes[k];
            if (((r.mask >> iv.mask_bit) & 1u) && r.qualifier.accepts(iv.mask_bit, q))
                deliver_interval(r.counter, iv.begin, iv.end, iv.per_cycle);
        }
    }
    if (uop_events_) feed_uops(o, q);

    run_pending_reprogram();
    if (o.frontier > closed_) close_until(o.frontier);
}

// Tags each retiring uop (front-end, execution, replay) and counts the retirement events. An instruction carries
// the front-end tag when any of its uops does (instr_retired NBOGUSTAG/BOGUSTAG); its bogus state is that of the
// uop that retires it.
void Pmu::feed_uops(const Outcome& o, unsigned q) {
    feeding_ = &o;
    const bool fe_tagging = (tags_.fe_loads | tags_.fe_stores) != 0;
    const bool want_fe = fe_tagging && (routes_.any(EventId::FrontEndEvent) || routes_.any(EventId::InstrRetired));
    const bool want_exec = tags_.num_exec != 0 && routes_.any(EventId::ExecutionEvent);
    const bool want_replay = tags_.replay && routes_.any(EventId::ReplayEvent);
    const bool want_uops = routes_.any(EventId::UopsRetired);
    const bool want_instr = routes_.any(EventId::InstrRetired) || routes_.any(EventId::InstrCompleted);
    bool instruction_tagged = false;
    for (unsigned i = 0; i < o.num_uops; ++i) {
        const UopRecord& u = o.uops[i];
        const Cycle at = u.retire;
        if (want_uops) deliver_bit(EventId::UopsRetired, u.bogus ? facts_.uops_bogus : facts_.uops_nbogus, at, q);
        if (want_fe && tags_.front_end_tag(u, q)) {
            instruction_tagged = true;
            deliver_bit(EventId::FrontEndEvent, u.bogus ? facts_.fe_bogus : facts_.fe_nbogus, at, q);
        }
        if (want_exec) {
            const std::uint8_t tags = tags_.execution_tags(u, q);
            if (tags)
                deliver_bits(EventId::ExecutionEvent, u.bogus ? facts_.exec_bogus_bits[tags] : facts_.exec_nbogus_bits[tags],
                             at, q);
        }
        if (want_replay && tags_.replay_tag(u, q))
            deliver_bit(EventId::ReplayEvent, u.bogus ? facts_.replay_bogus : facts_.replay_nbogus, at, q);
        if (u.last_of_instruction) {
            if (want_instr) {
                deliver_bit(EventId::InstrRetired, facts_.instr_retired_bit[(u.bogus ? 2 : 0) + (instruction_tagged ? 1 : 0)],
                            at, q);
                deliver_bit(EventId::InstrCompleted, u.bogus ? facts_.completed_bogus : facts_.completed_nbogus, at, q);
            }
            instruction_tagged = false;
        }
    }
    feeding_ = nullptr;
}

}  // namespace netburst::emu
