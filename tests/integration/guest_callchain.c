/* A program for tests/integration/record_test.cpp (record -g, record --callgrind): main calls outer four times, outer
 * calls inner twice from two call sites, and inner holds the load that misses the L1 every time (a ring of eight
 * pointers 8 KB apart, which share one set of the four-way 8 KB L1; the walk goes on from call to call, so that
 * every one of the STEPS loads misses). Each call is followed by work of its caller, so that no call becomes a jump
 * (a tail call), and the functions are kept apart (noinline, noclone), so that their names are the ones a reader
 * expects.
 *
 * Usage: guest_callchain [STEPS]   (default 20000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RING 8
#define STRIDE 8192
#define OUTER_CALLS 4 /* main's calls of outer; record_test.cpp counts them, and outer's two calls of inner each */

static char ring[RING * STRIDE + 4096] __attribute__((aligned(4096)));
static char** cursor = (char**)(ring + 0x40);

__attribute__((noinline, noclone)) unsigned long inner(long steps) {
    char** p = cursor;
    unsigned long a = 1;
    for (long i = 0; i < steps; ++i) {
        p = (char**)*p;
        a = a * 3 + i;
    }
    cursor = p;
    return a + (uintptr_t)p;
}

__attribute__((noinline, noclone)) unsigned long outer(long steps) {
    const long half = steps / 2;
    const unsigned long v = inner(half);
    const unsigned long w = inner(steps - half);
    return v * 7 + w;
}

int main(int argc, char** argv) {
    const long steps = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    for (int k = 0; k < RING; ++k) *(char**)(ring + 0x40 + k * STRIDE) = ring + 0x40 + ((k + 1) % RING) * STRIDE;
    const long chunk = steps / OUTER_CALLS;
    unsigned long v = 0;
    for (int r = 0; r < OUTER_CALLS; ++r) v ^= outer(r == OUTER_CALLS - 1 ? steps - chunk * (OUTER_CALLS - 1) : chunk);
    printf("%lu\n", (v >> 3) & 0xff);
    return 0;
}
