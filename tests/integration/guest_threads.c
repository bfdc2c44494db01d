/* Runs under netburst-run. Eight threads each count their own work through the MSR channel: thread t applies
 * PROGRAM (retired instructions, made by netburst_run_test.cpp) to its own virtual PMU, waits for the others,
 * then measures nb_loop_int with n = 50,000 * (t + 1) while they measure theirs, so that Valgrind switches
 * threads inside the measured loops. Prints one line per thread:
 *     THREAD N COUNT
 * With "plain" instead of PROGRAM the threads run the same loops and measure nothing (for netburst-run -e). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "tests/integration/guest_program.h"

#define THREADS 8

static struct guest_program program;
static int measure;
static pthread_barrier_t barrier;

struct work {
    unsigned index;
    uint64_t n, count;
    int failed;
    uint64_t buffer[16];
};

static void* run(void* arg) {
    struct work* w = arg;
    const unsigned lp = guest_lp();
    int counter = -1;
    if (measure) {
        for (unsigned e = 0; e < program.num_events; e++)
            if (program.event_lp[e] == lp) counter = (int)program.event_counter[e];
        if (counter < 0 || guest_apply_program(&program, lp) != 0) w->failed = 1;
    }
    pthread_barrier_wait(&barrier);
    w->count = guest_measure(guest_find_loop("int"), w->n, w->failed ? -1 : counter, w->buffer);
    return NULL;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: guest_threads PROGRAM|plain\n");
        return 2;
    }
    measure = strcmp(argv[1], "plain") != 0;
    if (measure && guest_read_program(argv[1], &program) != 0) {
        fprintf(stderr, "guest_threads: %s: not an event program\n", argv[1]);
        return 2;
    }
    pthread_barrier_init(&barrier, NULL, THREADS);
    static struct work work[THREADS];
    pthread_t threads[THREADS];
    for (unsigned t = 0; t < THREADS; t++) {
        work[t].index = t;
        work[t].n = 50000ull * (t + 1);
        pthread_create(&threads[t], NULL, run, &work[t]);
    }
    int failed = 0;
    for (unsigned t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        failed |= work[t].failed;
        printf("%u %llu %llu\n", t, (unsigned long long)work[t].n, (unsigned long long)work[t].count);
    }
    return failed;
}
