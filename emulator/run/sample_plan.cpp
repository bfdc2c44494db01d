#include "emulator/run/sample_plan.h"

#include <algorithm>

#include "alloc/allocator.h"
#include "encode/program.h"
#include "emulator/valgrind/guest_cpuid.h"
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

template <typename S>  // Schedule or const Schedule
auto count_unit(S& s) -> decltype(&s.requests[0].units[0]) {
    for (auto& u : s.requests[0].units)
        if (u.role == UnitRole::Count) return &u;
    return nullptr;
}

// The schedule's start writes armed for sampling on `counter`: PEBS by the encoder's arming (the component's
// :precise overflow uses the same), IEBS by the counter's overflow interrupt to logical processor 0.
std::vector<MsrWrite> sampling_writes(const Schedule& s, unsigned counter, std::uint64_t period, bool pebs) {
    if (pebs) return pebs_start_writes(start_writes(s), counter, PebsArming{vg::kSampleDsArea, 0, period});
    std::vector<MsrWrite> writes = start_writes(s);
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
    const std::uint64_t hz = clock_hz(o.model);
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

}  // namespace

Result<SamplePlan> plan_sampling(const std::string& text, const SampleOptions& o) {
    // Parsed, expanded and placed as a counting run would be: the plain count is the exact-count PMU's program.
    // The parser takes the precise level (libpfm4's :precise=N, perf's :p) and refuses it for an event that
    // cannot drive PEBS; the allocator puts a precise request's count on IQ_COUNTER4.
    PlanOptions po;
    po.model = o.model;
    po.fp = o.fp;
    po.default_privilege = Privilege{true, false};  // user mode, as perf samples for an unprivileged user
    auto event = with_native_for_preset(text, po);
    if (!event) return event.error();
    auto counting = plan_events({*event}, po);
    if (!counting) return counting.error();
    const UserEvent& user = counting->events.at(0);
    if (user.terms.size() != 1)
        return bad(*event + " is derived from " + std::to_string(user.terms.size()) + " events (" +
                   join_all(user.natives) + "): sample one of them");
    const EventRequest request = counting->requests.at(user.terms[0]);
    const bool pebs = request.precise != 0;
    auto rate = sample_rate(user.natives[0], o);
    if (!rate) return rate.error();
    const std::uint64_t period = rate->period;
    if (period < vg::min_sample_period(pebs) || period > vg::kMaxSamplePeriod)
        return bad("the period (-c) must be between " + std::to_string(vg::min_sample_period(pebs)) + " and 2^39" +
                   (pebs ? " for PEBS (the counter overflows one event before the sampled one)" : ""));

    AllocContext ctx;
    ctx.model = o.model;
    ctx.default_privilege = po.default_privilege;
    Result<Schedule> sampling = schedule_events({request}, ctx);
    if (!sampling) return sampling.error();

    SamplePlan plan;
    plan.counter = static_cast<unsigned>(sampling->requests[0].result_counter);
    vg::EventProgram& p = plan.program;
    p.num_pmus = 2;
    add_writes(&p, sampling_writes(*sampling, plan.counter, period, pebs), 0);
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
    p.sample.period = period;
    p.sample.exact_pmu = 1;
    p.sample.exact_counter = e.counter;
    p.sample.callchain = o.callchain;
    p.sample.call_edges = o.call_edges;

    SampledEvent& ev = plan.event;
    ev.name = text;
    ev.native = user.natives[0];
    ev.period = period;
    ev.frequency = rate->frequency;
    ev.precise = pebs;
    ev.precise_level = request.precise_asked;
    const Privilege privilege = request.privilege_explicit ? request.privilege : po.default_privilege;
    ev.user_only = privilege.user && !privilege.kernel;
    ev.kernel_only = privilege.kernel && !privilege.user;
    ev.model = o.model;
    ev.callchain = o.callchain;
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
