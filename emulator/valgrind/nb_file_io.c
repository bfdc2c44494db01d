/* Files inside the tool, where only Valgrind's own libc is available: a whole file read, a file opened for
 * writing, and every byte of a buffer written. */
#include "pub_tool_basics.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "emulator/valgrind/nb_tool.h"

HChar* nb_read_file(const HChar* path, const HChar* cost_centre, SizeT* length) {
    const SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
    if (sr_isError(r)) return NULL;
    const Int fd = (Int)sr_Res(r);
    SizeT cap = 1 << 16, len = 0;
    HChar* text = VG_(malloc)(cost_centre, cap);
    Int n;
    /* One byte stays free for the terminating NUL. */
    while ((n = VG_(read)(fd, text + len, (Int)(cap - len - 1))) > 0) {
        len += (SizeT)n;
        if (len + 1 == cap) text = VG_(realloc)(cost_centre, text, cap *= 2);
    }
    VG_(close)(fd);
    text[len] = 0;
    *length = len;
    return text;
}

Int nb_open_for_writing(const HChar* path, Bool exclusive) {
    const Int flags = VKI_O_WRONLY | VKI_O_CREAT | (exclusive ? VKI_O_EXCL : VKI_O_TRUNC);
    SysRes r = VG_(open)(path, flags, 0644);
    return sr_isError(r) ? -1 : (Int)sr_Res(r);
}

Bool nb_write_all(Int fd, const void* bytes, SizeT size) {
    const HChar* p = bytes;
    while (size > 0) {
        const Int n = VG_(write)(fd, p, size > 0x40000000 ? 0x40000000 : (Int)size);
        if (n <= 0) return False;
        p += n;
        size -= n;
    }
    return True;
}
