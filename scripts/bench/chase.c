/* A pointer chase over a random cycle of 64-byte cells (default 8 MB, well past any Pentium 4's L2): nearly every
 * step misses to memory. One of the workloads of scripts/bench-workloads.sh. The permutation comes from a fixed
 * linear congruential generator, so every run walks the same cycle.
 *
 *   chase [MEGABYTES [STEPS]] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct cell {
    struct cell* next;
    char pad[56];
};

int main(int argc, char** argv) {
    const size_t megabytes = argc > 1 ? strtoul(argv[1], NULL, 10) : 8;
    const long steps = argc > 2 ? strtol(argv[2], NULL, 10) : 2000000;
    const size_t n = megabytes * 1024 * 1024 / sizeof(struct cell);
    struct cell* cells = malloc(n * sizeof *cells);
    size_t* order = malloc(n * sizeof *order);
    if (n < 2 || !cells || !order) return 2;
    for (size_t i = 0; i < n; i++) order[i] = i;
    uint64_t x = 12345;
    for (size_t i = n - 1; i > 0; i--) {  /* Fisher-Yates with a fixed generator */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const size_t j = (size_t)(x >> 33) % (i + 1);
        const size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < n; i++) cells[order[i]].next = &cells[order[(i + 1) % n]];
    const struct cell* p = &cells[order[0]];
    for (long s = 0; s < steps; s++) p = p->next;
    printf("%zu\n", (size_t)(p - cells));
    return 0;
}
