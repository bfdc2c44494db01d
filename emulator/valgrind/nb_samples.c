/* netburst-run record's side of the tool: the samples file of each process image (emulator/protocol/sample_file.h),
 * the debug information that places instructions in the source, and the client's mappings. The samples themselves
 * come from the runtime's sampler (emulator/sampling/sampler.h). */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "libvex_guest_amd64.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

static Int samples_fd = -1;

void nb_host_write_samples(const void* bytes, size_t size) {
    if (samples_fd >= 0 && !nb_write_all(samples_fd, bytes, size)) {
        VG_(umsg)("netburst: writing the samples file failed; sampling output stops\n");
        VG_(close)(samples_fd);
        samples_fd = -1;
    }
}

int nb_host_describe_ip(uint64_t ip, struct nb_source_place* out) {
    const DiEpoch ep = VG_(current_DiEpoch)();
    const HChar* fn = NULL;
    const HChar* file = NULL;
    const HChar* dir = NULL;
    UInt line = 0;
    out->function = VG_(get_fnname)(ep, (Addr)ip, &fn) ? fn : NULL;
    if (VG_(get_filename_linenum)(ep, (Addr)ip, &file, &dir, &line)) {
        out->file = file;
        out->dir = dir;
        out->line = line;
    } else {
        out->file = out->dir = NULL;
        out->line = 0;
    }
    return out->function != NULL || out->file != NULL;
}

uint64_t nb_host_gettid(void) { return (uint64_t)VG_(gettid)(); }

/* Valgrind's core has tkill but its tool headers do not declare it; the tool links the core statically. */
extern Int VG_(tkill)(Int lwpid, Int signo);

/* Valgrind takes a signal sent to a thread that runs guest code (its signals are blocked then) when its scheduler
 * next polls: at the end of the thread's time slice (100,000 blocks: a period shorter than that would see one
 * interrupt per slice) or at a blocking system call. For the running thread, the slice is ended at the next block:
 * its event counter (the guest state's host_EvC_COUNTER, which the dispatcher decrements at every block and leaves
 * for the scheduler when it runs out) is set to zero, and the scheduler then polls. */
void nb_host_signal_thread(uint64_t lwp, int signo) {
    VG_(tkill)((Int)lwp, signo);
#if defined(VGA_amd64)
    if ((Int)lwp == VG_(gettid)()) {
        const UInt zero = 0;
        VG_(set_shadow_regs_area)(VG_(get_running_tid)(), 0, offsetof(VexGuestAMD64State, host_EvC_COUNTER),
                                  sizeof zero, (const UChar*)&zero);
    }
#endif
}

void nb_samples_open(const HChar* dir, Int pid, UInt k) {
    if (!nb_rt_sampling() || !dir) return;
    HChar path[4096];
    VG_(snprintf)(path, sizeof path, "%s/samples-%d-%u", dir, pid, k);
    SysRes r = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0644);
    if (sr_isError(r)) VG_(fmsg_bad_option)("--results", "cannot create %s\n", path);
    samples_fd = (Int)sr_Res(r);
    nb_rt_sampling_begin((uint64_t)pid, VG_(args_the_exename) ? VG_(args_the_exename) : "");
}

/* Every client mapping the process has now: files (the executable, libraries, data segments) and anonymous memory
 * (heap, stack), so that addresses resolve to objects, symbols and data. */
static void write_maps(void) {
    const UInt kinds = SkFileC | SkAnonC;
    /* The call says how many starts it needs (negated) when the buffer is too small. */
    Int capacity = 256;
    Addr* starts = VG_(malloc)("netburst.maps", capacity * sizeof(Addr));
    Int n = VG_(am_get_segment_starts)(kinds, starts, capacity);
    while (n < 0) {
        capacity = -n + 16;
        starts = VG_(realloc)("netburst.maps", starts, capacity * sizeof(Addr));
        n = VG_(am_get_segment_starts)(kinds, starts, capacity);
    }
    for (Int i = 0; i < n; i++) {
        NSegment const* seg = VG_(am_find_nsegment)(starts[i]);
        if (!seg || !(seg->kind == SkFileC || seg->kind == SkAnonC) || !(seg->hasR || seg->hasX)) continue;
        const HChar* name = seg->kind == SkFileC ? VG_(am_get_filename)(seg) : NULL;
        if (seg->kind == SkFileC && !name) continue;
        const UInt prot = (seg->hasR ? 1 : 0) | (seg->hasW ? 2 : 0) | (seg->hasX ? 4 : 0);
        HChar line[4096 + 256];
        VG_(snprintf)(line, sizeof line, "map 0x%lx 0x%lx 0x%llx %u 0x%llx %llu %s", (unsigned long)seg->start,
                      (unsigned long)(seg->end - seg->start + 1), seg->kind == SkFileC ? (ULong)seg->offset : 0ULL,
                      prot, seg->kind == SkFileC ? seg->dev : 0ULL, seg->kind == SkFileC ? seg->ino : 0ULL,
                      name ? name : "//anon");
        nb_rt_sampling_line(line);
    }
    VG_(free)(starts);
}

void nb_samples_close(Bool final_run) {
    if (samples_fd < 0) return;
    nb_rt_sampling_finish();
    write_maps();
    nb_rt_sampling_line("end");
    nb_rt_sampling_flush();
    /* Before an exec the image ends here if the exec succeeds; if it fails, the process goes on writing after this
     * (its counts start from zero again: netburst-run adds the lines up). */
    if (final_run) {
        VG_(close)(samples_fd);
        samples_fd = -1;
    }
}

void nb_samples_before_fork(void) { nb_rt_sampling_flush(); }

void nb_samples_after_fork(const HChar* dir, Int pid, UInt k) {
    if (samples_fd >= 0) VG_(close)(samples_fd);
    samples_fd = -1;
    nb_samples_open(dir, pid, k);
}
