/* What the program sees of the processor under netburst-run (doc/guest-cpu.md).
 *
 *   guest_cpuid            prints the vendor, family, model, stepping, the feature flags libraries dispatch on,
 *                          the brand string and the leaf-2 descriptors, one "name value" per line
 *   guest_cpuid ssse3 N    also executes a pshufb (SSSE3, which no Pentium 4 has) N times, and prints its address
 *   guest_cpuid avx N      the same with a vaddps on ymm registers (AVX)
 *   guest_cpuid clock N    also times N rounds of 16 dependent imuls with rdtsc and clock_gettime(CLOCK_MONOTONIC)
 *                          and prints "tsc CYCLES" and "ns NANOSECONDS" (the clock the program sees)
 *   guest_cpuid itimer N   also runs the same N rounds with ITIMER_PROF firing every millisecond and a 5 ms
 *                          one-shot ITIMER_VIRTUAL, and prints the signals each delivered ("prof_ticks",
 *                          "virtual_ticks"), "tsc CYCLES" of the rounds, what getitimer read after them
 *                          ("prof_remaining_us") and the old interval setitimer returned ("prof_old_interval_us");
 *                          then arms ITIMER_PROF again for N/2 rounds ("prof_ticks_rearmed"), stops it with a
 *                          value in read-only memory, and prints the ticks of N more rounds ("prof_ticks_after_stop")
 *   guest_cpuid sleep N    also sleeps N microseconds (nanosleep), then waits N more in 100-microsecond sleeps until
 *                          clock_gettime(CLOCK_MONOTONIC) passes the deadline, then polls nothing for N/1000 ms,
 *                          and prints what the monotonic clock read across each ("slept_ns", "looped_ns",
 *                          "polled_ns"), the sleeps the loop took ("naps") and the process's CPU time across all
 *                          three ("cpu_ns")
 *   guest_cpuid fork N     runs N rounds of the imuls, then forks: each process prints how far its monotonic clock
 *                          moved across the fork ("child_step_ns", "parent_step_ns") and its CPU time
 *                          ("child_cpu_ns", "parent_cpu_ns") */
#include <cpuid.h>
#include <poll.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cpuid(unsigned leaf, unsigned sub, unsigned r[4]) { __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]); }

static int bit(unsigned v, int n) { return (int)((v >> n) & 1); }

/* Out of line, so that the report can name the function; each returns the address of its instruction. */
__attribute__((noinline)) unsigned long run_pshufb(void) {
    unsigned long at;
    __asm__ volatile("lea 1f(%%rip), %0\n\tpxor %%xmm0, %%xmm0\n1:\tpshufb %%xmm0, %%xmm0" : "=r"(at) : : "xmm0");
    return at;
}

__attribute__((noinline)) unsigned long run_vaddps(void) {
    unsigned long at;
    __asm__ volatile("lea 1f(%%rip), %0\n1:\tvaddps %%ymm1, %%ymm1, %%ymm0" : "=r"(at) : : "xmm0", "xmm1");
    return at;
}

__attribute__((noinline)) long imul_chain(long rounds) {
    long x = 3;
    for (long i = 0; i < rounds; ++i)
        __asm__ volatile(".rept 16\n\timul %0, %0\n\t.endr" : "+r"(x));
    return x;
}

static void time_imuls(long rounds) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    const unsigned long long t0 = __rdtsc();
    imul_chain(rounds);
    const unsigned long long t1 = __rdtsc();
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("tsc %llu\nns %lld\n", t1 - t0, (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
}

static volatile sig_atomic_t prof_ticks, virtual_ticks;

static void on_prof(int sig) { (void)sig; ++prof_ticks; }
static void on_virtual(int sig) { (void)sig; ++virtual_ticks; }

/* Read-only, as PAPI's multiplexing keeps the value it stops its timer with (sw_multiplex.c's itimestop). */
static const struct itimerval stopped = {{0, 0}, {0, 0}};

static void time_itimers(long rounds) {
    signal(SIGPROF, on_prof);
    signal(SIGVTALRM, on_virtual);
    const struct itimerval every_ms = {{0, 1000}, {0, 1000}}, once_5ms = {{0, 0}, {0, 5000}}, off = {{0, 0}, {0, 0}};
    struct itimerval now, old;
    setitimer(ITIMER_VIRTUAL, &once_5ms, NULL);
    setitimer(ITIMER_PROF, &every_ms, NULL);
    const unsigned long long t0 = __rdtsc();
    imul_chain(rounds);
    const unsigned long long t1 = __rdtsc();
    getitimer(ITIMER_PROF, &now);
    setitimer(ITIMER_PROF, &off, &old);
    printf("tsc %llu\nprof_ticks %d\nvirtual_ticks %d\nprof_remaining_us %ld\nprof_old_interval_us %ld\n", t1 - t0,
           (int)prof_ticks, (int)virtual_ticks, (long)(now.it_value.tv_sec * 1000000 + now.it_value.tv_usec),
           (long)(old.it_interval.tv_sec * 1000000 + old.it_interval.tv_usec));
    /* Armed again, then stopped with a value in read-only memory: no tick may follow. */
    const int first = (int)prof_ticks;
    setitimer(ITIMER_PROF, &every_ms, NULL);
    imul_chain(rounds / 2);
    setitimer(ITIMER_PROF, &stopped, NULL);
    const int rearmed = (int)prof_ticks;
    imul_chain(rounds);
    printf("prof_ticks_rearmed %d\nprof_ticks_after_stop %d\n", rearmed - first, (int)prof_ticks - rearmed);
}

static long long ns_between(const struct timespec* a, const struct timespec* b) {
    return (long long)(b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec);
}

static void time_sleeps(long us) {
    struct timespec c0, c1, t0, t1, t2, t3;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const struct timespec nap = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&nap, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long naps = 0;
    const struct timespec tenth = {0, 100000};
    for (struct timespec now = t1; ns_between(&t1, &now) < us * 1000LL; clock_gettime(CLOCK_MONOTONIC, &now)) {
        nanosleep(&tenth, NULL);
        ++naps;
    }
    clock_gettime(CLOCK_MONOTONIC, &t2);
    poll(NULL, 0, (int)(us / 1000));
    clock_gettime(CLOCK_MONOTONIC, &t3);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    printf("slept_ns %lld\nlooped_ns %lld\npolled_ns %lld\nnaps %ld\ncpu_ns %lld\n", ns_between(&t0, &t1),
           ns_between(&t1, &t2), ns_between(&t2, &t3), naps, ns_between(&c0, &c1));
}

static void time_fork(long rounds) {
    struct timespec before, after, cpu;
    imul_chain(rounds);
    fflush(stdout);  /* the child would print what is buffered again */
    clock_gettime(CLOCK_MONOTONIC, &before);
    const pid_t child = fork();
    clock_gettime(CLOCK_MONOTONIC, &after);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    const char* who = child == 0 ? "child" : "parent";
    if (child != 0) waitpid(child, NULL, 0);  /* the child prints first */
    printf("%s_step_ns %lld\n%s_cpu_ns %lld\n", who, ns_between(&before, &after), who,
           (long long)cpu.tv_sec * 1000000000LL + cpu.tv_nsec);
    fflush(stdout);
    if (child == 0) _exit(0);
}

int main(int argc, char** argv) {
    unsigned r[4], max;
    char vendor[13] = {0}, brand[49] = {0};
    cpuid(0, 0, r);
    max = r[0];
    memcpy(vendor, &r[1], 4);
    memcpy(vendor + 4, &r[3], 4);
    memcpy(vendor + 8, &r[2], 4);
    printf("vendor %s\nmax_leaf %u\n", vendor, max);
    cpuid(1, 0, r);
    printf("family %u\nmodel %u\nstepping %u\n", (r[0] >> 8) & 0xF, (r[0] >> 4) & 0xF, r[0] & 0xF);
    printf("logical_processors %u\napic_id %u\n", (r[1] >> 16) & 0xFF, r[1] >> 24);
    printf("mmx %d\nsse %d\nsse2 %d\nht %d\nsse3 %d\nssse3 %d\nsse4_1 %d\nsse4_2 %d\npopcnt %d\navx %d\n",
           bit(r[3], 23), bit(r[3], 25), bit(r[3], 26), bit(r[3], 28), bit(r[2], 0), bit(r[2], 9), bit(r[2], 19),
           bit(r[2], 20), bit(r[2], 23), bit(r[2], 28));
    cpuid(0x80000000, 0, r);
    if (r[0] >= 0x80000001) {
        cpuid(0x80000001, 0, r);
        printf("long_mode %d\n", bit(r[3], 29));
    }
    cpuid(7, 0, r);  /* beyond a Pentium 4's maximum: the highest basic leaf's data, no AVX2 or AVX-512 flags */
    printf("avx2 %d\navx512f %d\n", max >= 7 && bit(r[1], 5), max >= 7 && bit(r[1], 16));
    for (unsigned i = 0; i < 3; ++i) {
        cpuid(0x80000002 + i, 0, r);
        memcpy(brand + 16 * i, r, 16);
    }
    printf("brand %s\n", brand);
    cpuid(2, 0, r);
    printf("leaf2 %08x %08x %08x %08x\n", r[0], r[1], r[2], r[3]);
    if (argc > 2 && strcmp(argv[1], "clock") == 0) {
        time_imuls(atol(argv[2]));
    } else if (argc > 2 && strcmp(argv[1], "itimer") == 0) {
        time_itimers(atol(argv[2]));
    } else if (argc > 2 && strcmp(argv[1], "sleep") == 0) {
        time_sleeps(atol(argv[2]));
    } else if (argc > 2 && strcmp(argv[1], "fork") == 0) {
        time_fork(atol(argv[2]));
    } else if (argc > 2) {
        unsigned long (*run)(void) = strcmp(argv[1], "avx") == 0 ? run_vaddps : run_pshufb;
        unsigned long at = 0;
        for (long i = atol(argv[2]); i > 0; --i) at = run();
        printf("missing_at 0x%lx\n", at);
    }
    return 0;
}
