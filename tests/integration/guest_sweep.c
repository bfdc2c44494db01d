/* Data-cache access patterns for the comparison with cachegrind (netburst_run_test.cpp, doc/emulator-valgrind.md):
 *   guest_sweep seq      four passes over 4 MB, 8-byte loads in order (one miss per 64-byte line)
 *   guest_sweep stride   eight passes over 4 MB, one 8-byte load every 256 bytes (every load a new line)
 *   guest_sweep thrash   eight addresses 8 KB apart (one set of a 8 KB 4-way cache), 500,000 rounds
 *   guest_sweep random   2,000,000 loads at pseudo-random 8-byte slots of 2 MB
 * Built with -O1: plain scalar loads, one per access. Prints the sum so that nothing is optimised away. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MB (1024 * 1024)

int main(int argc, char** argv) {
    const char* p = argc > 1 ? argv[1] : "";
    const size_t bytes = 4 * MB;
    uint64_t* a = aligned_alloc(4096, bytes);
    if (!a) return 1;
    for (size_t i = 0; i < bytes / 8; i++) a[i] = i;  /* stores: the same in both tools' runs */
    uint64_t sum = 0;
    if (!strcmp(p, "seq")) {
        for (int pass = 0; pass < 4; pass++)
            for (size_t i = 0; i < bytes / 8; i++) sum += a[i];
    } else if (!strcmp(p, "stride")) {
        for (int pass = 0; pass < 8; pass++)
            for (size_t i = 0; i < bytes / 8; i += 32) sum += a[i];
    } else if (!strcmp(p, "thrash")) {
        for (int round = 0; round < 500000; round++)
            for (size_t k = 0; k < 8; k++) sum += a[k * 1024];
    } else if (!strcmp(p, "random")) {
        uint64_t x = 88172645463325252ull;
        for (int i = 0; i < 2000000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            sum += a[x % (2 * MB / 8)];
        }
    } else {
        fprintf(stderr, "usage: guest_sweep seq|stride|thrash|random\n");
        return 2;
    }
    printf("%llu\n", (unsigned long long)sum);
    free(a);
    return 0;
}
