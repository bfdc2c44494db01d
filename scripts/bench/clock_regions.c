/* Regions a program times with its own clock (rdtsc), for the emulated clock's accuracy (doc/sampled-timing.md,
 * "The clock"): run it once as is (no counter needs cycles, so the clock is estimated from sampled units) and once
 * with `netburst-run -e PAPI_TOT_CYC` (every instruction timed, the clock exact), and compare the lines.
 *
 *   clock_regions
 *
 * Three rounds of three regions of different kinds, each timed with rdtsc and printed "round R KIND CYCLES": a
 * 200x200 matrix product (about 15 million instructions, L1 misses and L2 hits), 300,000 steps of a random walk
 * over 8 MiB (misses to memory), and 2 million steps of integer arithmetic on a volatile (stores and reloads). The
 * rounds after the first start each region right after another kind of code, as a program's phases do. */
#include <stdio.h>
#include <x86intrin.h>

enum { kN = 200, kWalk = 1 << 20 };
static double a[kN][kN], b[kN][kN], c[kN][kN];
static long walk[kWalk];

int main(void) {
    for (int i = 0; i < kN; i++)
        for (int j = 0; j < kN; j++) {
            a[i][j] = i + j;
            b[i][j] = i - j;
        }
    for (long i = 0; i < kWalk; i++) walk[i] = (i * 7919 + 13) % kWalk;
    for (int round = 0; round < 3; round++) {
        const unsigned long long t0 = __rdtsc();
        for (int i = 0; i < kN; i++)
            for (int k = 0; k < kN; k++)
                for (int j = 0; j < kN; j++) c[i][j] += a[i][k] * b[k][j];
        const unsigned long long t1 = __rdtsc();
        long p = 0;
        for (long s = 0; s < 300000; s++) p = walk[p];
        const unsigned long long t2 = __rdtsc();
        volatile long sum = 0;
        for (long s = 0; s < 2000000; s++) sum += s * 3;
        const unsigned long long t3 = __rdtsc();
        printf("round %d matmul %llu\nround %d walk %llu\nround %d arithmetic %llu\n", round, t1 - t0, round,
               t2 - t1, round, t3 - t2);
        if (p < 0) return 1;  /* keeps the walk */
    }
    return 0;
}
