/* Runs under netburst-run for the tests in netburst_run_test.cpp:
 *   guest_loops KIND N     runs one loop of asm/loops.S N times (int, branches, loads, stores, x87, sse_sd,
 *                          sse_ss, sse_pd, sse_ps, mmx, simd_int) and exits 0
 *   guest_loops pebs1-KIND N  the same with PEBS armed around the loop (IA32_PEBS_ENABLE's ENABLE_PEBS set by the
 *                          loop's first request, cleared by its second), so that the loop runs from translations
 *                          that take register snapshots
 *   guest_loops pebs0-KIND N  the same requests (writes of IA32_PEBS_ENABLE) without ENABLE_PEBS: what pebs1-KIND
 *                          runs (the names have one length: the program's start-up reads its arguments)
 *   guest_loops mix N      the x87 and the four SSE loops N times each, then one load from every 64-byte line of
 *                          4 MB (misses in the L1 and the L2): work for every FP metric and both load-miss metrics
 *   guest_loops syscalls N makes N getppid() system calls
 *   guest_loops query      prints what each MSR-channel call returns (natively: NB_NOT_EMULATED, 3)
 *   guest_loops lists      the same for NB_REQ_WRMSR_LIST and NB_REQ_READ_COUNTERS: a list whose second write
 *                          #GPs, a read of one counter against RDMSR and RDPMC, and refused arguments
 *   guest_loops exit N     exits with status N */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emulator/protocol/netburst_client.h"

typedef uint64_t (*loop_fn)(uint64_t, void*, const uint64_t*);
#define LOOP(name) uint64_t nb_loop_##name(uint64_t, void*, const uint64_t*);
LOOP(int) LOOP(branches) LOOP(loads) LOOP(stores) LOOP(x87) LOOP(sse_sd) LOOP(sse_ss) LOOP(sse_pd) LOOP(sse_ps)
LOOP(mmx) LOOP(simd_int) LOOP(fldcw)

static const struct {
    const char* name;
    loop_fn fn;
} loops[] = {
    {"int", nb_loop_int},       {"branches", nb_loop_branches}, {"loads", nb_loop_loads}, {"stores", nb_loop_stores},
    {"x87", nb_loop_x87},       {"sse_sd", nb_loop_sse_sd},     {"sse_ss", nb_loop_sse_ss}, {"sse_pd", nb_loop_sse_pd},
    {"sse_ps", nb_loop_sse_ps}, {"mmx", nb_loop_mmx},           {"simd_int", nb_loop_simd_int},
    {"fldcw", nb_loop_fldcw},
};

static uint64_t buffer[16] __attribute__((aligned(64)));

int main(int argc, char** argv) {
    if (argc == 2 && !strcmp(argv[1], "query")) {
        struct nb_emulator_info info;
        uint64_t v = 0;
        printf("query %d wrmsr %d rdmsr %d rdpmc %d status %d\n", nb_query(&info), nb_wrmsr(0x3b8, 0),
               nb_rdmsr(0x3b8, &v), nb_rdpmc(12, &v), nb_counter_status(12));
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "lists")) {
        /* CRU_ESCR0 (0x3B8) and IQ_COUNTER0 (counter 12, 0x30C) written, then an address that is no MSR. */
        static const struct nb_wrmsr_entry list[3] = {{0x3b8, 0, 0x4000000}, {0x30c, 0, 12345}, {0x12345, 0, 1}};
        uint32_t made = 99;
        const int write = nb_wrmsr_list(list, 3, &made);
        const int second = nb_wrmsr_list(list, 2, NULL);
        uint64_t escr = 0, cccr[18] = {0}, value[18] = {0}, cccr_one = 1, value_one = 1;
        nb_rdmsr(0x3b8, &escr);
        const int read = nb_read_counters(1u << 12, cccr, value);
        nb_rdmsr(0x36c, &cccr_one);
        nb_rdpmc(12, &value_one);
        printf("lists write %d made %u then %d escr %d read %d value %llu same %d badmask %d badlist %d\n", write,
               made, second, escr == 0x4000000, read, (unsigned long long)value[12],
               cccr[12] == cccr_one && value[12] == value_one && value[11] == 0,
               nb_read_counters(1u << 18, cccr, value), nb_wrmsr_list(NULL, 1, NULL));
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: guest_loops KIND N | syscalls N | query | exit N\n");
        return 2;
    }
    const uint64_t n = strtoull(argv[2], NULL, 10);
    if (!strcmp(argv[1], "exit")) return (int)n;
    if (!strcmp(argv[1], "mix")) {
        const uint64_t none[12] = {NB_REQ_COUNTER_STATUS, 0, 0, 0, 0, 0, NB_REQ_COUNTER_STATUS, 0, 0, 0, 0, 0};
        const loop_fn fp[] = {nb_loop_x87, nb_loop_sse_sd, nb_loop_sse_ss, nb_loop_sse_pd, nb_loop_sse_ps};
        for (size_t i = 0; i < sizeof fp / sizeof fp[0]; i++)
            if (fp[i](n, buffer, none) != n) return 1;
        const size_t words = 4u << 20 >> 3;
        volatile uint64_t* big = calloc(words, sizeof *big);
        if (!big) return 1;
        uint64_t sum = 0;
        for (size_t i = 0; i < words; i += 8) sum += big[i];
        return sum == 0 ? 0 : 1;
    }
    if (!strcmp(argv[1], "syscalls")) {
        for (uint64_t i = 0; i < n; i++) syscall(SYS_getppid);
        return 0;
    }
    /* Two harmless requests around the loop keep the instruction stream the same as when it is measured. */
    const uint64_t requests[12] = {NB_REQ_COUNTER_STATUS, 0, 0, 0, 0, 0, NB_REQ_COUNTER_STATUS, 0, 0, 0, 0, 0};
    /* pebs1-KIND and pebs0-KIND: two writes of IA32_PEBS_ENABLE (0x3F1), the first with ENABLE_PEBS (bit 25) or
     * without. */
    uint64_t pebs[12] = {NB_REQ_WRMSR, 0x3F1, 0, 0, 0, 0, NB_REQ_WRMSR, 0x3F1, 0, 0, 0, 0};
    const char* kind = argv[1];
    const uint64_t* around = requests;
    if (!strncmp(kind, "pebs", 4) && kind[5] == '-') {  /* the same instructions for both */
        pebs[2] = (uint64_t)(kind[4] & 1) << 25;
        kind += 6;
        around = pebs;
    }
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++)
        if (!strcmp(kind, loops[i].name)) return loops[i].fn(n, buffer, around) == n ? 0 : 1;
    fprintf(stderr, "guest_loops: unknown loop %s\n", argv[1]);
    return 2;
}
