#include "emulator/run/sample_plan.h"

#include <algorithm>

#include "alloc/allocator.h"
#include "encode/program.h"
#include "emulator/x86/guest_cpuid.h"
#include "events/suggest.h"
#include "table/metrics.h"
#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst::emu::run {

namespace {

Error bad(std::string message) { return make_error(ErrorCode::BadInput, std::move(message)); }

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

// The counting unit of request i: its ESCR is what perf's raw config names.
const PlacedUnit* count_unit(const Schedule& s, std::size_t i) {
    for (const PlacedUnit& u : s.requests[i].units)
        if (u.role == UnitRole::Count) return &u;
    return nullptr;
}

// Start writes armed for sampling on `counter`: PEBS by the encoder's arming (the component's :precise overflow uses
// the same), IEBS by the counter's overflow interrupt to logical processor 0. Each sampled event's counter is armed
// in turn on the same writes.
std::vector<MsrWrite> armed_for_sampling(std::vector<MsrWrite> writes, unsigned counter, std::uint64_t period,
                                         bool pebs) {
    if (pebs) return pebs_start_writes(writes, counter, PebsArming{vg::kSampleDsArea, 0, period});
    for (MsrWrite& w : writes) {
        if (w.msr == kCounters[counter].counter_msr) w.value = overflow_start_value(period);
        if (w.msr == kCounters[counter].cccr_msr) w.value = cccr_with_overflow_interrupt(w.value, true, 0);
    }
    return writes;
}

// A preset that is one native event takes modifiers as its native would (PAPI_L1_DCM:precise=1): the text with
// the preset replaced by its native's canonical name.
Result<std::string> with_native_for_preset(const std::string& text, const PlanOptions& po) {
    const std::size_t colon = text.find(':');
    if (text.rfind("PAPI_", 0) != 0 || colon == std::string::npos) return text;
    auto preset = plan_events({text.substr(0, colon)}, po);
    if (!preset) return preset.error();
    const UserEvent& user = preset->events.at(0);
    if (user.natives.size() != 1)
        return bad(text.substr(0, colon) + " is derived from " + std::to_string(user.natives.size()) + " events (" +
                   join_all(user.natives) + "): sample one of them");
    return user.natives[0] + text.substr(colon);
}

// The one native event that counts every cycle the emulated processor runs: what -F can turn into a period,
// whatever privilege levels it counts in (the period is the clock's; a program that spends its time in one mode
// gets the frequency asked for there).
constexpr const char* kCycleEvent = "global_power_events:RUNNING";

bool counts_cycles(const std::string& native) {
    for (const char* privilege : {"", ":u", ":k", ":uk", ":ku"})
        if (native == std::string(kCycleEvent) + privilege) return true;
    return false;
}

// The emulated clock: the model's nominal frequency (its brand string), which --clock=emulated also runs at.
std::uint64_t clock_hz(unsigned model) { return std::uint64_t{vg::guest_cpu_mhz(model)} * 1000000; }

// How often to sample: -c as given; -F (or the default for a cycle event) as the period that gives that many samples
// a second of the emulated clock, with that frequency. The period is fixed, not adapted as Linux adapts it: a cycle
// event's rate is the clock.
struct SampleRate {
    std::uint64_t period = 0;
    std::uint64_t frequency = 0;  // 0: a period, not a frequency
};

Result<SampleRate> sample_rate(const std::string& native, const SampleOptions& o) {
    if (o.period != 0 && o.frequency != 0) return bad("give -c or -F, not both");
    if (o.period != 0) return SampleRate{o.period, 0};
    const bool cycles = counts_cycles(native);
    if (o.frequency == 0 && !cycles) return SampleRate{kDefaultPeriod, 0};
    if (!cycles)
        return bad("-F needs an event that counts cycles (PAPI_TOT_CYC, " + std::string(kCycleEvent) + "): " +
                   native + " has no rate known before the run; give a period with -c");
    const std::uint64_t hz = clock_hz(o.machine.model);
    const std::uint64_t frequency = o.frequency != 0 ? o.frequency : kDefaultFrequency;
    if (frequency > hz / 2)
        return bad("-F " + std::to_string(frequency) + " is more than half the emulated clock (" +
                   std::to_string(hz / 1000000) + " MHz)");
    return SampleRate{(hz + frequency / 2) / frequency, frequency};
}

void add_writes(vg::EventProgram* p, const std::vector<MsrWrite>& writes, unsigned pmu) {
    for (const MsrWrite& w : writes)
        p->writes[0][p->num_writes[0]++] = vg::ProgramWrite{w.msr, w.value, static_cast<std::uint8_t>(pmu)};
}

// One -e event on its own: parsed and expanded as a counting run would parse it (the parser takes the precise level,
// libpfm4's :precise=N or perf's :p, and refuses it for an event that cannot drive PEBS), its one native request,
// its period, and what the writers say about it (raw_config is filled once it is placed).
struct OneEvent {
    EventRequest request;
    SampledEvent event;
};

Result<OneEvent> plan_one(const std::string& text, const SampleOptions& o, const PlanOptions& po) {
    auto event = with_native_for_preset(text, po);
    if (!event) return event.error();
    auto counting = plan_events({*event}, po);
    if (!counting) return counting.error();
    const UserEvent& user = counting->events.at(0);
    if (user.terms.size() != 1)
        return bad(*event + " is derived from " + std::to_string(user.terms.size()) + " events (" +
                   join_all(user.natives) + "): sample one of them");
    OneEvent one;
    one.request = counting->requests.at(user.terms[0]);
    const bool pebs = one.request.precise != 0;
    auto rate = sample_rate(user.natives[0], o);
    if (!rate) return rate.error();
    const std::uint64_t period = rate->period;
    if (period < vg::min_sample_period(pebs) || period > vg::kMaxSamplePeriod)
        return bad("the period (-c) must be between " + std::to_string(vg::min_sample_period(pebs)) + " and 2^39" +
                   (pebs ? " for PEBS (the counter overflows one event before the sampled one)" : ""));
    SampledEvent& ev = one.event;
    ev.name = text;
    ev.native = user.natives[0];
    ev.period = period;
    ev.frequency = rate->frequency;
    ev.precise = pebs;
    ev.precise_level = one.request.precise_asked;
    const Privilege privilege = one.request.privilege_explicit ? one.request.privilege : po.default_privilege;
    ev.user_only = privilege.user && !privilege.kernel;
    ev.kernel_only = privilege.kernel && !privilege.user;
    ev.callchain = o.callchain;
    ev.data_source = data_source_of(one.request);
    return one;
}

// What PMU 0 holds at `msr` after the program's writes (0 when nothing writes it).
std::uint64_t written_value(const vg::EventProgram& p, std::uint32_t msr) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < p.num_writes[0]; ++i)
        if (p.writes[0][i].pmu == 0 && p.writes[0][i].msr == msr) v = p.writes[0][i].value;
    return v;
}

// The events of record's -e, one by one, in order. A second :precise event is refused here, before placement:
// the allocator refuses it too, but its explanation names whichever resource it meets first (the PEBS counter, the
// replay-tagging MSRs or a block's counters), not the rule.
Result<std::vector<OneEvent>> plan_each(const std::vector<std::string>& texts, const SampleOptions& o,
                                        const PlanOptions& po) {
    std::vector<OneEvent> planned;
    std::string pebs;  // the event that samples by PEBS, once there is one
    for (const std::string& text : texts) {
        auto one = plan_one(text, o, po);
        if (!one) return one.error();
        if (!pebs.empty() && one->event.precise)
            return bad(text + ": a second event with :precise (" + pebs + " has it): a recording samples one event "
                       "by PEBS, as the Pentium 4 has one PEBS counter per logical processor (" +
                       kCounters[kPebsCounterThread0].counter_name + ") and one PEBS metric set-up (" +
                       msr_name(kMsrPebsEnable) + ", " + msr_name(kMsrPebsMatrixVert) + "); sample the others " +
                       "without :precise (by their overflow interrupts)");
        if (one->event.precise) pebs = text;
        planned.push_back(std::move(*one));
    }
    return planned;
}

// All on one PMU, each on its own counter, placed by the allocator in one call as a PAPI event set is: its errors
// name the colliding counter or ESCR.
Result<Schedule> place_together(const std::vector<OneEvent>& planned, const SampleOptions& o, const PlanOptions& po) {
    std::vector<EventRequest> requests;
    for (const OneEvent& one : planned) requests.push_back(one.request);
    AllocContext ctx;
    ctx.model = o.machine.model;
    ctx.default_privilege = po.default_privilege;
    Result<Schedule> placed = schedule_events(requests, ctx);
    if (!placed && placed.error().code == ErrorCode::Conflict && planned.size() > 1)
        return make_error(ErrorCode::Conflict, placed.error().message + " netburst-run record samples all its events "
                                                "on one PMU: record them in separate runs.");
    return placed;
}

// The tool's program: PMU 0 holds the placed events with each one's counter armed for sampling in turn; PMU 1 counts
// the same events on the same counters, unarmed, for each instruction's exact count (event i of the results).
SamplePlan program_of(const Schedule& placed, const std::vector<OneEvent>& planned, const SampleOptions& o) {
    SamplePlan plan;
    vg::EventProgram& p = plan.program;
    p.num_pmus = 2;
    const std::vector<MsrWrite> plain = start_writes(placed);
    std::vector<MsrWrite> writes = plain;
    for (std::size_t i = 0; i < planned.size(); ++i) {
        const unsigned counter = static_cast<unsigned>(placed.requests[i].result_counter);
        plan.counters.push_back(counter);
        writes = armed_for_sampling(std::move(writes), counter, planned[i].event.period, planned[i].event.precise);
    }
    add_writes(&p, writes, 0);
    add_writes(&p, plain, 1);
    vg::SampleSpec& spec = p.sample;
    spec.enabled = true;
    spec.exact_pmu = 1;
    spec.callchain = o.callchain;
    spec.call_edges = o.call_edges;
    for (std::size_t i = 0; i < planned.size(); ++i) {
        vg::ProgramEvent e;
        e.index = static_cast<std::uint32_t>(i);
        e.lp = 0;
        e.counter = static_cast<std::uint8_t>(plan.counters[i]);
        e.pmu = 1;
        for (const PlacedUnit& u : placed.requests[i].units)
            if (u.counter >= 0) e.check_mask |= counter_bit(static_cast<unsigned>(u.counter));
        p.events[p.num_events++] = e;
        vg::SampledCounter& sc = spec.events[spec.num_events++];
        sc.pebs = planned[i].event.precise;
        sc.counter = e.counter;
        sc.period = planned[i].event.period;
        sc.exact_counter = e.counter;

        SampledEvent ev = planned[i].event;
        // perf's raw config for the event, as Linux's P4 driver packs it: the ESCR above, the CCCR (as armed) below.
        ev.raw_config = written_value(p, kCounters[plan.counters[i]].cccr_msr) & 0xFFFFFFFFu;
        if (const PlacedUnit* u = count_unit(placed, i)) ev.raw_config |= u->escr_value << 32;
        plan.events.push_back(ev);
    }
    return plan;
}

}  // namespace

Result<SamplePlan> plan_sampling(const std::string& text, const SampleOptions& o) {
    return plan_sampling(std::vector<std::string>{text}, o);
}

Result<SamplePlan> plan_sampling(const std::vector<std::string>& texts, const SampleOptions& o) {
    if (texts.empty()) return bad("no event to sample");
    if (texts.size() > vg::kMaxSampledEvents)
        return bad(std::to_string(texts.size()) + " events: a recording samples at most " +
                   std::to_string(vg::kMaxSampledEvents));
    PlanOptions po;
    po.machine = o.machine;
    po.fp = o.fp;
    po.default_privilege = Privilege{true, false};  // user mode, as perf samples for an unprivileged user
    auto planned = plan_each(texts, o, po);
    if (!planned) return planned.error();
    auto placed = place_together(*planned, o, po);
    if (!placed) return placed.error();
    return program_of(*placed, *planned, o);
}

}  // namespace netburst::emu::run
