/* Runs under netburst-run (without -e: it programs the PMU itself). Applies PROGRAM, then for every event of the
 * program on its logical processor, every loop of asm/loops.S and every N given, runs the loop N times between
 * two exact reads and prints
 *     EVENT-INDEX LOOP N COUNT STATUS
 * where STATUS is what NB_REQ_COUNTER_STATUS says of the counter (0: supported, 2: unsupported).
 * netburst_run_test.cpp compares COUNT with the loop's known count plus the fixed overhead of loops.S. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/integration/guest_program.h"

static uint64_t buffer[16] __attribute__((aligned(64)));

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: guest_measure PROGRAM N...\n");
        return 2;
    }
    struct guest_program p;
    if (guest_read_program(argv[1], &p) != 0) {
        fprintf(stderr, "guest_measure: %s: not an event program\n", argv[1]);
        return 2;
    }
    const unsigned lp = guest_lp();
    if (guest_apply_program(&p, lp) != 0) {
        fprintf(stderr, "guest_measure: the emulator refused the program (or this is not netburst-run)\n");
        return 1;
    }
    for (unsigned e = 0; e < p.num_events; e++) {
        if (p.event_lp[e] != lp) continue;
        for (unsigned l = 0; guest_loop_names[l]; l++) {
            for (int a = 2; a < argc; a++) {
                const uint64_t n = strtoull(argv[a], NULL, 10);
                const uint64_t count =
                    guest_measure(guest_find_loop(guest_loop_names[l]), n, (int)p.event_counter[e], buffer);
                printf("%u %s %llu %llu %d\n", e, guest_loop_names[l], (unsigned long long)n,
                       (unsigned long long)count, nb_counter_status(p.event_counter[e]));
            }
        }
    }
    return 0;
}
