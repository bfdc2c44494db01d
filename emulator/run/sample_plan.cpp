#include "emulator/run/sample_plan.h"

#include <algorithm>

#include "alloc/allocator.h"
#include "encode/program.h"
#include "events/suggest.h"
#include "table/metrics.h"
#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst::emu::run {

namespace {

Error bad(std::string message) { return make_error(ErrorCode::BadInput, std::move(message)); }

constexpr unsigned kPebsCounter = kPebsCounterThread0;  // record samples on logical processor 0

// What each at-retirement metric says about the memory access it counts, for perf's data source.
DataSource data_source_of(const EventRequest& r) {
    DataSource d;
    if (!r.metric) return d;
    d.none = false;
    switch (r.metric->id) {
    case MetricId::L1LoadMissRetired: d.load = true; d.level = DataSource::Level::L1Miss; break;
    case MetricId::L2LoadMissRetired: d.load = true; d.level = DataSource::Level::L2Miss; break;
    case MetricId::DtlbLoadMissRetired: d.load = true; d.tlb_miss = true; break;
    case MetricId::DtlbStoreMissRetired: d.store = true; d.tlb_miss = true; break;
    case MetricId::DtlbAllMissRetired: d.load = d.store = true; d.tlb_miss = true; break;
    case MetricId::MemoryLoads:
    case MetricId::MobLoadReplayRetired:
    case MetricId::SplitLoadRetired: d.load = true; break;
    case MetricId::MemoryStores:
    case MetricId::SplitStoreRetired: d.store = true; break;
    case MetricId::X87SimdMemoryMovesRetired: d.load = d.store = true; break;
    default: d.none = true; break;  // FP, SIMD and branch metrics: no memory access
    }
    return d;
}

bool drives_pebs(const EventRequest& r) {
    const EventDef& counting = r.metric ? event_def(r.metric->counting_event) : *r.event;
    return counting.pebs;
}

template <typename S>  // Schedule or const Schedule
auto count_unit(S& s) -> decltype(&s.requests[0].units[0]) {
    for (auto& u : s.requests[0].units)
        if (u.role == UnitRole::Count) return &u;
    return nullptr;
}

// Moves the request's counting unit onto IQ_COUNTER4. Counters on one side of a block are fed by the same ESCRs,
// so when the unit's ESCR reaches counter 16 its counter and 16 swap (with whatever unit held 16, if that unit's
// ESCR reaches the other counter too); otherwise the allocator runs again without that ESCR.
Result<Schedule> place_on_pebs_counter(const EventRequest& request, AllocContext ctx) {
    for (int attempt = 0; attempt < 4; ++attempt) {
        auto scheduled = schedule_events({request}, ctx);
        if (!scheduled) return scheduled.error();
        Schedule s = *scheduled;
        PlacedUnit* unit = count_unit(s);
        if (!unit || unit->counter < 0) return bad("the event has no counting unit");
        if (unit->counter == static_cast<int>(kPebsCounter)) return s;
        const unsigned old = static_cast<unsigned>(unit->counter);
        if (kEscrs[escr_index(unit->escr)].counters & counter_bit(kPebsCounter)) {
            PlacedUnit* holder = nullptr;
            for (PlacedUnit& u : s.requests[0].units)
                if (u.counter == static_cast<int>(kPebsCounter)) holder = &u;
            if (!holder || (kEscrs[escr_index(holder->escr)].counters & counter_bit(old))) {
                if (holder) holder->counter = static_cast<int>(old);
                unit->counter = static_cast<int>(kPebsCounter);
                s.requests[0].result_counter = static_cast<int>(kPebsCounter);
                s.counters = (s.counters & ~counter_bit(old)) | counter_bit(kPebsCounter);
                if (holder) s.counters |= counter_bit(old);
                return s;
            }
        }
        ctx.unavailable_escrs |= escr_bit(unit->escr);
        ctx.unavailable_reason = "PEBS samples on IQ_COUNTER4, which this ESCR does not feed";
    }
    return make_error(ErrorCode::Conflict, "the allocator cannot put this event's count on IQ_COUNTER4, the counter "
                                           "that drives PEBS for logical processor 0");
}

// The schedule's start writes, armed for sampling on `counter`.
std::vector<MsrWrite> sampling_writes(const Schedule& s, unsigned counter, const SampleOptions& o, bool pebs) {
    std::vector<MsrWrite> writes = start_writes(s);
    bool have_pebs_enable = false;
    for (MsrWrite& w : writes) {
        if (w.msr == kCounters[counter].counter_msr) w.value = vg::sample_start_value(o.period, pebs);
        if (w.msr == kCounters[counter].cccr_msr && !pebs) {
            CccrFields cccr = decode_cccr(w.value);
            cccr.ovf_pmi_t0 = true;  // the overflow interrupts logical processor 0
            w.value = encode_cccr(cccr);
        }
        if (w.msr == kMsrPebsEnable && pebs) {
            w.value |= std::uint64_t{1} << kPebsEnableMyThreadBit;
            have_pebs_enable = true;
        }
    }
    if (pebs) {
        // The DS save area first, as a driver sets it up before it enables anything.
        std::vector<MsrWrite> head = {{kMsrDsArea, vg::kSampleDsArea}};
        if (!have_pebs_enable) head.push_back({kMsrPebsEnable, std::uint64_t{1} << kPebsEnableMyThreadBit});
        writes.insert(writes.begin(), head.begin(), head.end());
    }
    return writes;
}

void add_writes(vg::EventProgram* p, const std::vector<MsrWrite>& writes, unsigned pmu) {
    for (const MsrWrite& w : writes)
        p->writes[0][p->num_writes[0]++] = vg::ProgramWrite{w.msr, w.value, static_cast<std::uint8_t>(pmu)};
}

}  // namespace

std::vector<std::string> pebs_capable_names() {
    std::vector<std::string> names;
    for (const MetricDef& m : kMetrics)
        if (event_def(m.counting_event).pebs) names.emplace_back(m.name);
    return names;
}

Result<PreciseSplit> split_precise(const std::string& text) {
    PreciseSplit out;
    std::string kept;
    std::size_t start = 0;
    bool first = true;
    while (start <= text.size()) {
        std::size_t colon = text.find(':', start);
        if (colon == std::string::npos) colon = text.size();
        const std::string part = text.substr(start, colon - start);
        // "netburst::event": the PMU prefix's empty part is not a modifier.
        const bool modifier = !first && !(kept.size() >= 1 && kept.back() == ':');
        if (modifier && part.rfind("precise=", 0) == 0) {
            const std::string n = part.substr(8);
            if (n.size() != 1 || n[0] < '0' || n[0] > '3') return bad(":" + part + ": the precise level is 0 to 3");
            out.level = static_cast<unsigned>(n[0] - '0');
        } else if (modifier && (part == "p" || part == "pp" || part == "ppp")) {
            out.level = static_cast<unsigned>(part.size());
        } else {
            if (!first) kept += ':';
            kept += part;
        }
        first = false;
        start = colon + 1;
    }
    out.event = kept;
    return out;
}

Result<SamplePlan> plan_sampling(const std::string& text, const SampleOptions& o) {
    auto split = split_precise(text);
    if (!split) return split.error();
    const bool pebs = split->level > 0;
    if (o.period < vg::min_sample_period(pebs) || o.period > vg::kMaxSamplePeriod)
        return bad("the period (-c) must be between " + std::to_string(vg::min_sample_period(pebs)) + " and 2^39" +
                   (pebs ? " for PEBS (the counter overflows one event before the sampled one)" : ""));

    // Parsed, expanded and placed as a counting run would be: the plain count is the exact-count PMU's program.
    PlanOptions po;
    po.model = o.model;
    po.fp = o.fp;
    po.default_privilege = Privilege{true, false};  // user mode, as perf samples for an unprivileged user
    auto counting = plan_events({split->event}, po);
    if (!counting) return counting.error();
    const UserEvent& user = counting->events.at(0);
    if (user.terms.size() != 1)
        return bad(split->event + " is derived from " + std::to_string(user.terms.size()) + " events (" +
                   join_all(user.natives) + "): sample one of them");
    const EventRequest request = counting->requests.at(user.terms[0]);
    if (pebs && !drives_pebs(request))
        return bad(user.natives[0] + " cannot drive PEBS: only the at-retirement events (front_end_event, "
                   "execution_event, replay_event) can, that is the metrics " + join_all(pebs_capable_names()) +
                   " (or sample " + split->event + " without :precise, by its overflow interrupt)");
    if (pebs && request.compare())
        return bad(user.natives[0] + ": a PEBS counter counts each event (no :cmpl, :e or :thr)");

    AllocContext ctx;
    ctx.model = o.model;
    ctx.default_privilege = po.default_privilege;
    Result<Schedule> sampling = pebs ? place_on_pebs_counter(request, ctx) : schedule_events({request}, ctx);
    if (!sampling) return sampling.error();

    SamplePlan plan;
    plan.counter = static_cast<unsigned>(sampling->requests[0].result_counter);
    vg::EventProgram& p = plan.program;
    p.num_pmus = 2;
    add_writes(&p, sampling_writes(*sampling, plan.counter, o, pebs), 0);
    const Schedule& exact = counting->schedules.at(0);
    add_writes(&p, start_writes(exact), 1);
    vg::ProgramEvent e;
    e.index = 0;
    e.lp = 0;
    e.counter = static_cast<std::uint8_t>(exact.requests[0].result_counter);
    e.pmu = 1;
    for (const PlacedUnit& u : exact.requests[0].units)
        if (u.counter >= 0) e.check_mask |= counter_bit(static_cast<unsigned>(u.counter));
    p.events[p.num_events++] = e;
    p.sample.enabled = true;
    p.sample.pebs = pebs;
    p.sample.counter = static_cast<std::uint8_t>(plan.counter);
    p.sample.period = o.period;
    p.sample.exact_pmu = 1;
    p.sample.exact_counter = e.counter;

    SampledEvent& ev = plan.event;
    ev.name = text;
    ev.native = user.natives[0];
    ev.period = o.period;
    ev.precise = pebs;
    ev.precise_level = split->level;
    const Privilege privilege = request.privilege_explicit ? request.privilege : po.default_privilege;
    ev.user_only = privilege.user && !privilege.kernel;
    ev.kernel_only = privilege.kernel && !privilege.user;
    ev.model = o.model;
    ev.data_source = data_source_of(request);
    // perf's raw config for the event, as Linux's P4 driver packs it: the ESCR above, the CCCR (as armed) below.
    for (unsigned i = 0; i < p.num_writes[0]; ++i) {
        const vg::ProgramWrite& w = p.writes[0][i];
        if (w.pmu == 0 && w.msr == kCounters[plan.counter].cccr_msr) ev.raw_config |= w.value & 0xFFFFFFFFu;
    }
    if (const PlacedUnit* u = count_unit(*sampling)) ev.raw_config |= u->escr_value << 32;
    return plan;
}

}  // namespace netburst::emu::run
