/* The interface between the PAPI glue (netburst_papi.c: C, PAPI's types and conventions) and the component core
 * (C++, no PAPI headers, unit-tested without PAPI). The glue converts PAPI's arguments into these calls and the
 * core's status codes into PAPI's error codes; everything that knows the hardware is below this line.
 *
 * No call throws, and none allocates memory except component init, the native-event registry and update (which
 * PAPI's multiplexing also calls from its signal handler, but then with the set's own events, which returns at
 * once). start, stop, read, reset and write only touch the event set and the backend, so PAPI may call read from
 * its overflow and multiplexing signal handlers, also when the signal interrupts a call on the same set (the read
 * then returns the last completed read's values). */
#ifndef NETBURST_COMPONENT_GLUE_API_H
#define NETBURST_COMPONENT_GLUE_API_H

#include <stddef.h>
#include <stdint.h>

#include "papi_netburst.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nb_status {
    NB_STATUS_OK = 0,
    NB_STATUS_NO_EVENT,     /* unknown native event or code */
    NB_STATUS_CONFLICT,     /* valid events that cannot be counted together (the reason is in `why`) */
    NB_STATUS_TOO_MANY,     /* more events than the PMU has counters */
    NB_STATUS_UNSUPPORTED,  /* the backend cannot count this (the emulator does not model it) */
    NB_STATUS_SYSTEM,       /* the backend refused an access */
    NB_STATUS_INVALID,      /* bad argument (domain, code) */
    NB_STATUS_NO_MEMORY,
    NB_STATUS_DISABLED      /* the component found no PMU (see nb_component_info.disabled_reason) */
};

#define NB_NUM_COUNTERS 18
/* Every native event needs at least one counter, so an event set never holds more than 18. */
#define NB_MAX_EVENTS 18
/* Start: 3 tagging MSRs, at most one ESCR, one counter clear and one CCCR per counter. */
#define NB_MAX_WRITES 64
#define NB_REASON_LEN 1024 /* PAPI_HUGE_STR_LEN */
/* PEBS: the DS save area with its buffer lives in the event set (64-bit layout: 0x48 bytes of management fields,
 * records of 144 bytes). 32 records cover the signal's delivery lag at periods of a few hundred events and up. */
#define NB_PEBS_RECORDS 32
#define NB_PEBS_AREA_BYTES (0x48 + NB_PEBS_RECORDS * 144)

/* Domains, with PAPI's values (PAPI_DOM_USER, PAPI_DOM_KERNEL). */
#define NB_DOMAIN_USER 1
#define NB_DOMAIN_KERNEL 2

struct nb_msr_write {
    uint32_t msr;
    uint32_t reserved;
    uint64_t value;
};

/* One event set: PAPI's control state for this component. Plain data of fixed size, so PAPI can allocate, copy
 * and free it without telling us; the scheduling result is kept as the MSR writes that start and stop it. */
struct nb_event_set {
    uint32_t num_events;
    uint32_t codes[NB_MAX_EVENTS];       /* native codes, in PAPI's NativeInfo order */
    int8_t counter_of[NB_MAX_EVENTS];    /* the counter holding each event's value */
    int32_t domain;                      /* NB_DOMAIN_* bits */
    int32_t scheduled_domain;            /* the domain the start and stop writes were made for */
    uint8_t logical_processor;           /* of the thread that owns the set */
    uint8_t running;
    uint8_t busy;                        /* inside read, stop, reset or write (see set_state.h: Busy) */
    uint16_t num_start_writes;
    uint16_t num_stop_writes;
    uint32_t read_counters;              /* counters whose values are reported, as a bit mask */
    uint32_t programmed_counters;        /* every counter the set enables (tagging units included) */
    uint8_t measurable;                  /* the backend was asked about this schedule and can count it */
    int8_t owner_of_counter[NB_NUM_COUNTERS]; /* the event whose recipe programs each counter, or -1 */
    struct nb_msr_write start_writes[NB_MAX_WRITES];
    struct nb_msr_write stop_writes[NB_MAX_WRITES];
    uint64_t cccr[NB_NUM_COUNTERS];      /* each counter's enabled CCCR value, to rewrite after an overflow */
    uint64_t last_raw[NB_NUM_COUNTERS];  /* the 40-bit value at the previous read */
    uint64_t total[NB_NUM_COUNTERS];     /* the 64-bit count */
    long long values[NB_MAX_EVENTS];     /* what read() hands PAPI, in event order */
    int32_t attached_cpu;                /* PAPI_CPU_ATTACH: the OS CPU counted; -1: the calling thread's CPU */
    /* PAPI's hardware overflow (nb_event_set_set_overflow): the counters that interrupt, each one's period, and
     * those whose reload waits for the call the interrupt came in (see overflow_reload.cpp, reload). */
    uint32_t overflow_counters;
    uint32_t reload_owed;
    uint64_t threshold[NB_NUM_COUNTERS];
    /* PEBS (an event with :precise): the event (-1: none), whether set_overflow armed it and its period, the armed
     * start and stop writes, the records written before the buffer's index was last rewound, and the sample the
     * handler is given (papi_netburst_pebs_sample). pebs_area is the DS save area; the PMU writes it. */
    int8_t pebs_event;
    uint8_t pebs_armed;
    uint64_t pebs_period;
    uint16_t num_pebs_start_writes;
    uint16_t num_pebs_stop_writes;
    struct nb_msr_write pebs_start_writes[NB_MAX_WRITES];
    struct nb_msr_write pebs_stop_writes[NB_MAX_WRITES];
    uint64_t pebs_records_before;
    uint64_t pebs_samples;
    struct papi_netburst_pebs_sample pebs_last;
    unsigned char pebs_area[NB_PEBS_AREA_BYTES] __attribute__((aligned(64)));
};

/* Does counter `counter` hold the set's PEBS (:precise) event? Its overflow is then sampled by PEBS records. */
static inline int nb_event_set_counter_is_pebs(const struct nb_event_set* set, int counter) {
    return set->pebs_event >= 0 && set->counter_of[set->pebs_event] == counter;
}

/* Per-thread context (PAPI's hwd_context_t for the thread that owns the event sets). */
struct nb_thread {
    uint8_t logical_processor;
    uint8_t running_sets; /* this thread's event sets started and not stopped: while one runs, update and
                             set_domain must not program the PMU to try another */
};

/* A cache of the emulated processor, in bytes (0: absent). */
struct nb_cache_geometry {
    unsigned size, ways, line;
};

/* Under netburst-run, the processor the emulator models, for PAPI's hardware information (which otherwise
 * describes the host). */
struct nb_emulated_cpu {
    int emulated; /* 0: real hardware, where PAPI's own detection is right and nothing below is set */
    unsigned model, stepping;
    struct nb_cache_geometry l1d, l2, l3;
    unsigned trace_cache_uops, trace_cache_ways;
    unsigned itlb_entries, itlb_ways, dtlb_entries; /* 4 KB pages; the DTLB is fully associative */
};

struct nb_component_info {
    char disabled_reason[NB_REASON_LEN]; /* empty when the component can count */
    char description[NB_REASON_LEN];     /* the processor counted on */
    char preset_section[64];             /* the section of papi_events.csv to load ("papi-netburst sse") */
    char preset_warning[NB_REASON_LEN];  /* a problem with the preset choice ($PAPI_NETBURST_FP), or empty */
    unsigned num_native_events;          /* events and metrics (not counting masks) */
    unsigned model;
    int cpu_attach;                      /* event sets can count any logical CPU (real hardware) */
    char notes[NB_REASON_LEN];           /* errata worked around, counters held by others: for verbose output */
    int interrupt_signal;                /* the signal a counter's overflow interrupt arrives as (PAPI's hardware
                                            overflow); 0 when the backend cannot interrupt the program */
    struct nb_emulated_cpu cpu;
};

/* Component: detect the PMU, build the native-event registry and choose the preset section. Returns
 * NB_STATUS_DISABLED with info->disabled_reason set when there is nothing to count on. */
int nb_component_init(struct nb_component_info* info);
void nb_component_shutdown(void);
int nb_thread_init(struct nb_thread* thread);
/* A context PAPI made with nb_thread_init ends (PAPI_unregister_thread, PAPI_shutdown, or the CPU context of an
 * attached event set going away). On real hardware the thread gets its CPU affinity back when its last context
 * ends. */
void nb_thread_shutdown(struct nb_thread* thread);

/* Native events. Codes are the component's own; enumeration walks events (with their masks as PAPI's umasks). */
int nb_native_first(unsigned* code);
int nb_native_next_event(unsigned* code);
int nb_native_next_umask(unsigned* code);
int nb_native_name_to_code(const char* name, unsigned* code);
/* The same, with the parser's explanation of a name that is not a native event in `why` (an unknown name's nearest
 * names, a modifier that does not apply: :precise on an event that cannot drive PEBS). */
int nb_native_name_to_code_why(const char* name, unsigned* code, char* why, size_t why_len);
int nb_native_code_to_name(unsigned code, char* buf, size_t len);
int nb_native_code_to_descr(unsigned code, char* buf, size_t len);       /* "event, masks:mask" for umasks */
int nb_native_code_to_short_descr(unsigned code, char* buf, size_t len);

/* Event sets. `why` (may be NULL) receives the explanation of a failure, for PAPI's error output. `thread` is the
 * context of the thread that owns the set, as PAPI passes it; it may be NULL. */
void nb_event_set_init(struct nb_event_set* set, int domain);
/* Schedules the events for the thread that owns the set (NULL keeps the logical processor the set was scheduled
 * for). On the emulator, when none of the thread's sets runs, the schedule is also tried on the PMU, and events the
 * emulator does not model fail here with NB_STATUS_UNSUPPORTED instead of at start. */
int nb_event_set_update(struct nb_event_set* set, const struct nb_thread* thread, const unsigned* codes,
                        unsigned num_codes, char* why, size_t why_len);
int nb_event_set_set_domain(struct nb_event_set* set, const struct nb_thread* thread, int domain, char* why,
                            size_t why_len);
/* Start and stop keep thread->running_sets. */
int nb_event_set_start(struct nb_event_set* set, struct nb_thread* thread, char* why, size_t why_len);
int nb_event_set_stop(struct nb_event_set* set, struct nb_thread* thread);
int nb_event_set_read(struct nb_event_set* set); /* fills set->values */
int nb_event_set_reset(struct nb_event_set* set);
int nb_event_set_write(struct nb_event_set* set, const long long* values);
void nb_event_set_cleanup(struct nb_event_set* set);
/* Hardware overflow. set_overflow: event `event` (PAPI's NativeInfo position) interrupts after every `threshold`
 * events (0: no longer); an event with :precise samples by PEBS instead, every threshold-th event (at least 2):
 * take_overflow then hands out each PEBS record first (*address the record's EIP, *event_mask the :precise event;
 * nb_event_set_pebs_sample gives the whole record), then the interrupts; only on a stopped set, with a backend that can interrupt (nb_component_info). The
 * interrupt arrives as the signal nb_component_info.interrupt_signal while the set runs; take_overflow, from its
 * handler, takes the oldest one: NB_STATUS_OK with the instruction it returns to (*address; 0 when the backend
 * does not know it) and the set's events whose counters overflowed (*event_mask, bit i for event i; 0 when the
 * interrupt was not this set's, or its counters were already reloaded), having reloaded those counters;
 * NB_STATUS_NO_EVENT when none is queued. */
int nb_event_set_set_overflow(struct nb_event_set* set, unsigned event, long long threshold);
int nb_event_set_take_overflow(struct nb_event_set* set, uint64_t* address, uint64_t* event_mask);
/* --timing=sampled (papi_netburst.h, papi_netburst_get_intervals): for each event of the set, the half-width of the
 * 99.7 % confidence interval of its count since the set started or was reset; 0 when the count is exact, -1 when
 * the sample cannot bound it. */
int nb_event_set_intervals(struct nb_event_set* set, long long* half_widths);
/* The set's current PEBS sample (papi_netburst.h): NB_STATUS_OK, or NB_STATUS_NO_EVENT when it has none. */
int nb_event_set_pebs_sample(const struct nb_event_set* set, struct papi_netburst_pebs_sample* out);

/* PAPI_CPU_ATTACH: the set counts logical CPU `cpu` (whatever runs there) instead of the calling thread's CPU,
 * and is scheduled again for that CPU's logical processor. Only with a backend that can (nb_component_info). */
int nb_event_set_attach_cpu(struct nb_event_set* set, unsigned cpu, char* why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif /* NETBURST_COMPONENT_GLUE_API_H */
