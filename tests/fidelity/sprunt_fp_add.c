/* The fp_add_latency benchmark of Sprunt's "Pentium 4 Performance-Monitoring Features" as a real program: "a long
 * series of serially dependent floating-point adds". Each loop trip is 16 dependent adds (x87 fadd, or SSE2 addsd) and
 * a counter decrement and branch. scripts/fidelity.sh runs it under netburst-run and prints uops retired per cycle
 * (doc/fidelity.md).
 *
 *   sprunt-fp-add x87|sse single|threads|processes TRIPS
 *
 * single: the loop once; threads: two threads of this process each run it; processes: this process and a forked
 * child each run it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long trips;
static int sse;

static void* run(void* unused) {
  (void)unused;
  long n = trips;
  if (sse) {
    double one = 1.0, sum = 1.0;
    __asm__ volatile(
        "1:\n"
        ".rept 16\n addsd %[one], %[sum]\n .endr\n"
        "dec %[n]\n jnz 1b\n"
        : [sum] "+x"(sum), [n] "+r"(n)
        : [one] "x"(one));
  } else {
    __asm__ volatile(
        "fld1\n fld1\n"
        "1:\n"
        ".rept 16\n fadd %%st(1), %%st\n .endr\n"
        "dec %[n]\n jnz 1b\n"
        "fstp %%st(0)\n fstp %%st(0)\n"
        : [n] "+r"(n)
        :
        : "st", "st(1)");
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 4 || (strcmp(argv[1], "x87") && strcmp(argv[1], "sse")) || (trips = atol(argv[3])) < 1) {
    fprintf(stderr, "usage: sprunt-fp-add x87|sse single|threads|processes TRIPS\n");
    return 2;
  }
  sse = strcmp(argv[1], "sse") == 0;
  if (strcmp(argv[2], "single") == 0) {
    run(NULL);
  } else if (strcmp(argv[2], "threads") == 0) {
    pthread_t a, b;
    if (pthread_create(&a, NULL, run, NULL) || pthread_create(&b, NULL, run, NULL)) return 1;
    pthread_join(a, NULL);
    pthread_join(b, NULL);
  } else if (strcmp(argv[2], "processes") == 0) {
    pid_t child = fork();
    if (child < 0) return 1;
    run(NULL);
    if (child == 0) _exit(0);
    int status;
    waitpid(child, &status, 0);
  } else {
    return 2;
  }
  return 0;
}
