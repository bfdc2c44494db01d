#include "component/event_set.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "alloc/allocator.h"
#include "component/claim.h"
#include "component/counter_extension.h"
#include "component/domain.h"
#include "encode/program.h"
#include "table/msr_map.h"
#include "table/hex.h"

namespace netburst::component {

namespace {

int status_for(ErrorCode code) {
    switch (code) {
    case ErrorCode::Ok: return NB_STATUS_OK;
    case ErrorCode::Conflict: return NB_STATUS_CONFLICT;
    case ErrorCode::Unsupported: return NB_STATUS_UNSUPPORTED;
    case ErrorCode::System: return NB_STATUS_SYSTEM;
    case ErrorCode::BadInput:
    case ErrorCode::NotOnModel: return NB_STATUS_NO_EVENT;
    }
    return NB_STATUS_INVALID;
}

bool copy_writes(const std::vector<MsrWrite>& from, nb_msr_write* to, std::uint16_t* count) {
    if (from.size() > NB_MAX_WRITES) return false;
    for (std::size_t i = 0; i < from.size(); ++i) to[i] = nb_msr_write{from[i].msr, 0, from[i].value};
    *count = static_cast<std::uint16_t>(from.size());
    return true;
}

// Writes a list of MSRs; stops at the first refusal and reports it.
IoStatus apply(Backend& backend, const nb_msr_write* writes, unsigned count, std::string* failed) {
    for (unsigned i = 0; i < count; ++i) {
        const IoStatus s = backend.write_msr(writes[i].msr, writes[i].value);
        if (s != IoStatus::Ok) {
            if (failed) *failed = "wrmsr " + hex(writes[i].msr) + " = " + hex(writes[i].value);
            return s;
        }
    }
    return IoStatus::Ok;
}

// Disables everything the set programmed, whatever fails on the way: this runs when undoing a failed start too.
void apply_stop(Backend& backend, const nb_event_set* set) {
    const nb_msr_write* writes = set->pebs_armed ? set->pebs_stop_writes : set->stop_writes;
    const unsigned count = set->pebs_armed ? set->num_pebs_stop_writes : set->num_stop_writes;
    for (unsigned i = 0; i < count; ++i) backend.write_msr(writes[i].msr, writes[i].value);
}

// The PEBS counter of an armed set: the counter reloads itself after every record, so its count is the records
// written (each stands for a period: period - 1 counted events and the sampled one) plus what it counted since
// the last reload. The PMU writes the DS area behind the compiler's back, so its fields are read as volatile.
bool pebs_counting(const nb_event_set* set, unsigned c) {
    return set->pebs_armed && nb_event_set_counter_is_pebs(set, static_cast<int>(c));
}

std::uint64_t ds_field(const nb_event_set* set, unsigned offset) {
    const volatile unsigned char* p = set->pebs_area + offset;
    std::uint64_t v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    return v;
}

void set_ds_field(nb_event_set* set, unsigned offset, std::uint64_t value) {
    volatile unsigned char* p = set->pebs_area + offset;
    for (unsigned i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(value >> (8 * i));
}

std::uint64_t ds_address(const nb_event_set* set) { return reinterpret_cast<std::uintptr_t>(set->pebs_area); }

// A PEBS sample's handler may interrupt this between its two reads, rewinding the buffer and counting what it
// held in pebs_records_before: the pair is read again until the handler did not run in between.
std::uint64_t pebs_records_written(const nb_event_set* set) {
    const std::uint64_t base = ds_address(set) + kDsManagementBytes;
    for (;;) {
        const std::uint64_t before = set->pebs_records_before;
        std::atomic_signal_fence(std::memory_order_seq_cst);
        const std::uint64_t index = ds_field(set, kDsPebsIndex);
        std::atomic_signal_fence(std::memory_order_seq_cst);
        if (before == set->pebs_records_before)
            return before + (index > base ? (index - base) / kPebsRecordBytes : 0);
    }
}

std::uint64_t pebs_total(const nb_event_set* set, std::uint64_t raw) {
    const std::uint64_t since_reload = (raw - pebs_start_value(set->pebs_period)) & kCounterValueMask;
    return pebs_records_written(set) * set->pebs_period + since_reload;
}

// The DS save area as a driver sets it up, at the set's address now (PAPI keeps the set where it is while it runs).
void prepare_pebs_area(nb_event_set* set) {
    std::memset(set->pebs_area, 0, sizeof set->pebs_area);
    PebsArming arming;
    arming.ds_area = ds_address(set);
    arming.records = NB_PEBS_RECORDS;
    arming.period = set->pebs_period;
    const DsAreaFields f = pebs_ds_fields(arming);
    set_ds_field(set, kDsPebsBase, f.base);
    set_ds_field(set, kDsPebsIndex, f.index);
    set_ds_field(set, kDsPebsMaximum, f.maximum);
    set_ds_field(set, kDsPebsThreshold, f.threshold);
    set_ds_field(set, kDsPebsCounterReset, f.counter_reset);
    for (unsigned i = 0; i < set->num_pebs_start_writes; ++i)
        if (set->pebs_start_writes[i].msr == kMsrDsArea) set->pebs_start_writes[i].value = arming.ds_area;
    set->pebs_records_before = 0;
    set->pebs_samples = 0;
}

// One counter: the events since the previous read, then the OVF flag acknowledged (see counter_extension.h).
// The CCCR was read before the counter (Backend::read_counters): a wrap between the two reads shows as raw < last
// with the flag still clear, and is acknowledged here too, so the flag never reports a wrap that was already counted.
// Adds the events since the previous read to the 64-bit total; true when the CCCR's OVF flag needs acknowledging.
// A counter that interrupts (overflow_counters) is different: only the interrupt's handler acknowledges its OVF
// flag (clearing it cancels a PMI still owed, emulator/pmu), so its flag says nothing about what the previous
// read saw. It starts at most 2^31 events short of the wrap, so its one wrap per period always ends below last.
bool fold(nb_event_set* set, unsigned c, std::uint64_t cccr, std::uint64_t raw) {
    raw &= kCounterValueMask;
    if (pebs_counting(set, c)) {
        set->total[c] = pebs_total(set, raw);
        set->last_raw[c] = raw;
        return false;
    }
    if (set->overflow_counters & counter_bit(c)) {
        set->total[c] += counter_delta(set->last_raw[c], raw, false);
        set->last_raw[c] = raw;
        return false;
    }
    const bool overflowed = cccr_overflowed(cccr);
    set->total[c] += counter_delta(set->last_raw[c], raw, overflowed);
    const bool acknowledge = overflowed || raw < set->last_raw[c];
    set->last_raw[c] = raw;
    return acknowledge;
}

IoStatus sample(Backend& backend, nb_event_set* set, unsigned c, std::uint64_t cccr, std::uint64_t raw) {
    if (fold(set, c, cccr, raw)) return backend.write_msr(kCounters[c].cccr_msr, set->cccr[c]);
    return IoStatus::Ok;
}

void publish_values(nb_event_set* set) {
    for (unsigned i = 0; i < set->num_events; ++i)
        set->values[i] = static_cast<long long>(set->total[static_cast<unsigned>(set->counter_of[i])]);
}

int io_status(IoStatus s) {
    switch (s) {
    case IoStatus::Ok: return NB_STATUS_OK;
    case IoStatus::Unsupported: return NB_STATUS_UNSUPPORTED;
    case IoStatus::Fault:
    case IoStatus::Unavailable: return NB_STATUS_SYSTEM;
    }
    return NB_STATUS_SYSTEM;
}

// The 64-bit counts up to date, then published. The CCCRs and counters are read in one batch (one system call on
// real hardware, one client request under the emulator).
int sample_all(Backend& backend, nb_event_set* set) {
    if (set->running) {
        std::uint64_t cccr[NB_NUM_COUNTERS] = {}, raw[NB_NUM_COUNTERS] = {};
        IoStatus s = backend.read_counters(set->read_counters, cccr, raw);
        if (s != IoStatus::Ok) return io_status(s);
        for (CounterMask left = set->read_counters; left != 0; left &= left - 1) {
            const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
            s = sample(backend, set, c, cccr[c], raw[c]);
            if (s != IoStatus::Ok) return io_status(s);
        }
    }
    publish_values(set);
    return NB_STATUS_OK;
}

// PAPI's software overflow reads the running set from its timer's signal handler, and the signal can interrupt
// the thread inside another call on the same set: PAPI_stop reads and stops the set before it stops the timer, and
// PAPI_read, PAPI_reset and PAPI_write may run while the timer does. Sampling the half-updated state there would
// count events twice, or take a counter the stop has cleared for a 40-bit wrap (2^40 events). So these calls mark
// the set busy, and a read that finds it busy hands PAPI the values of the last completed read: real counts from
// a moment earlier, which the next tick brings up to date. (A read that interrupts publish_values sees each
// event's count from one of the two reads.) The handler runs to completion on the same thread before the
// interrupted call goes on, so a compiler fence orders the flag; no other thread touches the set.
class Busy {
public:
    explicit Busy(nb_event_set* set) : set_(set), was_(set->busy) {
        set_->busy = 1;
        std::atomic_signal_fence(std::memory_order_seq_cst);
    }
    ~Busy() {
        std::atomic_signal_fence(std::memory_order_seq_cst);
        set_->busy = was_;
    }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;

private:
    nb_event_set* set_;
    std::uint8_t was_;
};

// The handler's work for an overflow of the counters in `mask`: their counts brought up to date, then each counter
// started again so that it wraps `threshold` events after the previous wrap, counting the events that came while
// the interrupt was on its way (what is left of the period, or a whole one when more than a period went by), and
// its OVF flag cleared. The few events between the read and the write (the handler's own instructions, for an
// instruction count) are not counted.
IoStatus reload(Backend& backend, nb_event_set* set, CounterMask mask) {
    std::uint64_t cccr[NB_NUM_COUNTERS] = {}, raw[NB_NUM_COUNTERS] = {};
    IoStatus s = backend.read_counters(mask, cccr, raw);
    if (s != IoStatus::Ok) return s;
    for (CounterMask left = mask; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        fold(set, c, cccr[c], raw[c]);
        const std::uint64_t start = overflow_reload_value(set->threshold[c], raw[c]);
        s = backend.write_msr(kCounters[c].counter_msr, start);
        if (s == IoStatus::Ok) s = backend.write_msr(kCounters[c].cccr_msr, set->cccr[c]);
        if (s != IoStatus::Ok) return s;
        set->last_raw[c] = start;
    }
    return IoStatus::Ok;
}

bool interrupts(const nb_event_set* set) { return set->overflow_counters != 0 || set->pebs_armed; }

// Reloads that an interrupt left to the call it interrupted (take_event_set_overflow); a new interrupt during
// one adds to the mask, so the loop runs until it is empty.
void settle_reloads(Backend& backend, nb_event_set* set) {
    for (;;) {
        std::atomic_signal_fence(std::memory_order_seq_cst);
        const CounterMask owed = set->reload_owed;
        if (owed == 0) return;
        set->reload_owed = 0;
        std::atomic_signal_fence(std::memory_order_seq_cst);
        if (set->running) reload(backend, set, owed);
    }
}

// The counters that start short of their wrap, with their start values (the start writes hold them too).
void start_overflow_counters(nb_event_set* set) {
    for (CounterMask left = set->overflow_counters; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        set->last_raw[c] = overflow_start_value(set->threshold[c]);
    }
    set->reload_owed = 0;
}

std::string event_name(ComponentState& component, const nb_event_set* set, int index) {
    std::string name;
    if (index < 0 || !component.registry.name_of(set->codes[index], &name)) return "an event of the set";
    return name;
}

// Programs the set and asks the backend about every counter it enables. On success the set is left programmed
// (start goes on from there); on failure everything the set programmed is disabled again and *why names the
// refused write or the event the backend cannot measure.
int program_and_check(ComponentState& component, const nb_event_set* set, std::string* why) {
    Backend& backend = component.backend();
    std::string failed;
    const IoStatus s = set->pebs_armed ? apply(backend, set->pebs_start_writes, set->num_pebs_start_writes, &failed)
                                       : apply(backend, set->start_writes, set->num_start_writes, &failed);
    if (s != IoStatus::Ok) {
        const std::string reason = backend.last_refusal();
        apply_stop(backend, set);
        *why = "the processor refused " + failed + " while starting the event set" +
               (reason.empty() ? std::string() : ": " + reason);
        return io_status(s);
    }
    for (CounterMask left = set->programmed_counters; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        const IoStatus status = backend.counter_status(c);
        if (status == IoStatus::Ok) continue;
        apply_stop(backend, set);
        *why = status == IoStatus::Unsupported
                   ? event_name(component, set, set->owner_of_counter[c]) +
                         " counts something the NetBurst emulator does not model (counter " + std::to_string(c) +
                         "), so it cannot be counted here; see doc/emulator-coverage.md"
                   : "cannot ask the backend about counter " + std::to_string(c);
        return io_status(status);
    }
    return NB_STATUS_OK;
}

}  // namespace

void init_event_set(nb_event_set* set, int domain) {
    std::memset(set, 0, sizeof *set);
    set->domain = domain;
    set->attached_cpu = -1;
    set->pebs_event = -1;
}

int update_event_set(ComponentState& component, nb_event_set* set, unsigned logical_processor, const unsigned* codes,
                     unsigned num_codes, bool may_program, std::string* why) {
    if (num_codes > NB_MAX_EVENTS) {
        *why = std::to_string(num_codes) + " native events cannot be counted at once: the NetBurst PMU has " +
               std::to_string(NB_NUM_COUNTERS) + " counters (use PAPI's multiplexing)";
        return NB_STATUS_TOO_MANY;
    }
    if (!domain_supported(set->domain)) {
        *why = "domain " + std::to_string(set->domain) + " is not available: NetBurst counts user and kernel levels";
        return NB_STATUS_INVALID;
    }
    const unsigned lp = component.cpu().hyper_threading ? logical_processor : 0;

    // PAPI schedules a set again before every start that follows another set's start, and its multiplexing does
    // so on every switch, from its timer's signal handler. The same events for the same logical processor and
    // domain give the same schedule: nothing is done then, and in particular nothing is allocated, which a signal
    // handler must not do (it may have interrupted malloc).
    // On shared hardware the schedule also depends on what others hold, so only the per-thread PMU takes this path.
    if (component.cpu().per_thread_pmu && num_codes > 0 && num_codes == set->num_events && lp == set->logical_processor &&
        set->domain == set->scheduled_domain && std::equal(codes, codes + num_codes, set->codes))
        return NB_STATUS_OK;

    // The same request twice (two spellings PAPI keeps apart) is counted once.
    std::vector<EventRequest> requests;
    std::vector<unsigned> request_of_event(num_codes);
    std::vector<int> first_event_of_request;
    for (unsigned i = 0; i < num_codes; ++i) {
        Result<EventRequest> r = component.registry.request_of(codes[i]);
        if (!r.ok()) {
            *why = r.error().message;
            return NB_STATUS_NO_EVENT;
        }
        unsigned k = 0;
        while (k < requests.size() && requests[k] != *r) ++k;
        if (k == requests.size()) {
            requests.push_back(*r);
            first_event_of_request.push_back(static_cast<int>(i));
        }
        request_of_event[i] = k;
    }

    AllocContext ctx;
    ctx.model = component.cpu().model;
    ctx.hyper_threading = component.cpu().hyper_threading;
    ctx.thread = lp;
    ctx.default_privilege = privilege_for_domain(set->domain);
    // On shared hardware: what other software, errata and this process's other event sets leave free.
    PmuOccupancy occupancy = component.backend().occupancy(ctx.thread);
    ctx.unavailable_counters |= occupancy.unavailable_counters;
    ctx.unavailable_escrs |= occupancy.unavailable_escrs;
    ctx.unavailable_reason = std::move(occupancy.reason);
    ctx.sibling = occupancy.sibling;
    // :precise: one event at a time can drive PEBS, on the logical processor's PEBS counter.
    int pebs_request = -1;
    for (std::size_t k = 0; k < requests.size(); ++k) {
        if (!requests[k].precise) continue;
        if (pebs_request >= 0) {
            *why = std::string("two events with :precise (") +
                   requests[static_cast<std::size_t>(pebs_request)].base_name() + " and " + requests[k].base_name() +
                   "): PEBS has one counter, " + kCounters[pebs_counter(lp)].counter_name + " for logical processor " +
                   std::to_string(lp) + ", and one DS save area";
            return NB_STATUS_CONFLICT;
        }
        std::string reason;
        if (!component.backend().pebs_possible(&reason)) {
            *why = std::string(requests[k].base_name()) + ":precise: " + reason;
            return NB_STATUS_UNSUPPORTED;
        }
        pebs_request = static_cast<int>(k);
    }
    Result<Schedule> schedule = schedule_events(requests, ctx);
    if (!schedule.ok()) {
        *why = schedule.error().message;
        return status_for(schedule.error().code);
    }

    nb_event_set next;
    init_event_set(&next, set->domain);
    next.scheduled_domain = set->domain;
    next.attached_cpu = set->attached_cpu;
    next.logical_processor = static_cast<std::uint8_t>(ctx.thread);
    if (!copy_writes(start_writes(*schedule), next.start_writes, &next.num_start_writes) ||
        !copy_writes(stop_writes(*schedule), next.stop_writes, &next.num_stop_writes)) {
        *why = "internal error: the schedule needs more MSR writes than an event set holds";
        return NB_STATUS_INVALID;
    }
    std::memset(next.owner_of_counter, -1, sizeof next.owner_of_counter);
    for (std::size_t k = 0; k < schedule->requests.size(); ++k) {
        for (const PlacedUnit& unit : schedule->requests[k].units) {
            if (unit.counter < 0) continue;
            next.programmed_counters |= counter_bit(static_cast<unsigned>(unit.counter));
            next.cccr[unit.counter] = unit.cccr_value;
            next.owner_of_counter[unit.counter] = static_cast<std::int8_t>(first_event_of_request[k]);
        }
    }
    next.num_events = num_codes;
    if (pebs_request >= 0)
        next.pebs_event = static_cast<std::int8_t>(first_event_of_request[static_cast<std::size_t>(pebs_request)]);
    for (unsigned i = 0; i < num_codes; ++i) {
        const int counter = schedule->requests[request_of_event[i]].result_counter;
        next.codes[i] = codes[i];
        next.counter_of[i] = static_cast<std::int8_t>(counter);
        next.read_counters |= counter_bit(static_cast<unsigned>(counter));
    }

    // A set the emulator cannot count is refused now rather than at PAPI_start, as PAPI's perf_event component
    // refuses a set its kernel cannot schedule (it tries each one): PAPI_add_event fails with PAPI_ENOSUPP and the
    // explanation, and programs that fill the PMU from the event list, as PAPI's tests do, go on to the next event.
    // Only the emulator answers "unsupported", and trying programs the PMU, so it happens only on the emulator's
    // per-thread PMU and when the caller knows that no event set of this thread is running; otherwise PAPI_start
    // checks the same. Registers that passed once (other spellings of the same events) are not tried again.
    const bool unchanged = set->num_start_writes == next.num_start_writes &&
                           std::memcmp(set->start_writes, next.start_writes,
                                       next.num_start_writes * sizeof next.start_writes[0]) == 0;
    if (unchanged && set->measurable) {
        next.measurable = 1;
    } else if (may_program && component.cpu().emulated && component.cpu().per_thread_pmu) {
        const int status = program_and_check(component, &next, why);
        if (status != NB_STATUS_OK) return status;
        apply_stop(component.backend(), &next);
        next.measurable = 1;
    }
    *set = next;
    return NB_STATUS_OK;
}

int set_event_set_domain(ComponentState& component, nb_event_set* set, unsigned logical_processor, int domain,
                         bool may_program, std::string* why) {
    if (!domain_supported(domain)) {
        *why = "domain " + std::to_string(domain) + " is not available: NetBurst counts user and kernel levels";
        return NB_STATUS_INVALID;
    }
    const int old_domain = set->domain;
    set->domain = domain;
    std::vector<unsigned> codes(set->codes, set->codes + set->num_events);
    const int status = update_event_set(component, set, logical_processor, codes.data(),
                                        static_cast<unsigned>(codes.size()), may_program, why);
    if (status != NB_STATUS_OK) set->domain = old_domain;
    return status;
}

int start_event_set(ComponentState& component, nb_event_set* set, std::string* why) {
    Backend& backend = component.backend();
    // Shared hardware: nobody else may hold what the set programs, and it is saved before the first write.
    const PmuClaim claim = claim_of(*set);
    std::string refused;
    const IoStatus claimed = backend.claim(claim, &refused);
    if (claimed != IoStatus::Ok) {
        *why = "cannot start the event set: " + refused;
        return claimed == IoStatus::Unavailable ? NB_STATUS_CONFLICT : io_status(claimed);
    }
    // The start writes clear the counters. Everything the program runs after the enables, up to the stop, is
    // counted, so the bookkeeping goes first (PAPI's validation test papi_tot_ins allows 600 instructions of
    // start/stop overhead on a 6,000-instruction loop).
    std::memset(set->last_raw, 0, sizeof set->last_raw);
    std::memset(set->total, 0, sizeof set->total);
    std::memset(set->values, 0, sizeof set->values);
    start_overflow_counters(set);
    if (set->pebs_armed) prepare_pebs_area(set);
    // The thread's interrupts go to this set from now on (and none is left over from an earlier run).
    if (interrupts(set) && backend.deliver_interrupts(true) != IoStatus::Ok) {
        backend.release(claim);
        *why = "the backend cannot deliver overflow interrupts";
        return NB_STATUS_UNSUPPORTED;
    }
    // Checked again even when update tried the set: the backend's answer is about the registers as programmed now.
    const int status = program_and_check(component, set, why);
    if (status != NB_STATUS_OK) {
        if (interrupts(set)) backend.deliver_interrupts(false);
        backend.release(claim);
        return status;
    }
    set->running = 1;
    return NB_STATUS_OK;
}

int read_event_set(Backend& backend, nb_event_set* set) {
    if (set->busy) return NB_STATUS_OK;  // interrupted a call on this set: the last completed read's values
    const Busy busy(set);
    const int status = sample_all(backend, set);
    settle_reloads(backend, set);
    return status;
}

int stop_event_set(Backend& backend, nb_event_set* set) {
    if (!set->running) return NB_STATUS_OK;
    const Busy busy(set);
    // Read, then stop at once: the counters count this code too, so the arithmetic waits until they are stopped
    // (and needs no OVF acknowledgement, since the stop writes clear the CCCRs). The set is marked stopped before
    // the registers are cleared.
    std::uint64_t cccr[NB_NUM_COUNTERS] = {}, raw[NB_NUM_COUNTERS] = {};
    const IoStatus s = backend.read_counters(set->read_counters, cccr, raw);
    set->running = 0;
    apply_stop(backend, set);
    // An interrupt still on its way is for counters that no longer count.
    if (interrupts(set)) backend.deliver_interrupts(false);
    set->reload_owed = 0;
    backend.release(claim_of(*set));
    if (s != IoStatus::Ok) return io_status(s);
    for (CounterMask left = set->read_counters; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        fold(set, c, cccr[c], raw[c]);
    }
    publish_values(set);
    return NB_STATUS_OK;
}

int reset_event_set(Backend& backend, nb_event_set* set) {
    const Busy busy(set);
    if (set->running) {
        for (unsigned c = 0; c < NB_NUM_COUNTERS; ++c) {
            if (!(set->read_counters & counter_bit(c))) continue;
            std::uint64_t start =
                set->overflow_counters & counter_bit(c) ? overflow_start_value(set->threshold[c]) : 0;
            if (pebs_counting(set, c)) start = pebs_start_value(set->pebs_period);
            IoStatus s = backend.write_msr(kCounters[c].counter_msr, start);
            if (s == IoStatus::Ok) s = backend.write_msr(kCounters[c].cccr_msr, set->cccr[c]);  // clears OVF
            if (s != IoStatus::Ok) return io_status(s);
        }
    }
    std::memset(set->last_raw, 0, sizeof set->last_raw);
    std::memset(set->total, 0, sizeof set->total);
    start_overflow_counters(set);
    if (set->pebs_armed && set->running) {  // the buffer's records are of the counts the reset drops
        const std::uint64_t base = ds_address(set) + kDsManagementBytes;
        set_ds_field(set, kDsPebsIndex, base);
        set->pebs_records_before = 0;
    }
    publish_values(set);
    return NB_STATUS_OK;
}

int write_event_set(Backend& backend, nb_event_set* set, const long long* values) {
    const Busy busy(set);
    for (unsigned i = 0; i < set->num_events; ++i) {
        const unsigned c = static_cast<unsigned>(set->counter_of[i]);
        const std::uint64_t value = static_cast<std::uint64_t>(values[i]);
        if (set->running) {
            IoStatus s = backend.write_msr(kCounters[c].counter_msr, value & kCounterValueMask);
            if (s == IoStatus::Ok) s = backend.write_msr(kCounters[c].cccr_msr, set->cccr[c]);
            if (s != IoStatus::Ok) return io_status(s);
            set->last_raw[c] = value & kCounterValueMask;
        }
        set->total[c] = value;
    }
    publish_values(set);
    return NB_STATUS_OK;
}

namespace {

// PAPI_overflow on the :precise event: PEBS every `threshold`-th event (0: no longer). The armed writes come from
// the encoder (encode/program.h); start puts the set's DS save area's address in them.
int set_pebs_overflow(nb_event_set* set, unsigned counter, long long threshold) {
    if (threshold == 0) {
        set->pebs_armed = 0;
        return NB_STATUS_OK;
    }
    if (threshold < 2) return NB_STATUS_INVALID;  // the sampled event is the one after the overflow
    PebsArming arming;
    arming.records = NB_PEBS_RECORDS;
    arming.period = static_cast<std::uint64_t>(threshold);
    std::vector<MsrWrite> start, stop;
    for (unsigned i = 0; i < set->num_start_writes; ++i)
        start.push_back({set->start_writes[i].msr, set->start_writes[i].value});
    for (unsigned i = 0; i < set->num_stop_writes; ++i)
        stop.push_back({set->stop_writes[i].msr, set->stop_writes[i].value});
    if (!copy_writes(pebs_start_writes(start, counter, arming), set->pebs_start_writes, &set->num_pebs_start_writes) ||
        !copy_writes(pebs_stop_writes(stop), set->pebs_stop_writes, &set->num_pebs_stop_writes))
        return NB_STATUS_INVALID;
    set->pebs_period = arming.period;
    set->pebs_armed = 1;
    return NB_STATUS_OK;
}

// A PEBS record the backend noted becomes the set's current sample, dispatched at its EIP to the :precise event
// (and any other spelling of it in the set). When the backend rewound the buffer after it, what the buffer held
// counts toward the event's total from now on.
void take_pebs_sample(nb_event_set* set, const PebsNote& note, std::uint64_t* address, std::uint64_t* event_mask) {
    const std::uint64_t base = ds_address(set) + kDsManagementBytes;
    const std::uint64_t end = base + std::uint64_t{NB_PEBS_RECORDS} * kPebsRecordBytes;
    if (note.record < base || note.record + kPebsRecordBytes > end || (note.record - base) % kPebsRecordBytes != 0)
        return;  // not this set's buffer
    papi_netburst_pebs_sample sample{};
    const unsigned offset = static_cast<unsigned>(note.record - ds_address(set));
    for (unsigned f = 0; f < kPebsRecordFields; ++f) sample.field[f] = ds_field(set, offset + 8 * f);
    sample.valid = note.valid;
    sample.has_data_address = note.data_address != 0;
    sample.data_address = note.data_address;
    sample.sequence = ++set->pebs_samples;
    set->pebs_last = sample;
    set->pebs_records_before += note.rewound;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    *address = sample.field[PAPI_NETBURST_EIP];
    for (unsigned i = 0; i < set->num_events; ++i)
        if (set->counter_of[i] == set->counter_of[set->pebs_event]) *event_mask |= std::uint64_t{1} << i;
}

}  // namespace

int set_event_set_overflow(ComponentState& component, nb_event_set* set, unsigned event, long long threshold) {
    if (event >= set->num_events || threshold < 0 || threshold > (1ll << 31) || set->running) return NB_STATUS_INVALID;
    if (component.backend().interrupt_signal() == 0 || !component.cpu().per_thread_pmu) return NB_STATUS_UNSUPPORTED;
    const unsigned c = static_cast<unsigned>(set->counter_of[event]);
    if (nb_event_set_counter_is_pebs(set, static_cast<int>(c)))
        return set_pebs_overflow(set, c, threshold);
    const bool interrupt = threshold > 0;
    const std::uint64_t cccr = cccr_with_overflow_interrupt(set->cccr[c], interrupt, set->logical_processor);
    const std::uint64_t start = interrupt ? overflow_start_value(static_cast<std::uint64_t>(threshold)) : 0;
    // The start writes come from the encoder in the order it chose (counter value before CCCR enable); only the
    // two values of this counter change, in the PEBS-armed copy too.
    for (unsigned i = 0; i < set->num_start_writes; ++i) {
        if (set->start_writes[i].msr == kCounters[c].counter_msr) set->start_writes[i].value = start;
        if (set->start_writes[i].msr == kCounters[c].cccr_msr) set->start_writes[i].value = cccr;
    }
    for (unsigned i = 0; i < set->num_pebs_start_writes; ++i) {
        if (set->pebs_start_writes[i].msr == kCounters[c].counter_msr) set->pebs_start_writes[i].value = start;
        if (set->pebs_start_writes[i].msr == kCounters[c].cccr_msr) set->pebs_start_writes[i].value = cccr;
    }
    set->cccr[c] = cccr;
    set->threshold[c] = interrupt ? static_cast<std::uint64_t>(threshold) : 0;
    if (interrupt) set->overflow_counters |= counter_bit(c);
    else set->overflow_counters &= ~counter_bit(c);
    return NB_STATUS_OK;
}

int take_event_set_overflow(Backend& backend, nb_event_set* set, std::uint64_t* address, std::uint64_t* event_mask) {
    *event_mask = 0;
    // PEBS records first, one per call, whichever interrupt announced them: a buffer-threshold interrupt may have
    // been merged with another on the interrupt line, and a record may be written before its own interrupt.
    PebsNote note;
    if (set->running && set->pebs_armed && backend.take_pebs_record(&note) == IoStatus::Ok) {
        *address = 0;
        take_pebs_sample(set, note, address, event_mask);
        return NB_STATUS_OK;
    }
    Interrupt in;
    if (backend.take_interrupt(&in) != IoStatus::Ok) return NB_STATUS_NO_EVENT;
    *address = in.eip;
    CounterMask overflowed = in.overflowed;
    overflowed &= set->overflow_counters;
    if (!set->running || overflowed == 0) return NB_STATUS_OK;
    // The interrupt names every counter whose OVF flag was set when it was raised, and the flag stays set until a
    // handler reloads the counter. The signal comes late, so a counter that overflowed once can be named by the
    // interrupts of others raised meanwhile, after an earlier one reloaded it: only a counter that has wrapped since
    // its reload (its value below half the range: it started in the upper half) overflowed, as an x86 PMI
    // handler tells by the counter's top bit.
    std::uint64_t cccr[NB_NUM_COUNTERS] = {}, raw[NB_NUM_COUNTERS] = {};
    const IoStatus read = backend.read_counters(overflowed, cccr, raw);
    if (read != IoStatus::Ok) return io_status(read);
    for (CounterMask left = overflowed; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        if (!wrapped_since_start(raw[c])) overflowed &= ~counter_bit(c);
    }
    if (overflowed == 0) return NB_STATUS_OK;
    std::uint64_t events = 0;
    for (unsigned i = 0; i < set->num_events; ++i)
        if (overflowed & counter_bit(static_cast<unsigned>(set->counter_of[i]))) events |= std::uint64_t{1} << i;
    // Inside read, stop, reset or write on this set, the counts are half updated: the interrupted call reloads.
    if (set->busy) {
        set->reload_owed |= overflowed;
        std::atomic_signal_fence(std::memory_order_seq_cst);
    } else {
        const Busy busy(set);
        const IoStatus s = reload(backend, set, overflowed);
        if (s != IoStatus::Ok) return io_status(s);
    }
    *event_mask = events;
    return NB_STATUS_OK;
}

}  // namespace netburst::component
