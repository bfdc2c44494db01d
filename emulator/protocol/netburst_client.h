/* The MSR channel between a guest program (the PAPI component inside libpapi) and the emulator running it under
 * the netburst Valgrind tool (netburst-run). C, header-only, usable from C and C++.
 *
 * Each call is a Valgrind client request: a special no-op instruction sequence that, under the tool, transfers
 * control synchronously into the emulator. The tool first accounts every guest instruction executed so far, so a
 * read after N guest instructions reflects exactly those N instructions. Natively, or under another tool, the same
 * sequence does nothing and the calls report NB_NOT_EMULATED.
 */
#ifndef NETBURST_CLIENT_H
#define NETBURST_CLIENT_H

#include <stdint.h>
#include <valgrind/valgrind.h>

#ifdef __cplusplus
extern "C" {
#endif

enum nb_client_request {
    NB_REQ_QUERY = VG_USERREQ_TOOL_BASE('N', 'B'), /* arg1: struct nb_emulator_info* to fill */
    NB_REQ_WRMSR,                                  /* arg1: msr, arg2: value's low 32 bits, arg3: its high 32 */
    NB_REQ_RDMSR,                                  /* arg1: msr, arg2: uint64_t* value */
    NB_REQ_RDPMC,                                  /* arg1: ecx (counter), arg2: uint64_t* value */
    NB_REQ_COUNTER_STATUS,                         /* arg1: counter; returns NB_OK or NB_UNSUPPORTED */
    NB_REQ_PMI_SIGNAL,                             /* arg1: signal number for the calling thread's PMIs, 0: none */
    NB_REQ_TAKE_PMI,                               /* arg1: struct nb_pmi* to fill; NB_OK or NB_NO_PMI */
    NB_REQ_TAKE_PEBS,                              /* arg1: struct nb_pebs_note* to fill; NB_OK or NB_NO_PMI */
    NB_REQ_COUNTER_INTERVAL,                       /* arg1: counter, arg2: uint64_t* half-width of its estimate */
    NB_REQ_WRMSR_LIST,                             /* arg1: const struct nb_wrmsr_entry*, arg2: count,
                                                      arg3: uint32_t* made (or 0) */
    NB_REQ_READ_COUNTERS                           /* arg1: counter mask, arg2: uint64_t cccr[18],
                                                      arg3: uint64_t value[18] */
};

/* Results of the calls. */
#define NB_OK 0
#define NB_GP_FAULT 1        /* the emulated wrmsr/rdmsr/rdpmc raised #GP: unknown MSR or reserved bit */
#define NB_UNSUPPORTED 2     /* the counter counts something the emulator does not model */
#define NB_NOT_EMULATED 3    /* not running under netburst-run */
#define NB_NO_PMI 4          /* NB_REQ_TAKE_PMI: no interrupt is queued for the calling thread */

/* 3: NB_REQ_PMI_SIGNAL and NB_REQ_TAKE_PMI (PAPI's hardware overflow). 4: struct nb_pmi says whether the PEBS
 * buffer's threshold raised the PMI, and NB_REQ_TAKE_PEBS hands out the PEBS records written (PAPI's precise
 * overflow). 5: NB_REQ_COUNTER_INTERVAL (--timing=sampled's confidence intervals). 6: NB_REQ_WRMSR_LIST and
 * NB_REQ_READ_COUNTERS, the accesses of an event set's start, stop, reset or read in one request. 7: NB_REQ_WRMSR
 * passes its value in two halves, so that an i386 program's request words (32 bits) carry all 64 bits. */
#define NB_CLIENT_PROTOCOL_VERSION 7

/* NB_REQ_COUNTER_INTERVAL's half-width of an estimate the sample cannot bound (doc/sampled-timing.md). */
#define NB_INTERVAL_UNBOUNDED UINT64_MAX

struct nb_emulator_info {
    uint32_t protocol_version; /* NB_CLIENT_PROTOCOL_VERSION */
    uint32_t model;            /* CPUID family 0FH model of the emulated processor */
    uint32_t stepping;
    uint32_t hyper_threading;  /* 1 when the emulated package has two logical processors */
    uint32_t logical_processor;/* the logical processor the calling guest thread runs on (0 or 1) */
    uint32_t has_l3;
    uint32_t per_thread;       /* 1: each guest thread has its own virtual PMU (default); 0: one CPU-wide PMU */
    uint32_t kernel_model;     /* 1: system calls run a documented synthetic kernel path at CPL 0 */
    uint64_t misc_enable;      /* IA32_MISC_ENABLE as the emulated processor reports it */
    /* Since protocol 2: the caches and TLBs of the core model, so that PAPI's hardware information describes them
     * rather than what CPUID says under Valgrind (a Core i7 of Valgrind's). Sizes in bytes, 0 when absent. */
    uint32_t l1d_size, l1d_ways, l1d_line;
    uint32_t trace_cache_uops, trace_cache_ways;
    uint32_t l2_size, l2_ways, l2_sector; /* the 64-byte sector, which CPUID reports as the line */
    uint32_t l3_size, l3_ways, l3_sector;
    uint32_t itlb_entries, itlb_ways, dtlb_entries; /* 4 KB pages; the DTLB is fully associative */
};

/* A performance-monitoring interrupt of the calling thread's PMU, as the model took it (emulator/pmu/pmi.h).
 * Once a thread has named a signal (NB_REQ_PMI_SIGNAL), each PMI its PMU raises is queued for it and the signal
 * is sent to it. Valgrind delivers the signal when its scheduler next polls, some instructions after the modelled
 * delivery point, so the handler takes the modelled facts with NB_REQ_TAKE_PMI (oldest first) rather than reading
 * them from its signal context. */
struct nb_pmi {
    uint64_t eip;        /* the instruction the interrupt returns to, after the modelled skid; 0: unknown (the
                            thread stopped running before the instruction retired) */
    uint64_t cycle;      /* the emulated cycle it was taken at */
    uint32_t overflowed; /* counters 0-17 whose OVF flag was set, as a bit mask */
    uint32_t logical_processor;
    uint32_t pebs;       /* since protocol 4: raised by the PEBS buffer reaching its interrupt threshold (its
                            records come through NB_REQ_TAKE_PEBS) */
    uint32_t reserved;
};

/* A PEBS record the calling thread's PMU wrote into its DS save area's buffer (protocol 4). Once the thread has
 * named a PMI signal, every record is noted, oldest first, until taken with NB_REQ_TAKE_PEBS (32 are kept; older
 * ones lose their note). The record holds EIP and, for the instructions PEBS can sample, EFLAGS and every general
 * register at the instruction's start (the tool snapshots them while PEBS is armed); `valid` says which record
 * fields hold values (bit i for field i: 0 EFLAGS, 1 EIP, 2-9 EAX EBX ECX EDX ESI EDI EBP ESP, 10-17 R8-R15). */
struct nb_pebs_note {
    uint64_t record;       /* the record's linear address */
    uint64_t data_address; /* the sampled load's or store's address, which the hardware record does not hold; 0:
                              the sampled uop has no memory operand */
    uint32_t valid;
    /* When this is the last record written and no other is waiting, the tool moves the PEBS index back to the
     * buffer's base, as a PMI handler does with the PMU frozen (the guest cannot: the emulated PMU may write a
     * record between its read of the index and its write): the number of records the buffer held, else 0. */
    uint32_t rewound;
};

/* One write of an NB_REQ_WRMSR_LIST. The layout is the PAPI component's stored writes (struct nb_msr_write), so an
 * event set hands its start or stop writes over as they are. */
struct nb_wrmsr_entry {
    uint32_t msr;
    uint32_t reserved; /* ignored */
    uint64_t value;
};
/* The most writes one list may hold: an event set's start (tagging MSRs, 45 ESCRs, 18 counters and 18 CCCRs) fits. */
#define NB_WRMSR_LIST_MAX 128
/* The counters there are (NB_REQ_READ_COUNTERS' mask has bits 0-17). */
#define NB_NUM_PMU_COUNTERS 18

/* Fills *info and returns NB_OK under the emulator; NB_NOT_EMULATED otherwise. */
static inline int nb_query(struct nb_emulator_info* info) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_QUERY, info, 0, 0, 0, 0);
}

static inline int nb_wrmsr(uint32_t msr, uint64_t value) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_WRMSR, msr, (uint32_t)value,
                                                (uint32_t)(value >> 32), 0, 0);
}

static inline int nb_rdmsr(uint32_t msr, uint64_t* value) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_RDMSR, msr, value, 0, 0, 0);
}

/* RDPMC semantics: ecx bits 4:0 select counter 0-17, bit 31 asks for the low 32 bits. */
static inline int nb_rdpmc(uint32_t ecx, uint64_t* value) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_RDPMC, ecx, value, 0, 0, 0);
}

static inline int nb_counter_status(uint32_t counter) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_COUNTER_STATUS, counter, 0, 0, 0, 0);
}

/* The half-width of the 99.7 % confidence interval of the counter's value since software last wrote it: 0 when the
 * value is exact (--timing=exact, or a counter of architectural events), NB_INTERVAL_UNBOUNDED when the sample cannot
 * bound it. NB_OK, NB_GP_FAULT for a counter outside 0-17, or NB_NOT_EMULATED. */
static inline int nb_counter_interval(uint32_t counter, uint64_t* half_width) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_COUNTER_INTERVAL, counter, half_width, 0, 0,
                                                0);
}

/* The requests below make several accesses at one point of the program, as a driver would in one system call:
 * every instruction before the request is counted, none between the accesses. A list the program cannot read (or
 * longer than NB_WRMSR_LIST_MAX), or an array for the answers it cannot write, is NB_GP_FAULT with nothing done.
 * Since protocol 6. */

/* What nb_wrmsr does for list[0..count), in order, stopping at the first write that fails: NB_OK when all were
 * made, else that write's result; *made (when made is not null) is how many were made. */
static inline int nb_wrmsr_list(const void* list, uint32_t count, uint32_t* made) { /* struct nb_wrmsr_entry[] */
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_WRMSR_LIST, list, count, made, 0, 0);
}

/* For each counter c whose bit is set in mask: its CCCR into cccr[c] (read first), then its full 40-bit value into
 * value[c]. The other entries are left as they were. NB_OK, or NB_GP_FAULT for a bit above 17. */
static inline int nb_read_counters(uint32_t mask, uint64_t* cccr, uint64_t* value) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_READ_COUNTERS, mask, cccr, value, 0, 0);
}

/* Names the signal the tool sends the calling thread for each PMI of its PMU (0: none; queued PMIs are dropped). */
static inline int nb_pmi_signal(int signo) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_PMI_SIGNAL, signo, 0, 0, 0, 0);
}

/* Takes the calling thread's oldest queued PMI: NB_OK, NB_NO_PMI, or NB_NOT_EMULATED. */
static inline int nb_take_pmi(struct nb_pmi* pmi) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_TAKE_PMI, pmi, 0, 0, 0, 0);
}

/* Takes the calling thread's oldest PEBS record note: NB_OK, NB_NO_PMI (none), or NB_NOT_EMULATED. */
static inline int nb_take_pebs(struct nb_pebs_note* note) {
    return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NB_NOT_EMULATED, NB_REQ_TAKE_PEBS, note, 0, 0, 0, 0);
}

#ifdef __cplusplus
}
#endif

#endif /* NETBURST_CLIENT_H */
