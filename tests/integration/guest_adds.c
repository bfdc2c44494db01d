/* The smallest loop with a known count, built both as an x86-64 and as an i386 program (gcc -m32; issue 29):
 *   guest_adds N                 runs N iterations of add, add, dec, jnz (four instructions, one taken branch but
 *                                the last) and exits 0
 *   guest_adds clock N           the same, and prints "ns NANOSECONDS", what clock_gettime(CLOCK_MONOTONIC) read
 *                                across the loop
 *   guest_adds tsc N             the same and then N dependent floating-point multiplies (x87 in the i386 build),
 *                                and prints "cycles CYCLES", what rdtsc read across both
 *   guest_adds exec PROGRAM ARG...  executes PROGRAM (the other build, say) with its arguments
 * In 32-bit mode `dec %ecx` is the one-byte 0x49, an opcode that is a REX prefix in 64-bit mode, so the i386 build
 * also checks that the decoder reads the one-byte inc/dec. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

static unsigned long adds(unsigned long n) {
    unsigned long acc = 0;
    if (n == 0) return 1;
    __asm__ volatile("1:\n\t"
                     "add $3, %0\n\t"
                     "add $5, %0\n\t"
                     "dec %1\n\t"
                     "jnz 1b"
                     : "+r"(acc), "+c"(n)
                     :
                     : "cc");
    return acc;  /* 8 n: never 0 */
}

int main(int argc, char** argv) {
    if (argc > 2 && !strcmp(argv[1], "exec")) {
        execv(argv[2], argv + 2);
        return 127;
    }
    if (argc > 2 && !strcmp(argv[1], "clock")) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        const unsigned long acc = adds(strtoul(argv[2], NULL, 10));
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("ns %lld\n", (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
        return acc == 0;
    }
    if (argc > 2 && !strcmp(argv[1], "tsc")) {
        const unsigned long n = strtoul(argv[2], NULL, 10);
        volatile double x = 1.0;
        const unsigned long long a = __rdtsc();
        const unsigned long acc = adds(n);
        for (unsigned long i = 0; i < n; ++i) x = x * 1.0000001;
        const unsigned long long b = __rdtsc();
        printf("cycles %llu\n", b - a);
        return acc == 0;
    }
    return adds(argc > 1 ? strtoul(argv[1], NULL, 10) : 1000) == 0;
}
