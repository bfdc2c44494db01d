// The Pmu's software interface (wrmsr, rdmsr, rdpmc), reset, and the decoding of the registers into the routes,
// counter modes and tagging configuration the feed uses. Counting is in pmu_counting.cpp, the feed in pmu_feed.cpp.
#include "emulator/pmu/pmu.h"

#include <cstring>

#include "emulator/model/coverage.h"

namespace netburst::emu {

namespace {

constexpr std::uint32_t bit32(unsigned n) { return std::uint32_t{1} << n; }

// The counter whose overflow starts counter n through n's Cascade bit (SDM 18.15.5.6): the counter in the other
// pair of the same block (0<->2, 1<->3, ... 13<->15), and for 16 and 17 only 14 and 15. Nothing cascades from 16
// or 17 with the Cascade bit.
constexpr unsigned cascade_source(unsigned n) { return n < 16 ? (n ^ 2u) : (n == 16 ? 14u : 15u); }

bool is_pmu_owned(const EventDef& e) {
    switch (e.tag_role) {
    case TagRole::FrontEndUpstream:
    case TagRole::FrontEndCounter:
    case TagRole::ExecutionCounter:
    case TagRole::ReplayCounter: return true;
    default: break;
    }
    return e.id == EventId::UopsRetired || e.id == EventId::InstrRetired || e.id == EventId::InstrCompleted;
}

}  // namespace

void Pmu::reset(const PmuConfig& config) {
    config_ = config;
    regs_.reset(config.machine.model, config.pebs_available);
    facts_.load();
    for (CounterState& c : counters_) c = CounterState{};
    sampled_.reset();
    std::memset(cap_, 0, sizeof cap_);
    core_routes_.clear();
    own_routes_.clear();
    tags_.num_exec = 0;
    counting_ = per_cycle_ = 0;
    activity_.reset(config.machine.hyper_threading);
    pmi_.reset(config.machine.pmi_skid_cycles);
    pebs_records_.clear();
    closed_ = 0;
    reprogram_pending_ = false;
    feeding_ = nullptr;
    reprogram(0);
}

void Pmu::set_guest_memory(const GuestMemory& memory) { memory_ = memory; }

MsrResult Pmu::write_msr(unsigned thread, std::uint32_t msr, std::uint64_t value, Cycle now) {
    close_until(now);
    MsrRef ref;
    if (!regs_.check_write(msr, value, &ref)) return MsrResult::GeneralProtection;
    switch (ref.kind) {
    case MsrKind::Counter: {
        CounterState& c = counters_[ref.index];
        c.value = value;
        sampled_.written(ref.index, value);
        sampled_.accessed();
        // Software wrote the value: from now on it means only what the current selection counts.
        c.tainted = c.unsupported;
        // A PEBS counter reloaded by software starts a new sampling period.
        c.pebs_armed = false;
        refresh_slow(c);
        break;
    }
    case MsrKind::Cccr: {
        const bool had_ovf = regs_.ovf(ref.index);
        regs_.store(ref, thread, value);
        if (had_ovf && !regs_.ovf(ref.index)) {
            // Clearing OVF acknowledges the overflow: no PMI or PEBS record is owed for it any more.
            counters_[ref.index].pmi_pending = false;
            counters_[ref.index].pebs_armed = false;
        }
        reprogram(now);
        break;
    }
    case MsrKind::Escr:
    case MsrKind::PebsEnable:
    case MsrKind::PebsMatrixVert:
        regs_.store(ref, thread, value);
        reprogram(now);
        break;
    default:
        regs_.store(ref, thread, value);
        break;
    }
    update_needs_timing();
    return MsrResult::Ok;
}

MsrResult Pmu::read_msr(unsigned thread, std::uint32_t msr, std::uint64_t* value, Cycle now) {
    close_until(now);
    MsrRef ref;
    if (!regs_.lookup(msr, &ref)) return MsrResult::GeneralProtection;
    if (ref.kind == MsrKind::Counter) sampled_.accessed();
    *value = ref.kind == MsrKind::Counter ? software_value(ref.index) : regs_.load(ref, thread);
    return MsrResult::Ok;
}

MsrResult Pmu::read_pmc(unsigned, std::uint32_t ecx, std::uint64_t* value, Cycle now) {
    close_until(now);
    const unsigned index = ecx & 0x1Fu;
    if (index >= kNumCounters) return MsrResult::GeneralProtection;
    sampled_.accessed();
    const std::uint64_t v = software_value(index);
    *value = (ecx >> 31) & 1u ? (v & 0xFFFFFFFFu) : v;
    return MsrResult::Ok;
}

bool Pmu::counter_unsupported(unsigned n) const {
    return n < kNumCounters && (counters_[n].unsupported || counters_[n].tainted);
}

void Pmu::set_thread_active(unsigned thread, bool active, Cycle cycle) {
    activity_.set(thread, active, cycle, closed_);
    if (!active) pmi_.flush(thread);
}

unsigned Pmu::take_pmis(PmiRecord* out, unsigned capacity) { return pmi_.take(out, capacity); }
unsigned Pmu::take_pebs_records(PebsRecord* out, unsigned capacity) { return pebs_records_.take(out, capacity); }
std::uint64_t Pmu::lost_records() const { return pmi_.lost() + pebs_records_.lost(); }

void Pmu::request_reprogram(Cycle cycle) {
    if (!reprogram_pending_ || cycle < reprogram_cycle_) reprogram_cycle_ = cycle;
    reprogram_pending_ = true;
}

void Pmu::run_pending_reprogram() {
    if (reprogram_pending_) reprogram(reprogram_cycle_);
}

// Decodes every CCCR and the ESCR it selects into counter modes, routes and the tagging configuration. Runs after
// each write that can change them (rare next to outcomes), and when a cascade starts a counter.
void Pmu::reprogram(Cycle now) {
    reprogram_pending_ = false;
    core_routes_.clear();
    own_routes_.clear();
    std::memset(escr_in_use_, 0, sizeof escr_in_use_);
    counting_ = 0;
    for (std::uint32_t& w : cascade_waiting_on_) w = 0;

    for (unsigned n = 0; n < kNumCounters; ++n) {
        CounterState& c = counters_[n];
        const CccrFields f = decode_cccr(regs_.cccr(n));
        // A counter with Cascade set and Enable clear starts counting when its alternate overflows, and stops
        // when software clears the alternate's OVF flag or its own Cascade bit (SDM 18.15.5.6).
        const unsigned source = cascade_source(n);
        if (!f.enable && f.cascade) cascade_waiting_on_[source] |= bit32(n);
        const bool counts = f.enable || (f.cascade && regs_.ovf(source));
        const bool per_cycle = f.compare || f.active_thread != ActiveThread::Any;
        // Before the new settings apply: a per-cycle counter that stops evaluates what it holds the old way.
        enter_mode(n, !counts ? Mode::Off : per_cycle ? Mode::PerCycle : Mode::Plain, now);

        c.force_ovf = f.force_ovf;
        c.pmi_t0 = f.ovf_pmi_t0;
        c.pmi_t1 = f.ovf_pmi_t1 && config_.machine.hyper_threading;
        // Complement, threshold and edge act only with Compare (SDM 18.15.4).
        c.compare = f.compare;
        c.complement = f.complement;
        c.threshold = f.threshold;
        c.edge = f.edge;
        c.active_thread = f.active_thread;
        c.unsupported = false;
        c.timing = false;
        c.pebs = false;
        if (counts) {
            counting_ |= bit32(n);
            route_counter(n, f.escr_select);
        }
        if (!c.pebs) c.pebs_armed = false;
        refresh_slow(c);
    }

    build_tag_config(regs_, escr_in_use_, config_.machine.model, facts_, &tags_);
    want_fe_ = (tags_.fe_loads | tags_.fe_stores) != 0 &&
               (own_routes_.any(EventId::FrontEndEvent) || own_routes_.any(EventId::InstrRetired));
    want_exec_ = tags_.num_exec != 0 && own_routes_.any(EventId::ExecutionEvent);
    want_replay_ = tags_.replay && own_routes_.any(EventId::ReplayEvent);
    want_tags_ = want_fe_ || want_exec_ || want_replay_;
    routed_events_ = 0;
    for (unsigned e = 0; e < kNumEvents; ++e)
        if (core_routes_.any(static_cast<EventId>(e))) routed_events_ |= std::uint64_t{1} << e;
    want_uops_ = own_routes_.any(EventId::UopsRetired) || own_routes_.any(EventId::InstrRetired) ||
                 own_routes_.any(EventId::InstrCompleted);
    build_retire_routes();
    watch_pmis_ = false;
    for (unsigned n = 0; n < kNumCounters; ++n) {
        const CounterState& c = counters_[n];
        if (((counting_ >> n) & 1u) && (c.pmi_t0 || c.pmi_t1 || c.pebs)) watch_pmis_ = true;
    }
    update_needs_timing();
}

// Counter n counts: decodes the ESCR its CCCR selects and routes that ESCR's event to it.
void Pmu::route_counter(unsigned n, unsigned escr_select) {
    CounterState& c = counters_[n];
    const unsigned model = config_.machine.model;
    const EscrId escr = escr_for_cccr_select(n, escr_select, model);
    if (escr == EscrId::None) return;
    escr_in_use_[escr_index(escr)] = true;
    const EscrFields e = decode_escr(regs_.escr(escr_index(escr)));
    const EventDef* ev = event_for_escr(escr, e.event_select);
    if (!ev || !event_on_model(*ev, model)) return;
    const std::uint16_t mask = effective_mask(*ev, e.event_mask, model);
    for (unsigned b = 0; b < 16; ++b) {
        if (!((mask >> b) & 1u)) continue;
        if (coverage(ev->id, b) == Coverage::NotModelled) c.unsupported = true;
        if (timing_dependent(ev->id, b)) c.timing = true;
    }
    if (c.unsupported) c.tainted = true;
    // uop_type only tags (its Table 19-29 note: it never increments a counter).
    if (mask == 0 || ev->tag_role == TagRole::FrontEndUpstream) return;
    const Route route{accept_matrix(mask, make_qualifier(*ev, e)), static_cast<std::uint8_t>(n)};
    (is_pmu_owned(*ev) ? own_routes_ : core_routes_).add(ev->id, route);

    // PEBS: IQ_COUNTER4 for logical processor 0, IQ_COUNTER5 for logical processor 1 (Hyper-Threading only),
    // counting one of the at-retirement events that "can support PEBS".
    if ((n == 16 || (n == 17 && config_.machine.hyper_threading)) && ev->pebs && c.mode == Mode::Plain &&
        regs_.pebs_enabled(n - 16)) {
        c.pebs = true;
        c.pebs_thread = static_cast<std::uint8_t>(n - 16);
    }
}

// The untagged retirement path's view of the uops_retired, instr_retired and instr_completed routes.
void Pmu::build_retire_routes() {
    num_retire_routes_ = 0;
    struct Source {
        EventId event;
        std::uint8_t bits[4];  // the mask bit that selects each count kind, or 0xFF when none does
    };
    const Source sources[] = {
        {EventId::UopsRetired, {facts_.uops_nbogus, facts_.uops_bogus, 0xFF, 0xFF}},
        {EventId::InstrRetired, {0xFF, 0xFF, facts_.instr_retired_bit[0], facts_.instr_retired_bit[2]}},
        {EventId::InstrCompleted, {0xFF, 0xFF, facts_.completed_nbogus, facts_.completed_bogus}},
    };
    for (const Source& s : sources) {
        const RouteList& list = own_routes_[s.event];
        for (unsigned i = 0; i < list.count; ++i) {
            RetireRoute& r = retire_routes_[num_retire_routes_++];
            r.counter = list.routes[i].counter;
            for (unsigned q = 0; q < 4; ++q) {
                r.bytes[q] = 0;
                for (unsigned kind = 0; kind < 4; ++kind)
                    if (s.bits[kind] != 0xFF && list.routes[i].takes(s.bits[kind], q)) r.bytes[q] |= 0xFFu << (8 * kind);
            }
        }
    }
}

// Switches counter n between bulk counting and per-cycle evaluation. A per-cycle counter's window opens at its
// enable (never before the cycles already closed) and, when it stops, the occurrences it was already given are
// evaluated (see flush_per_cycle).
void Pmu::enter_mode(unsigned n, Mode mode, Cycle now) {
    CounterState& c = counters_[n];
    if (c.mode == mode) return;
    if (c.mode == Mode::PerCycle) {
        flush_per_cycle(n, now);
        per_cycle_ &= ~bit32(n);
    }
    if (mode == Mode::PerCycle) {
        buckets_[n].start(now > closed_ ? now : closed_);
        c.edge_prev = false;
        per_cycle_ |= bit32(n);
    }
    c.mode = mode;
    refresh_slow(c);
}

}  // namespace netburst::emu
