#include "tests/integration/guest_program.h"

#include <stdio.h>
#include <string.h>

#define LOOP(name) uint64_t nb_loop_##name(uint64_t, void*, const uint64_t*);
LOOP(int) LOOP(branches) LOOP(loads) LOOP(stores) LOOP(x87) LOOP(sse_sd) LOOP(sse_ss) LOOP(sse_pd) LOOP(sse_ps)
LOOP(mmx) LOOP(simd_int)

const char* const guest_loop_names[] = {"int",    "branches", "loads",  "stores", "x87",      "sse_sd",
                                        "sse_ss", "sse_pd",   "sse_ps", "mmx",    "simd_int", NULL};
static const guest_loop_fn loop_fns[] = {nb_loop_int,    nb_loop_branches, nb_loop_loads,  nb_loop_stores,
                                         nb_loop_x87,    nb_loop_sse_sd,   nb_loop_sse_ss, nb_loop_sse_pd,
                                         nb_loop_sse_ps, nb_loop_mmx,      nb_loop_simd_int};

guest_loop_fn guest_find_loop(const char* name) {
    for (unsigned i = 0; guest_loop_names[i]; i++)
        if (!strcmp(name, guest_loop_names[i])) return loop_fns[i];
    return NULL;
}

int guest_read_program(const char* path, struct guest_program* p) {
    memset(p, 0, sizeof *p);
    FILE* f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    int bad = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned lp, index, counter;
        unsigned long long msr, value, mask;
        if (sscanf(line, "wrmsr %u %llx %llx", &lp, &msr, &value) == 3 && lp < 2 &&
            p->num_writes[lp] < GUEST_MAX_WRITES) {
            p->msr[lp][p->num_writes[lp]] = (uint32_t)msr;
            p->value[lp][p->num_writes[lp]++] = value;
        } else if (sscanf(line, "event %u %u %u %llx", &index, &lp, &counter, &mask) == 4 &&
                   index == p->num_events && index < GUEST_MAX_EVENTS) {
            p->event_lp[index] = lp;
            p->event_counter[index] = counter;
            p->num_events++;
        } else if (strncmp(line, "netburst-program", 16) != 0) {
            bad = 1;
        }
    }
    fclose(f);
    return bad ? -1 : 0;
}

int guest_apply_program(const struct guest_program* p, unsigned lp) {
    for (unsigned i = 0; i < p->num_writes[lp]; i++)
        if (nb_wrmsr(p->msr[lp][i], p->value[lp][i]) != NB_OK) return -1;
    return 0;
}

unsigned guest_lp(void) {
    struct nb_emulator_info info;
    return nb_query(&info) == NB_OK ? info.logical_processor : 0;
}

uint64_t guest_measure(guest_loop_fn loop, uint64_t n, int counter, uint64_t* buffer) {
    uint64_t start = 0, end = 0;
    const uint64_t request = counter >= 0 ? NB_REQ_RDPMC : NB_REQ_COUNTER_STATUS;
    const uint64_t c = counter >= 0 ? (uint64_t)counter : 0;
    const uint64_t blocks[12] = {request, c, (uint64_t)&start, 0, 0, 0, request, c, (uint64_t)&end, 0, 0, 0};
    loop(n, buffer, blocks);
    return (end - start) & ((1ull << 40) - 1);
}
