/* The netburst component's own API beside PAPI's: what a PEBS sample holds that PAPI's overflow handler cannot
 * receive. doc/sampling.md, "PEBS through PAPI".
 *
 * An event with libpfm4's :precise=N modifier (N 1-3, all the same on NetBurst: PEBS has no skid) and overflow set
 * with PAPI_overflow samples by PEBS. The handler's `address` is the record's EIP, the instruction that caused the
 * event; inside the handler papi_netburst_get_pebs_sample() gives the whole record. */
#ifndef PAPI_NETBURST_H
#define PAPI_NETBURST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record fields, in the order of the 64-bit PEBS record. */
enum papi_netburst_pebs_field {
    PAPI_NETBURST_EFLAGS, PAPI_NETBURST_EIP,
    PAPI_NETBURST_EAX, PAPI_NETBURST_EBX, PAPI_NETBURST_ECX, PAPI_NETBURST_EDX,
    PAPI_NETBURST_ESI, PAPI_NETBURST_EDI, PAPI_NETBURST_EBP, PAPI_NETBURST_ESP,
    PAPI_NETBURST_R8, PAPI_NETBURST_R9, PAPI_NETBURST_R10, PAPI_NETBURST_R11,
    PAPI_NETBURST_R12, PAPI_NETBURST_R13, PAPI_NETBURST_R14, PAPI_NETBURST_R15,
    PAPI_NETBURST_PEBS_FIELDS
};

struct papi_netburst_pebs_sample {
    uint64_t field[PAPI_NETBURST_PEBS_FIELDS]; /* EFLAGS, EIP and the general registers at the instruction's start
                                                  (RAX... on x86-64: the record's fields are 64 bits wide) */
    uint32_t valid;            /* bit f: field[f] holds the machine's value. Under netburst-run: every field
                                  (the tool snapshots the registers while PEBS is armed) */
    uint32_t has_data_address; /* the emulator's addition: the sampled load's or store's linear address */
    uint64_t data_address;
    uint64_t sequence;         /* 1 for the set's first sample since PAPI_start, then 2, ... */
};

/* Under netburst-run --timing=sampled (doc/sampled-timing.md) a cycle-driven event's count is an estimate: for each
 * event of EventSet, in the order they were added, half_widths[i] receives the half-width of the 99.7 % confidence
 * interval of its count since PAPI_start or PAPI_reset (so the interval of a measured region is its own when the
 * region starts with PAPI_start or PAPI_reset). 0: the count is exact (architectural events, --timing=exact, real
 * hardware, or a region short enough to be timed throughout); -1: the sample cannot bound it (too few events in the
 * sampled units, or a ratio or formula of counts). PAPI_OK; PAPI_ENOEVST when EventSet is not a netburst event set.
 * half_widths must hold one entry per event of the set. */
int papi_netburst_get_intervals(int EventSet, long long *half_widths);

/* The PEBS sample being dispatched to EventSet's overflow handler (call it from the handler), or after the handler
 * the last one. PAPI_OK; PAPI_ENOEVST when EventSet is not a netburst event set; PAPI_ENOEVNT when it has taken
 * no PEBS sample since it started. */
int papi_netburst_get_pebs_sample(int EventSet, struct papi_netburst_pebs_sample *out);

#ifdef __cplusplus
}
#endif

#endif /* PAPI_NETBURST_H */
