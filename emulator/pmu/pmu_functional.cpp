// The PMU side of the emulator's functional tier: when the programmed registers need the core's timing tier
// (needs_timing), and how the functional tier's counts reach the counters (absorb).
//
// absorb() is consume() for counts instead of records: the same routes, the same tag functions (tagging.h), once
// per (qualifier, event, mask bit) and per uop signature instead of once per record and uop. It may assume what
// !needs_timing() guarantees: every counting counter is plain (no compare, edge or thread filter), nothing waits
// for an overflow (no PMI, FORCE_OVF, PEBS or cascade), and no counter counts a timing-dependent pair. What is
// left of counting is the 40-bit wrap and the sticky OVF flag. The 4-bit bus cap (15 occurrences per cycle) is
// not applied: functional events never come close to it in one cycle (the widest, retirement and uop delivery,
// are at most 3 per cycle), so the timing tier never applies it to them either.
#include "emulator/model/coverage.h"
#include "emulator/pmu/pmu.h"

namespace netburst::emu {

void Pmu::update_needs_timing() {
    bool exact = regs_.pebs_enabled(0) || regs_.pebs_enabled(1) ||        // a PEBS record samples one uop
                 (tags_.replay && (tags_.replay_causes & kReplayMob)) ||  // MOB replays depend on what is in flight
                 pmi_.waiting(0) || pmi_.waiting(1);                      // a PMI waits for its return address
    bool need = exact;
    for (unsigned n = 0; n < kNumCounters && !exact; ++n) {
        // A Cascade bit arms a start at another counter's overflow, whether or not this counter counts yet.
        if (decode_cccr(regs_.cccr(n)).cascade) exact = true;
        if (!((counting_ >> n) & 1u)) continue;
        const CounterState& c = counters_[n];
        if (c.force_ovf || c.pmi_t0 || c.pmi_t1 || c.pmi_pending || c.pebs || c.pebs_armed) exact = true;
        if (c.mode == Mode::PerCycle || c.timing) need = true;
    }
    needs_exact_timing_ = exact;
    needs_timing_ = need || exact;
    refresh_sampled();
}

// A counter is estimated while it counts a selection that needs the timing tier on its own (a timing-dependent
// pair, or evaluation every cycle); its rates belong to the selection, the CCCR and ESCR bits that choose what it
// counts (the enable bit and OVF aside, so that stopping and starting keeps them).
void Pmu::refresh_sampled() {
    if (!config_.sampled_timing) return;
    for (unsigned n = 0; n < kNumCounters; ++n) {
        CounterState& c = counters_[n];
        const bool counting = ((counting_ >> n) & 1u) != 0;
        const bool estimated = counting ? (c.mode == Mode::PerCycle || c.timing) : sampled_.estimated(n);
        const std::uint64_t cccr = regs_.cccr(n) & ~((std::uint64_t{1} << kCccrEnableBit) |
                                                     (std::uint64_t{1} << kCccrOvfBit));
        const EscrId escr = escr_for_cccr_select(n, decode_cccr(regs_.cccr(n)).escr_select, config_.machine.model);
        const std::uint64_t escr_value = escr == EscrId::None ? 0 : regs_.escr(escr_index(escr));
        const std::uint64_t key = cccr ^ (escr_value << 20) ^ (escr_value >> 44);
        c.value = sampled_.program(n, estimated, counting, key, c.value);
    }
}

void Pmu::raw_values(std::uint64_t* out) const {
    for (unsigned n = 0; n < kNumCounters; ++n) out[n] = counters_[n].value;
}

void Pmu::sampled_timed(bool begin) {
    std::uint64_t raw[kNumCounters];
    raw_values(raw);
    sampled_.timed(begin, raw);
}

void Pmu::sampled_unit(bool begin, std::uint64_t instructions, const SampleAux& aux) {
    std::uint64_t raw[kNumCounters];
    raw_values(raw);
    if (begin) sampled_.unit_begin(raw, aux);
    else sampled_.unit_end(raw, instructions, aux);
}

// `count` increments of plain counter n: the 40-bit wrap sets OVF (sticky, as in count_slow()).
void Pmu::absorb_add(unsigned n, std::uint64_t count) {
    CounterState& c = counters_[n];
    const std::uint64_t room = kCounterValueMask - c.value;
    c.value = (c.value + count) & kCounterValueMask;
    if (count > room) on_overflow(n, closed_);
}

void Pmu::absorb_own(EventId event, unsigned bit, unsigned q, std::uint64_t count) {
    const RouteList& list = own_routes_[event];
    for (unsigned i = 0; i < list.count; ++i)
        if (list.routes[i].takes(bit, q)) absorb_add(list.routes[i].counter, count);
}

// The events the PMU derives from retiring uops (pmu_feed.cpp's feed_tagged_uops and feed_retirement), per
// signature: everything absorbed here is non-bogus.
void Pmu::absorb_retirement(const FunctionalSink& counts, unsigned q) {
    for (unsigned i = 0; i < counts.num_signatures(); ++i) {
        const std::uint64_t n = counts.uops(q, i);
        if (n == 0) continue;
        const UopSignature& s = counts.signature(i);
        UopRecord u;
        u.kind = s.kind;
        u.has_exec_event = s.has_exec_event;
        u.exec_event = s.exec_event;
        u.exec_mask_bit = s.exec_mask_bit;
        u.replay_causes = s.replay_causes;
        u.mob_mask = s.mob_mask;
        absorb_own(EventId::UopsRetired, facts_.uops_nbogus, q, n);
        if (want_fe_ && tags_.front_end_tag(u, q)) absorb_own(EventId::FrontEndEvent, facts_.fe_nbogus, q, n);
        if (want_exec_) {
            // One increment per uop when any of its tag bits is selected (deliver_own_any).
            const std::uint8_t tags = tags_.execution_tags(u, q);
            const std::uint16_t bits = tags ? facts_.exec_nbogus_bits[tags] : 0;
            const RouteList& list = own_routes_[EventId::ExecutionEvent];
            for (unsigned r = 0; r < list.count && bits; ++r)
                if (accepted_bits(list.routes[r].accept, q) & bits) absorb_add(list.routes[r].counter, n);
        }
        if (want_replay_ && tags_.replay_tag(u, q)) absorb_own(EventId::ReplayEvent, facts_.replay_nbogus, q, n);
    }
    // An instruction carries the front-end tag when one of its uops does, which depends only on the uop kinds.
    const bool tag_loads = want_fe_ && ((tags_.fe_loads >> q) & 1u);
    const bool tag_stores = want_fe_ && ((tags_.fe_stores >> q) & 1u);
    for (unsigned kinds = 0; kinds < 4; ++kinds) {
        const std::uint64_t n = counts.instructions(q, kinds);
        if (n == 0) continue;
        const bool tagged = ((kinds & 1u) && tag_loads) || ((kinds & 2u) && tag_stores);
        absorb_own(EventId::InstrRetired, facts_.instr_retired_bit[tagged ? 1 : 0], q, n);
        absorb_own(EventId::InstrCompleted, facts_.completed_nbogus, q, n);
    }
}

void Pmu::absorb(const FunctionalSink& counts) {
    if (!counts.counted() || counting_ == 0) return;
    for (std::uint64_t routed = routed_events_; routed != 0; routed &= routed - 1) {
        const EventId event = static_cast<EventId>(__builtin_ctzll(routed));
        const RouteList& list = core_routes_[event];
        for (unsigned q = 0; q < FunctionalSink::kQualifiers; ++q) {
            for (unsigned bit = 0; bit < 16; ++bit) {
                const std::uint64_t n = counts.events(q, event, bit);
                if (n == 0) continue;
                for (unsigned r = 0; r < list.count; ++r)
                    if (list.routes[r].takes(bit, q)) absorb_add(list.routes[r].counter, n);
            }
        }
    }
    if (want_uops_ || want_tags_)
        for (unsigned q = 0; q < FunctionalSink::kQualifiers; ++q) absorb_retirement(counts, q);
}

}  // namespace netburst::emu
