/* /proc/self/maps as the program's own: without Valgrind's mappings.
 *
 * Under Valgrind the guest process is also Valgrind, and /proc/self/maps lists Valgrind's own code, heap and
 * translation cache beside the program's mappings. A program that reads its maps (PAPI does, at PAPI_library_init,
 * to find its text and data segments) then parses a file whose length depends on how much Valgrind allocated, which
 * depends on how it translated the program: its counts would change with Valgrind's options (scripts/invariance.sh
 * found this with --vex-guest-max-insns=5), and they are not what the program does on a Pentium 4. After the guest
 * opens its maps, the tool puts a copy with only the client's mappings (the address-space manager's client segments)
 * behind the descriptor the guest got. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "emulator/valgrind/nb_tool.h"

static Bool is_own_maps(const HChar* path) {
    if (path == NULL) return False;
    if (VG_(strcmp)(path, "/proc/self/maps") == 0 || VG_(strcmp)(path, "/proc/thread-self/maps") == 0) return True;
    HChar mine[32];
    VG_(sprintf)(mine, "/proc/%d/maps", VG_(getpid)());
    return VG_(strcmp)(path, mine) == 0;
}

/* Keeps the lines whose range belongs to the client; returns the new length. */
static SizeT client_lines_only(HChar* text, SizeT length) {
    SizeT out = 0, line = 0;
    while (line < length) {
        SizeT end = line;
        while (end < length && text[end] != '\n') end++;
        if (end < length) end++;  /* with its newline */
        HChar* p = text + line;
        const Addr start = (Addr)VG_(strtoull16)(p, &p);
        const Addr stop = *p == '-' ? (Addr)VG_(strtoull16)(p + 1, NULL) : start;
        if (stop > start && VG_(am_is_valid_for_client)(start, stop - start, VKI_PROT_NONE)) {
            VG_(memmove)(text + out, text + line, end - line);
            out += end - line;
        }
        line = end;
    }
    return out;
}

/* After a successful open of the program's maps: the descriptor `fd` reads the filtered copy instead. */
static void substitute(Int fd) {
    SizeT length = 0;
    HChar* text = nb_read_file("/proc/self/maps", "netburst.maps", &length);
    if (text == NULL) return;
    length = client_lines_only(text, length);
    static UInt serial;
    HChar name[256];
    VG_(sprintf)(name, "%s/netburst-maps.%d.%u", VG_(tmpdir)(), VG_(getpid)(), serial++);
    const SysRes r = VG_(open)(name, VKI_O_RDWR | VKI_O_CREAT | VKI_O_EXCL, 0600);
    if (!sr_isError(r)) {
        const Int tmp = (Int)sr_Res(r);
        VG_(unlink)(name);
        if (VG_(write)(tmp, text, (Int)length) == (Int)length && VG_(lseek)(tmp, 0, VKI_SEEK_SET) == 0)
            VG_(dup2)(tmp, fd);
        VG_(close)(tmp);
    }
    VG_(free)(text);
}

void nb_procfs_post_syscall(UInt syscallno, UWord* args, SysRes res) {
    if (sr_isError(res)) return;
    const HChar* path = NULL;
    if (syscallno == __NR_openat) path = (const HChar*)args[1];
    else if (syscallno == __NR_open) path = (const HChar*)args[0];
    if (is_own_maps(path)) substitute((Int)sr_Res(res));
}
