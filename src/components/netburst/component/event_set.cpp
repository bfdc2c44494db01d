#include "component/event_set.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "alloc/allocator.h"
#include "component/claim.h"
#include "component/domain.h"
#include "component/ds_area.h"
#include "component/overflow_reload.h"
#include "component/set_state.h"
#include "encode/program.h"
#include "table/hex.h"
#include "table/msr_map.h"

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

// Writes a list of MSRs; stops at the first refusal and reports it.
IoStatus apply(Backend& backend, const nb_msr_write* writes, unsigned count, std::string* failed) {
    unsigned done = 0;
    const IoStatus s = backend.write_msrs(writes, count, &done);
    if (s != IoStatus::Ok && failed && done < count)
        *failed = "wrmsr " + hex(writes[done].msr) + " = " + hex(writes[done].value);
    return s;
}

// Disables everything the set programmed, whatever fails on the way: this runs when undoing a failed start too.
void apply_stop(Backend& backend, const nb_event_set* set) {
    const nb_msr_write* writes = set->pebs_armed ? set->pebs_stop_writes : set->stop_writes;
    const unsigned count = set->pebs_armed ? set->num_pebs_stop_writes : set->num_stop_writes;
    for (unsigned i = 0, done = 0; i < count; i += done + 1)  // past a refused write, on with the next
        if (backend.write_msrs(writes + i, count - i, &done) == IoStatus::Ok) return;
}

IoStatus sample(Backend& backend, nb_event_set* set, unsigned c, std::uint64_t cccr, std::uint64_t raw) {
    if (fold(set, c, cccr, raw)) return backend.write_msr(kCounters[c].cccr_msr, set->cccr[c]);
    return IoStatus::Ok;
}

// Zero counts. Only the entries of the counters the set reads are ever read, so only they are cleared: a start or
// reset clears a few words instead of three arrays of 18 (each word is an instruction the emulated processor runs).
void clear_counts(nb_event_set* set) {
    for (CounterMask left = set->read_counters; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        set->last_raw[c] = 0;
        set->total[c] = 0;
    }
}

void publish_values(nb_event_set* set) {
    for (unsigned i = 0; i < set->num_events; ++i)
        set->values[i] = static_cast<long long>(set->total[static_cast<unsigned>(set->counter_of[i])]);
}

// The 64-bit counts up to date, then published. The CCCRs and counters are read in one batch (one system call on
// real hardware, one client request under the emulator).
int sample_all(Backend& backend, nb_event_set* set) {
    if (set->running) {
        std::uint64_t cccr[NB_NUM_COUNTERS], raw[NB_NUM_COUNTERS];  // read_counters fills the set's entries
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
    // The answer depends only on what the registers select, so writes already checked need no second asking.
    if (set->measurable && !set->pebs_armed) return NB_STATUS_OK;
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
    const PmuClaim claim = backend.claims_registers() ? claim_of(*set) : PmuClaim();
    std::string refused;
    const IoStatus claimed = backend.claim(claim, &refused);
    if (claimed != IoStatus::Ok) {
        *why = "cannot start the event set: " + refused;
        return claimed == IoStatus::Unavailable ? NB_STATUS_CONFLICT : io_status(claimed);
    }
    // The start writes clear the counters. Everything the program runs after the enables, up to the stop, is
    // counted, so the bookkeeping goes first (PAPI's validation test papi_tot_ins allows 600 instructions of
    // start/stop overhead on a 6,000-instruction loop).
    clear_counts(set);
    for (unsigned i = 0; i < set->num_events; ++i) set->values[i] = 0;
    start_overflow_counters(set);
    if (set->pebs_armed) prepare_pebs_area(set);
    // The thread's interrupts go to this set from now on (and none is left over from an earlier run).
    if (interrupts(set) && backend.deliver_interrupts(true) != IoStatus::Ok) {
        backend.release(claim);
        *why = "the backend cannot deliver overflow interrupts";
        return NB_STATUS_UNSUPPORTED;
    }
    // The backend is asked about writes it has not answered for yet (update may have tried them already).
    const int status = program_and_check(component, set, why);
    if (status != NB_STATUS_OK) {
        if (interrupts(set)) backend.deliver_interrupts(false);
        backend.release(claim);
        return status;
    }
    if (!set->pebs_armed) set->measurable = 1;  // the next start of the same writes need not ask
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
    std::uint64_t cccr[NB_NUM_COUNTERS], raw[NB_NUM_COUNTERS];  // read_counters fills the set's entries
    const IoStatus s = backend.read_counters(set->read_counters, cccr, raw);
    set->running = 0;
    apply_stop(backend, set);
    // An interrupt still on its way is for counters that no longer count.
    if (interrupts(set)) backend.deliver_interrupts(false);
    set->reload_owed = 0;
    if (backend.claims_registers()) backend.release(claim_of(*set));
    if (s != IoStatus::Ok) return io_status(s);
    for (CounterMask left = set->read_counters; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        fold(set, c, cccr[c], raw[c]);
    }
    publish_values(set);
    return NB_STATUS_OK;
}

int event_set_intervals(Backend& backend, const nb_event_set* set, long long* half_widths) {
    for (unsigned i = 0; i < set->num_events; ++i) {
        std::uint64_t half = 0;
        const IoStatus s = backend.counter_interval(static_cast<unsigned>(set->counter_of[i]), &half);
        if (s != IoStatus::Ok) return io_status(s);
        half_widths[i] = half == Backend::kIntervalUnbounded ? -1 : static_cast<long long>(half);
    }
    return NB_STATUS_OK;
}

int reset_event_set(Backend& backend, nb_event_set* set) {
    const Busy busy(set);
    if (set->running) {
        nb_msr_write writes[2 * NB_NUM_COUNTERS];
        unsigned n = 0;
        for (CounterMask left = set->read_counters; left != 0; left &= left - 1) {
            const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
            std::uint64_t start =
                set->overflow_counters & counter_bit(c) ? overflow_start_value(set->threshold[c]) : 0;
            if (pebs_counting(set, c)) start = pebs_start_value(set->pebs_period);
            writes[n++] = nb_msr_write{kCounters[c].counter_msr, 0, start};
            writes[n++] = nb_msr_write{kCounters[c].cccr_msr, 0, set->cccr[c]};  // clears OVF
        }
        unsigned done = 0;
        if (const IoStatus s = backend.write_msrs(writes, n, &done); s != IoStatus::Ok) return io_status(s);
    }
    clear_counts(set);
    start_overflow_counters(set);
    if (set->pebs_armed && set->running) rewind_pebs_area(set);
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

}  // namespace netburst::component
