/* The files of a process image: netburst-run's event program (read), this image's results file, the --record
 * trace and the progress file; and what becomes of them at a fork. The samples file is nb_samples.c's. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"

#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

static HChar* results_path;
static UInt results_k;  /* the k of results_path, which the samples file shares */
static Int progress_fd = -1;

static void open_record_file(void) {
    if (!nb_clo.record) return;
    HChar* path = VG_(expand_file_name)("--record", nb_clo.record);
    nb_record_fd = nb_open_for_writing(path, False);
    if (nb_record_fd < 0) VG_(fmsg_bad_option)("--record", "cannot create %s\n", path);
    VG_(free)(path);
}

/* This process image's results file: <dir>/nb-<pid>-<k>, the first k not taken (an exec'd image keeps the pid). */
static void create_results_file(void) {
    if (!nb_clo.results) return;
    const SizeT size = VG_(strlen)(nb_clo.results) + 64;
    results_path = VG_(malloc)("netburst.path", size);
    for (UInt k = 0; k < 1000; k++) {
        VG_(snprintf)(results_path, size, "%s/nb-%d-%u", nb_clo.results, VG_(getpid)(), k);
        const Int fd = nb_open_for_writing(results_path, True);
        if (fd >= 0) {
            VG_(close)(fd);
            results_k = k;
            return;
        }
    }
    VG_(fmsg_bad_option)("--results", "cannot create a results file in %s\n", nb_clo.results);
}

void nb_write_results(Bool final_run) {
    if (!results_path) return;
    static HChar text[32768];
    const SizeT n = nb_rt_results(text, sizeof text, final_run, (uint64_t)VG_(getpid)());
    const Int fd = nb_open_for_writing(results_path, False);
    if (n == 0 || fd < 0 || !nb_write_all(fd, text, n)) VG_(umsg)("netburst: cannot write %s\n", results_path);
    if (fd >= 0) VG_(close)(fd);
}

/* <dir>/progress-<pid>: one fixed-width line, rewritten in place, so that a reader sees a whole number or a short
 * line it skips. */
static void open_progress_file(void) {
    if (!nb_clo.progress) return;
    HChar path[4096];
    VG_(snprintf)(path, sizeof path, "%s/progress-%d", nb_clo.progress, VG_(getpid)());
    progress_fd = nb_open_for_writing(path, False);
}

/* After each flush of the record buffer: rewrites the instruction count about twice a second. */
static void write_progress(void) {
    static UInt flushes, last_ms;
    /* A flush is a few thousand instructions; the clock is read every 64th. */
    if (progress_fd < 0 || (++flushes & 63) != 0) return;
    const UInt now = VG_(read_millisecond_timer)();
    if (now - last_ms < 500) return;
    last_ms = now;
    HChar line[32];
    const Int n = VG_(snprintf)(line, sizeof line, "%020llu\n", (ULong)nb_rt_instructions());
    if (VG_(lseek)(progress_fd, 0, VKI_SEEK_SET) != 0 || !nb_write_all(progress_fd, line, n)) {
        VG_(close)(progress_fd);
        progress_fd = -1;
    }
}

static void load_program(void) {
    if (!nb_clo.program) return;
    SizeT len = 0;
    HChar* text = nb_read_file(nb_clo.program, "netburst.program", &len);
    if (text == NULL) VG_(fmsg_bad_option)("--program", "cannot open %s\n", nb_clo.program);
    const char* error = nb_rt_load_program(text, len);
    if (error) VG_(fmsg_bad_option)("--program", "%s: %s\n", nb_clo.program, error);
    VG_(free)(text);
}

void nb_files_open(void) {
    load_program();
    open_record_file();
    create_results_file();
    if (results_path) nb_samples_open(nb_clo.results, VG_(getpid)(), results_k);
    open_progress_file();
    if (progress_fd >= 0) nb_buffer_add_hooks(write_progress, NULL);
}

void nb_files_after_fork(void) {
    if (progress_fd >= 0) {
        VG_(close)(progress_fd);
        open_progress_file();
    }
    if (results_path) {
        VG_(free)(results_path);
        results_path = NULL;
        create_results_file();
        nb_samples_after_fork(nb_clo.results, VG_(getpid)(), results_k);
    }
    if (nb_record_fd >= 0) {
        /* The parent keeps writing its file. The child records only into a file of its own (%p in the name). */
        VG_(close)(nb_record_fd);
        nb_record_fd = -1;
        if (VG_(strstr)(nb_clo.record, "%p")) open_record_file();
    }
}

void nb_files_close(void) {
    if (nb_record_fd >= 0) VG_(close)(nb_record_fd);
    if (progress_fd >= 0) VG_(close)(progress_fd);
}
