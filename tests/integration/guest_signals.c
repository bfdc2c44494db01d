/* Runs under netburst-run: signals, fork and exec.
 *   guest_signals          a SIGUSR1 handler runs a known loop, five times; then the process forks, the child runs
 *                          another loop and the parent waits for it. Exit 0 when all of it ran.
 *   guest_signals pmu      as above, and the parent writes an ESCR first: the child, which starts on a fresh PMU,
 *                          must read back zero, and the parent its own value after the fork (run it without -e,
 *                          whose event program would be in those registers)
 *   guest_signals exec     as the first, but the child execs this program with "loop", which is counted when
 *                          netburst-run follows exec'd programs
 *   guest_signals loop     runs one loop and exits */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emulator/protocol/netburst_client.h"

uint64_t nb_loop_int(uint64_t, void*, const uint64_t*);

#define CRU_ESCR0 0x3b8u
#define MARK 0x00000c00u /* an ESCR value (event-mask bits only) that no enabled counter uses */

static uint64_t buffer[16];
static const uint64_t requests[12] = {NB_REQ_COUNTER_STATUS, 0, 0, 0, 0, 0, NB_REQ_COUNTER_STATUS, 0, 0, 0, 0, 0};
static volatile sig_atomic_t handled;

static void on_usr1(int sig) {
    (void)sig;
    nb_loop_int(10000, buffer, requests);
    handled++;
}

int main(int argc, char** argv) {
    if (argc > 1 && !strcmp(argv[1], "loop")) return nb_loop_int(30000, buffer, requests) == 30000 ? 0 : 1;
    const int check_pmu = argc > 1 && !strcmp(argv[1], "pmu");
    if (check_pmu && nb_wrmsr(CRU_ESCR0, MARK) != NB_OK) {
        fprintf(stderr, "guest_signals: not under netburst-run\n");
        return 1;
    }
    signal(SIGUSR1, on_usr1);
    for (int i = 0; i < 5; i++) raise(SIGUSR1);
    if (handled != 5) {
        fprintf(stderr, "guest_signals: %d of 5 signals handled\n", (int)handled);
        return 1;
    }
    const pid_t child = fork();
    if (child == 0) {
        uint64_t v = 1;
        if (check_pmu && (nb_rdmsr(CRU_ESCR0, &v) != NB_OK || v != 0)) {
            fprintf(stderr, "guest_signals: the child's PMU is not fresh (CRU_ESCR0 = %#llx)\n", (unsigned long long)v);
            _exit(1);
        }
        if (argc > 1 && !strcmp(argv[1], "exec")) {
            execl(argv[0], argv[0], "loop", (char*)NULL); /* not /proc/self/exe: under Valgrind that is the tool */
            _exit(1);
        }
        _exit(nb_loop_int(20000, buffer, requests) == 20000 ? 0 : 1);
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "guest_signals: the child failed (status %#x)\n", status);
        return 1;
    }
    uint64_t v = 0;
    if (check_pmu) {
        if (nb_rdmsr(CRU_ESCR0, &v) != NB_OK || v != MARK) {
            fprintf(stderr, "guest_signals: the parent's PMU changed across fork (CRU_ESCR0 = %#llx)\n",
                    (unsigned long long)v);
            return 1;
        }
        nb_wrmsr(CRU_ESCR0, 0);
    }
    return 0;
}
