// glue_api.h: the C entry points. Each one finds the active component, converts C arguments and calls the C++
// core; no exception crosses into PAPI's C code (an allocation failure becomes NB_STATUS_NO_MEMORY).
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "component/claim.h"
#include "component/component.h"
#include "component/event_set.h"
#include "component/glue_api.h"

using namespace netburst::component;

namespace {

void copy_text(char* dst, std::size_t size, const std::string& text) {
    if (!dst || size == 0) return;
    const std::size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(dst, text.data(), n);
    dst[n] = '\0';
}

// Runs fn(component) when the component is active; NB_STATUS_DISABLED otherwise.
template <typename Fn>
int with_component(Fn fn) {
    ComponentState* c = active_component();
    if (!c) return NB_STATUS_DISABLED;
    try {
        return fn(*c);
    } catch (const std::bad_alloc&) {
        return NB_STATUS_NO_MEMORY;
    } catch (...) {
        return NB_STATUS_INVALID;
    }
}

// Update and set_domain may try a schedule on the PMU only when they know the thread and none of its sets runs:
// trying programs (and then clears) the registers a running set counts with.
bool may_program(const nb_thread* thread) { return thread && thread->running_sets == 0; }

int text_result(bool found, const std::string& text, char* buf, size_t len) {
    if (!found) return NB_STATUS_NO_EVENT;
    copy_text(buf, len, text);
    return NB_STATUS_OK;
}

}  // namespace

extern "C" {

int nb_component_init(struct nb_component_info* info) {
    try {
        return initialize_component(DetectionSources(), std::getenv("PAPI_NETBURST_FP"), info);
    } catch (const std::bad_alloc&) {
        copy_text(info->disabled_reason, sizeof info->disabled_reason, "out of memory while initialising");
        return NB_STATUS_NO_MEMORY;
    }
}

void nb_component_shutdown(void) { shutdown_component(); }

void nb_thread_shutdown(struct nb_thread* thread) {
    (void)thread;
    with_component([](ComponentState& c) {
        c.backend().release_thread();
        return NB_STATUS_OK;
    });
}

int nb_thread_init(struct nb_thread* thread) {
    std::memset(thread, 0, sizeof *thread);
    return with_component([&](ComponentState& c) {
        thread->logical_processor = static_cast<std::uint8_t>(c.backend().register_thread());
        return NB_STATUS_OK;
    });
}

int nb_native_first(unsigned* code) {
    return with_component([&](ComponentState& c) { return c.registry.first(code) ? NB_STATUS_OK : NB_STATUS_NO_EVENT; });
}

int nb_native_next_event(unsigned* code) {
    return with_component(
        [&](ComponentState& c) { return c.registry.next_event(code) ? NB_STATUS_OK : NB_STATUS_NO_EVENT; });
}

int nb_native_next_umask(unsigned* code) {
    return with_component(
        [&](ComponentState& c) { return c.registry.next_umask(code) ? NB_STATUS_OK : NB_STATUS_NO_EVENT; });
}

int nb_native_name_to_code(const char* name, unsigned* code) {
    return nb_native_name_to_code_why(name, code, nullptr, 0);
}

int nb_native_name_to_code_why(const char* name, unsigned* code, char* why, size_t why_len) {
    return with_component([&](ComponentState& c) {
        auto r = c.registry.code_for(name);
        if (!r.ok()) {
            if (why) copy_text(why, why_len, r.error().message);
            return NB_STATUS_NO_EVENT;
        }
        *code = *r;
        return NB_STATUS_OK;
    });
}

int nb_native_code_to_name(unsigned code, char* buf, size_t len) {
    return with_component([&](ComponentState& c) {
        std::string s;
        return text_result(c.registry.name_of(code, &s), s, buf, len);
    });
}

int nb_native_code_to_descr(unsigned code, char* buf, size_t len) {
    return with_component([&](ComponentState& c) {
        std::string s;
        return text_result(c.registry.description_of(code, &s), s, buf, len);
    });
}

int nb_native_code_to_short_descr(unsigned code, char* buf, size_t len) {
    return with_component([&](ComponentState& c) {
        std::string s;
        return text_result(c.registry.short_description_of(code, &s), s, buf, len);
    });
}

void nb_event_set_init(struct nb_event_set* set, int domain) { init_event_set(set, domain); }

int nb_event_set_update(struct nb_event_set* set, const struct nb_thread* thread, const unsigned* codes,
                        unsigned num_codes, char* why, size_t why_len) {
    return with_component([&](ComponentState& c) {
        std::string reason;
        const CpuTarget target(c.backend(), *set);
        // A set attached to a CPU counts that CPU's logical processor, whichever thread schedules it.
        const unsigned lp = set->attached_cpu >= 0 ? set->logical_processor : thread ? thread->logical_processor : 0;
        const int s = update_event_set(c, set, lp, codes, num_codes, may_program(thread), &reason);
        copy_text(why, why_len, reason);
        return s;
    });
}

int nb_event_set_set_domain(struct nb_event_set* set, const struct nb_thread* thread, int domain, char* why,
                            size_t why_len) {
    return with_component([&](ComponentState& c) {
        std::string reason;
        const CpuTarget target(c.backend(), *set);
        const unsigned lp = (thread && set->attached_cpu < 0) ? thread->logical_processor : set->logical_processor;
        const int s = set_event_set_domain(c, set, lp, domain, may_program(thread), &reason);
        copy_text(why, why_len, reason);
        return s;
    });
}

int nb_event_set_start(struct nb_event_set* set, struct nb_thread* thread, char* why, size_t why_len) {
    return with_component([&](ComponentState& c) {
        std::string reason;
        const CpuTarget target(c.backend(), *set);
        const bool was_running = set->running != 0;
        const int s = start_event_set(c, set, &reason);
        if (s != NB_STATUS_OK) copy_text(why, why_len, reason);
        else if (why && why_len != 0) why[0] = '\0';
        if (thread && !was_running && set->running) ++thread->running_sets;
        return s;
    });
}

int nb_event_set_stop(struct nb_event_set* set, struct nb_thread* thread) {
    return with_component([&](ComponentState& c) {
        const CpuTarget target(c.backend(), *set);
        const bool was_running = set->running != 0;
        const int s = stop_event_set(c.backend(), set);
        if (thread && was_running && !set->running && thread->running_sets > 0) --thread->running_sets;
        return s;
    });
}

int nb_event_set_read(struct nb_event_set* set) {
    return with_component([&](ComponentState& c) {
        const CpuTarget target(c.backend(), *set);
        return read_event_set(c.backend(), set);
    });
}

int nb_event_set_reset(struct nb_event_set* set) {
    return with_component([&](ComponentState& c) {
        const CpuTarget target(c.backend(), *set);
        return reset_event_set(c.backend(), set);
    });
}

int nb_event_set_write(struct nb_event_set* set, const long long* values) {
    return with_component([&](ComponentState& c) {
        const CpuTarget target(c.backend(), *set);
        return write_event_set(c.backend(), set, values);
    });
}

void nb_event_set_cleanup(struct nb_event_set* set) {
    const std::int32_t cpu = set->attached_cpu;
    init_event_set(set, set->domain);
    set->attached_cpu = cpu;  // PAPI keeps the event set attached after cleanup
}

int nb_event_set_set_overflow(struct nb_event_set* set, unsigned event, long long threshold) {
    return with_component([&](ComponentState& c) { return set_event_set_overflow(c, set, event, threshold); });
}

int nb_event_set_take_overflow(struct nb_event_set* set, uint64_t* address, uint64_t* event_mask) {
    return with_component([&](ComponentState& c) {
        const CpuTarget target(c.backend(), *set);
        return take_event_set_overflow(c.backend(), set, address, event_mask);
    });
}

int nb_event_set_intervals(struct nb_event_set* set, long long* half_widths) {
    return with_component([&](ComponentState& c) {
        const CpuTarget target(c.backend(), *set);
        return event_set_intervals(c.backend(), set, half_widths);
    });
}

int nb_event_set_pebs_sample(const struct nb_event_set* set, struct papi_netburst_pebs_sample* out) {
    if (set->pebs_samples == 0) return NB_STATUS_NO_EVENT;
    *out = set->pebs_last;
    return NB_STATUS_OK;
}

int nb_event_set_attach_cpu(struct nb_event_set* set, unsigned cpu, char* why, size_t why_len) {
    return with_component([&](ComponentState& c) -> int {
        std::string reason;
        unsigned lp = 0;
        const IoStatus s = c.backend().attach_cpu(cpu, &lp, &reason);
        if (s != IoStatus::Ok) {
            copy_text(why, why_len, reason);
            return s == IoStatus::Unsupported ? NB_STATUS_UNSUPPORTED : NB_STATUS_INVALID;
        }
        // Schedule the events again for the attached CPU's logical processor; on failure nothing changes.
        nb_event_set next = *set;
        next.attached_cpu = static_cast<std::int32_t>(cpu);
        next.logical_processor = static_cast<std::uint8_t>(lp);
        next.scheduled_domain = -1;  // a new target: never taken for the schedule the set already has
        const CpuTarget target(c.backend(), next);
        std::vector<unsigned> codes(set->codes, set->codes + set->num_events);
        const int status =
            update_event_set(c, &next, lp, codes.data(), set->num_events, /*may_program=*/false, &reason);
        copy_text(why, why_len, reason);
        if (status == NB_STATUS_OK) *set = next;
        return status;
    });
}

}  // extern "C"
