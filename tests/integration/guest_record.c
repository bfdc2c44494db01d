/* A program for tests/integration/record_test.cpp: one load that misses the L1 every time (a ring of eight
 * pointers 8 KB apart, which share one set of the four-way 8 KB L1), followed by a stretch of independent
 * arithmetic on lines of their own, so that an imprecise sample lands on later lines and a precise one on the
 * load's. The test finds the load's line by the marker in its comment.
 *
 * Usage: guest_record [STEPS]   (default 20000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RING 8
#define STRIDE 8192

static char ring[RING * STRIDE + 4096] __attribute__((aligned(4096)));

__attribute__((noinline)) static void build_ring(void) {
    for (int k = 0; k < RING; ++k) *(char**)(ring + 0x40 + k * STRIDE) = ring + 0x40 + ((k + 1) % RING) * STRIDE;
}

__attribute__((noinline)) static unsigned long chase(long steps) {
    char** p = (char**)(ring + 0x40);
    unsigned long a = 1, b = 2, c = 3, d = 4;  /* unsigned: the arithmetic wraps */
    for (long i = 0; i < steps; ++i) {
        p = (char**)*p; /* RECORD_MISS_LINE */
        a = a * 3 + i;
        b = b * 5 + a;
        c = c * 7 + i;
        d = d * 9 + c;
        a ^= b >> 3;
        b ^= c >> 5;
        c ^= d >> 7;
        d ^= a >> 11;
        a += b + 1;
        b += c + 2;
        c += d + 3;
        d += a + 4;
    }
    return a + b + c + d + (uintptr_t)p;
}

int main(int argc, char** argv) {
    const long steps = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    build_ring();
    printf("%lu\n", chase(steps) & 0xff);
    return 0;
}
