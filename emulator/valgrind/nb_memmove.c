/* The library functions behind compiler-generated calls in the tool, which has no C library.
 * memmove: the core model's cache LRU updates move a few dozen bytes per access. Valgrind's own (m_main.c)
 * copies byte by byte, which cost about 4 % of a run; tool.mk links with --wrap=memmove so that those calls come
 * here instead. Valgrind's core calls VG_(memmove), not memmove, and is not affected.
 * strlen: Valgrind defines none. Within one file the compiler folds strlen of a constant, but with link-time
 * optimisation it may keep the call (emulator/pmu/table_facts.cpp). */
#include "pub_tool_basics.h"

void* __wrap_memmove(void* dest, const void* src, SizeT n);

void* __wrap_memmove(void* dest, const void* src, SizeT n) {
    UChar* d = dest;
    const UChar* s = src;
    if (d == s || n == 0) return dest;
    if (d < s || d >= s + n) {
        /* Forward: safe when the destination starts below the source or the ranges do not overlap. */
        for (; n >= 8; n -= 8, d += 8, s += 8) {
            ULong w;
            __builtin_memcpy(&w, s, 8);
            __builtin_memcpy(d, &w, 8);
        }
        while (n--) *d++ = *s++;
    } else {
        d += n;
        s += n;
        for (; n >= 8; n -= 8) {
            d -= 8;
            s -= 8;
            ULong w;
            __builtin_memcpy(&w, s, 8);
            __builtin_memcpy(d, &w, 8);
        }
        while (n--) *--d = *--s;
    }
    return dest;
}

SizeT strlen(const HChar* s);

SizeT strlen(const HChar* s) {
    SizeT n = 0;
    while (s[n] != 0) ++n;
    return n;
}
