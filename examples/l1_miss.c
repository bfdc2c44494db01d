/* l1_miss: the benchmark of Sprunt's PEBS/IEBS comparison (IEEE Micro 2002, "Pentium 4 Performance-Monitoring
 * Features", Figure 5 and Table 1), rebuilt from the paper's description.
 *
 *   "This benchmark uses a load instruction in a nested loop to cause many L1 data cache misses on the Pentium 4.
 *    Although only one load (the target load) in the nested loop actually causes a cache miss, the cache-missing
 *    load is preceded and followed by large sequential blocks of loads that always hit the cache."
 *   "... one million executions of an eight-iteration loop that moves through a large array with an 8-Kbyte
 *    stride."  The target is "mov (%EAX), %EAX": each of the eight locations holds the address of the next.
 *
 * The ring, the hitting blocks and their set-up are in l1_miss_ring.h.
 *
 * Usage: l1_miss [OUTER]   OUTER executions of the eight-iteration loop (default 100000; the paper's run had
 * 10 million: 80 million misses). Prints the number of target loads executed.
 *
 * x86-64 GNU C: the loop is written in assembly so that every load is one instruction, in a known order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define HITS_PER_BLOCK 128    /* hitting loads before and after the target */
#include "l1_miss_ring.h"

__attribute__((noinline)) static uint64_t walk(char* start, long outer) {
    uint64_t loads = 0;
    char* p = start;
    for (long i = 0; i < outer; ++i) {
        long inner = RING;
        __asm__ volatile(
            "1:\n\t"
            HIT_BLOCK
            "movq (%[p]), %[p]\n\t"  /* the target load: misses the L1 every time */
            HIT_BLOCK
            "decq %[inner]\n\t"
            "jnz 1b\n\t"
            : [p] "+r"(p), [inner] "+r"(inner)
            : [hot] "r"(hot)
            : "ecx", "memory", "cc");
        loads += RING;
    }
    if (p != start) abort();  /* eight steps of the ring end where they started */
    return loads;
}

int main(int argc, char** argv) {
    const long outer = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    if (outer <= 0) {
        fprintf(stderr, "usage: l1_miss [OUTER]\n");
        return 2;
    }
    char* first = l1_miss_setup();
    printf("%llu target loads\n", (unsigned long long)walk(first, outer));
    return 0;
}
