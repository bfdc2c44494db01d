/* A program for tests/integration/record_test.cpp (record -g): main calls outer, outer calls inner, and inner holds
 * the load that misses the L1 every time (a ring of eight pointers 8 KB apart, which share one set of the four-way
 * 8 KB L1). Each call is followed by work of its caller, so that no call becomes a jump (a tail call), and the
 * functions are kept apart (noinline, noclone), so that their names are the ones a reader expects.
 *
 * Usage: guest_callchain [STEPS]   (default 20000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RING 8
#define STRIDE 8192

static char ring[RING * STRIDE + 4096] __attribute__((aligned(4096)));

__attribute__((noinline, noclone)) unsigned long inner(long steps) {
    char** p = (char**)(ring + 0x40);
    unsigned long a = 1;
    for (long i = 0; i < steps; ++i) {
        p = (char**)*p;
        a = a * 3 + i;
    }
    return a + (uintptr_t)p;
}

__attribute__((noinline, noclone)) unsigned long outer(long steps) {
    const unsigned long v = inner(steps);
    return v * 7 + 1;
}

int main(int argc, char** argv) {
    const long steps = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    for (int k = 0; k < RING; ++k) *(char**)(ring + 0x40 + k * STRIDE) = ring + 0x40 + ((k + 1) % RING) * STRIDE;
    const unsigned long v = outer(steps);
    printf("%lu\n", (v >> 3) & 0xff);
    return 0;
}
