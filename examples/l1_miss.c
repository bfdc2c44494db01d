/* l1_miss: the benchmark of Sprunt's PEBS/IEBS comparison (IEEE Micro 2002, "Pentium 4 Performance-Monitoring
 * Features", Figure 5 and Table 1), rebuilt from the paper's description.
 *
 *   "This benchmark uses a load instruction in a nested loop to cause many L1 data cache misses on the Pentium 4.
 *    Although only one load (the target load) in the nested loop actually causes a cache miss, the cache-missing
 *    load is preceded and followed by large sequential blocks of loads that always hit the cache."
 *   "... one million executions of an eight-iteration loop that moves through a large array with an 8-Kbyte
 *    stride."  The target is "mov (%EAX), %EAX": each of the eight locations holds the address of the next.
 *
 * Eight locations 8 KB apart fall in one set of the Pentium 4's 8 KB four-way L1 data cache, which holds four of
 * them: walking the eight in a ring, every target load misses (and hits the L2). The blocks of hitting loads read
 * a 1 KB buffer that lies in other sets. The ring's offset within its page is the paper's (its EAX values end in
 * 0x760).
 *
 * Usage: l1_miss [OUTER]   OUTER executions of the eight-iteration loop (default 100000; the paper's run had
 * 10 million: 80 million misses). Prints the number of target loads executed.
 *
 * x86-64 GNU C: the loop is written in assembly so that every load is one instruction, in a known order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RING 8                /* locations in the ring */
#define STRIDE 8192           /* bytes between them: the L1's size, so all map to one set */
#define RING_OFFSET 0x760     /* the low bits of the paper's EAX values */
#define HITS_PER_BLOCK 128    /* hitting loads before and after the target */

/* The ring's array (static, as in the paper, whose EAX values lie in the program's data at 0x0804xxxx). */
static char ring[RING * STRIDE + 4096] __attribute__((aligned(4096)));
/* The hitting loads' buffer: 16 lines of one page, the sets 0-15 (the ring is in set 29). */
static char hot[1024] __attribute__((aligned(4096)));

#define STR(x) #x
#define XSTR(x) STR(x)
/* One block of HITS_PER_BLOCK loads of `hot` (line by line, round and round), each into %ecx. */
#define HIT_BLOCK                                   \
    ".set nb_offset, 0\n\t"                         \
    ".rept " XSTR(HITS_PER_BLOCK) "\n\t"            \
    "movl nb_offset(%[hot]), %%ecx\n\t"             \
    ".set nb_offset, (nb_offset + 64) %% 1024\n\t"  \
    ".endr\n\t"

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
    char* first = ring + RING_OFFSET;
    for (int k = 0; k < RING; ++k) *(char**)(first + k * STRIDE) = first + ((k + 1) % RING) * STRIDE;
    for (unsigned i = 0; i < sizeof hot; ++i) hot[i] = (char)i;
    /* Read every line of `hot` once, so that its loads always hit, as the paper says, from the first iteration on:
     * the Pentium 4's L1 does not allocate on a store, so the writes above leave the lines outside it. */
    for (unsigned i = 0; i < sizeof hot; i += 64) (void)*(volatile char*)&hot[i];
    printf("%llu target loads\n", (unsigned long long)walk(first, outer));
    return 0;
}
