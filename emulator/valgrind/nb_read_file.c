/* Reading a whole file inside the tool, where only Valgrind's own libc is available. */
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
