/* Fixed AT_RANDOM bytes, so that two runs of one program count the same.
 *
 * The kernel gives every new program 16 random bytes (the auxiliary-vector entry AT_RANDOM, on the initial stack).
 * glibc's loader turns them into the stack-protector canary and the pointer guard, and takes table lookups indexed
 * by their values on the way: each run touches other cache lines, so cache misses and cycles differ by a few from
 * run to run (one L1 miss in examples/matmul, for instance). A real Pentium 4 sees that too, but an emulator that
 * does not repeat itself cannot be tested for exact counts, nor compared with itself under other Valgrind options.
 * Before the program's first instruction runs, the tool overwrites the 16 bytes with fixed ones, unless
 * --fixed-random=no. The program's canary is then known: do not use this for hardening tests. */
#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"

#include "emulator/valgrind/nb_tool.h"

enum { kAuxNull = 0, kAuxRandom = 25 };  /* auxiliary-vector entry types (Linux's include/uapi/linux/auxvec.h) */

void nb_fix_at_random(Addr initial_sp) {
    /* The initial stack, in guest words: argc, argv[0..argc-1], NULL, envp..., NULL, then (type, value) pairs up to
     * AT_NULL. */
    const UWord* p = (const UWord*)initial_sp;
    const UWord argc = *p++;
    p += argc + 1;
    while (*p) p++;
    p++;
    for (; p[0] != kAuxNull; p += 2) {
        if (p[0] != kAuxRandom) continue;
        UChar* bytes = (UChar*)(Addr)p[1];
        for (Int i = 0; i < 16; i++) bytes[i] = (UChar)(0x5a ^ (i * 0x1d));  /* any fixed, non-zero pattern */
        return;
    }
    if (VG_(clo_verbosity) > 1) VG_(umsg)("netburst: the program has no AT_RANDOM bytes to fix\n");
}
