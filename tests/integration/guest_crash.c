/* Runs under netburst-run: executes a known loop (4,000,000 instructions in nb_loop_int), then crashes with a
 * null-pointer store, in the main thread ("main") or in a second thread while the main thread waits ("thread").
 * netburst_run_test.cpp checks that the counts up to the crash are reported and that nothing hangs. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "emulator/protocol/netburst_client.h"

uint64_t nb_loop_int(uint64_t, void*, const uint64_t*);

static uint64_t buffer[16];

static void* work_then_crash(void* arg) {
    const uint64_t requests[12] = {NB_REQ_COUNTER_STATUS, 0, 0, 0, 0, 0, NB_REQ_COUNTER_STATUS, 0, 0, 0, 0, 0};
    nb_loop_int(1000000, buffer, requests);
    *(volatile int*)arg = 1;
    return NULL;
}

int main(int argc, char** argv) {
    if (argc > 1 && !strcmp(argv[1], "thread")) {
        pthread_t t;
        pthread_create(&t, NULL, work_then_crash, NULL);
        pthread_join(t, NULL);
        return 0;
    }
    work_then_crash(NULL);
    return 0;
}
