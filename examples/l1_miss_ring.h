/* The memory and the hitting blocks of Sprunt's l1_miss (IEEE Micro 2002; examples/l1_miss.c has the paper's
 * words), shared by examples/l1_miss.c and the PEBS test tests/integration/papi/pebs_overflow.c, which runs it in
 * small. The includer defines HITS_PER_BLOCK (loads per hitting block) before it uses HIT_BLOCK.
 *
 * Eight locations 8 KB apart fall in one set of the Pentium 4's 8 KB four-way L1 data cache, which holds four of
 * them: walking the eight in a ring, every target load misses (and hits the L2). The hitting blocks read a 1 KB
 * buffer that lies in other sets. The ring's offset within its page is the paper's (its EAX values end in 0x760). */
#ifndef L1_MISS_RING_H
#define L1_MISS_RING_H

#define RING 8                /* locations in the ring */
#define STRIDE 8192           /* bytes between them: the L1's size, so all map to one set */
#define RING_OFFSET 0x760     /* the low bits of the paper's EAX values */

/* The ring's array (static, as in the paper, whose EAX values lie in the program's data at 0x0804xxxx). */
static char ring[RING * STRIDE + 4096] __attribute__((aligned(4096)));
/* The hitting loads' buffer: 16 lines of one page, the sets 0-15 (the ring is in set 29). */
static char hot[1024] __attribute__((aligned(4096)));

#define STR(x) #x
#define XSTR(x) STR(x)
/* One block of HITS_PER_BLOCK loads of `hot` (line by line, round and round), each into %ecx; the asm statement
 * names the buffer's register [hot]. */
#define HIT_BLOCK                                   \
    ".set nb_offset, 0\n\t"                         \
    ".rept " XSTR(HITS_PER_BLOCK) "\n\t"            \
    "movl nb_offset(%[hot]), %%ecx\n\t"             \
    ".set nb_offset, (nb_offset + 64) %% 1024\n\t"  \
    ".endr\n\t"

/* Links the ring (each location holds the next one's address), fills `hot` with its byte indices and reads each
 * of its lines once, so that its loads hit from the first iteration on, as the paper says: the Pentium 4's L1 does
 * not allocate on a store, so the writes leave the lines outside it. Returns the ring's first location. */
static char* l1_miss_setup(void) {
    char* first = ring + RING_OFFSET;
    for (int k = 0; k < RING; ++k) *(char**)(first + k * STRIDE) = first + ((k + 1) % RING) * STRIDE;
    for (unsigned i = 0; i < sizeof hot; ++i) hot[i] = (char)i;
    for (unsigned i = 0; i < sizeof hot; i += 64) (void)*(volatile char*)&hot[i];
    return first;
}

#endif
