/* netburst-run record's side of the tool: the samples file of each process image (emulator/protocol/sample_file.h)
 * and the client's mappings in it. The samples themselves come from the runtime's sampler
 * (emulator/sampling/sampler.h), which writes through nb_host_write_samples and places instructions in the source
 * through nb_host_describe_ip (nb_host.c). */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

void nb_samples_open(const HChar* dir, Int pid, UInt k) {
    if (!nb_rt_sampling() || !dir) return;
    HChar path[4096];
    VG_(snprintf)(path, sizeof path, "%s/samples-%d-%u", dir, pid, k);
    nb_samples_fd = nb_open_for_writing(path, False);
    if (nb_samples_fd < 0) VG_(fmsg_bad_option)("--results", "cannot create %s\n", path);
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
    if (nb_samples_fd < 0) return;
    nb_rt_sampling_finish();
    write_maps();
    nb_rt_sampling_line("end");
    nb_rt_sampling_flush();
    /* Before an exec the image ends here if the exec succeeds; if it fails, the process goes on writing after this
     * (its counts start from zero again: netburst-run adds the lines up). */
    if (final_run) {
        VG_(close)(nb_samples_fd);
        nb_samples_fd = -1;
    }
}

void nb_samples_before_fork(void) { nb_rt_sampling_flush(); }

void nb_samples_after_fork(const HChar* dir, Int pid, UInt k) {
    if (nb_samples_fd >= 0) VG_(close)(nb_samples_fd);
    nb_samples_fd = -1;
    nb_samples_open(dir, pid, k);
}
