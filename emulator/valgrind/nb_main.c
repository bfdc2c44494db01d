/* The netburst Valgrind tool: registration, options, files, and the services the C++ runtime needs.
 * See doc/emulator-valgrind.md. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "emulator/pmi_skid.h"
#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

/* timer_tick: kDefaultTimerTick in kernel_model.h (a 4 ms tick), which netburst-run passes explicitly. */
struct nb_options nb_clo = {.model = 2, .kernel_model = True, .timer_tick = 8000000, .fixed_random = True,
                            .pmi_skid = -1, .memo_probe_states = 1LL << 22};

/* ---- Services for the runtime -------------------------------------------------------------------------------- */

void* nb_host_malloc(size_t size) { return VG_(malloc)("netburst.rt", size); }
void nb_host_free(void* p) { VG_(free)(p); }
void nb_host_panic(const char* message) { VG_(tool_panic)((HChar*)message); }

int nb_host_read_guest(uint64_t address, void* buffer, unsigned size) {
    if (!VG_(am_is_valid_for_client)((Addr)address, size, VKI_PROT_READ)) return 0;
    VG_(memcpy)(buffer, (const void*)(Addr)address, size);
    return 1;
}

int nb_host_write_guest(uint64_t address, const void* buffer, unsigned size) {
    if (!VG_(am_is_valid_for_client)((Addr)address, size, VKI_PROT_WRITE)) return 0;
    VG_(memcpy)((void*)(Addr)address, buffer, size);
    return 1;
}

/* ---- Files --------------------------------------------------------------------------------------------------- */

static Int record_fd = -1;
static HChar* results_path;
static UInt results_k;  /* the k of results_path, which the samples file shares */
static Int progress_fd = -1;

static Int open_for_writing(const HChar* path, Bool exclusive) {
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

void nb_host_write_record(const void* bytes, size_t size) {
    if (record_fd >= 0 && !nb_write_all(record_fd, bytes, size)) {
        VG_(umsg)("netburst: writing the --record file failed; recording stops\n");
        VG_(close)(record_fd);
        record_fd = -1;
    }
}

static void open_record_file(void) {
    if (!nb_clo.record) return;
    HChar* path = VG_(expand_file_name)("--record", nb_clo.record);
    record_fd = open_for_writing(path, False);
    if (record_fd < 0) VG_(fmsg_bad_option)("--record", "cannot create %s\n", path);
    VG_(free)(path);
}

/* This process image's results file: <dir>/nb-<pid>-<k>, the first k not taken (an exec'd image keeps the pid). */
static void create_results_file(void) {
    if (!nb_clo.results) return;
    const SizeT size = VG_(strlen)(nb_clo.results) + 64;
    results_path = VG_(malloc)("netburst.path", size);
    for (UInt k = 0; k < 1000; k++) {
        VG_(snprintf)(results_path, size, "%s/nb-%d-%u", nb_clo.results, VG_(getpid)(), k);
        const Int fd = open_for_writing(results_path, True);
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
    const Int fd = open_for_writing(results_path, False);
    if (n == 0 || fd < 0 || !nb_write_all(fd, text, n)) VG_(umsg)("netburst: cannot write %s\n", results_path);
    if (fd >= 0) VG_(close)(fd);
}

/* <dir>/progress-<pid>: one fixed-width line, rewritten in place, so that a reader sees a whole number or a short
 * line it skips. */
static void open_progress_file(void) {
    if (!nb_clo.progress) return;
    HChar path[4096];
    VG_(snprintf)(path, sizeof path, "%s/progress-%d", nb_clo.progress, VG_(getpid)());
    progress_fd = open_for_writing(path, False);
}

void nb_progress(void) {
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
    if (record_fd >= 0) {
        /* The parent keeps writing its file. The child records only into a file of its own (%p in the name). */
        VG_(close)(record_fd);
        record_fd = -1;
        if (VG_(strstr)(nb_clo.record, "%p")) open_record_file();
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

/* ---- Options ------------------------------------------------------------------------------------------------- */

static Bool process_option(const HChar* arg) {
    if VG_BINT_CLO(arg, "--model", nb_clo.model, 0, 6) {}
    else if VG_BOOL_CLO(arg, "--ht", nb_clo.ht) {}
    else if VG_BOOL_CLO(arg, "--l3", nb_clo.l3) {}
    else if VG_BOOL_CLO(arg, "--cpu-wide", nb_clo.cpu_wide) {}
    else if VG_BOOL_CLO(arg, "--kernel-model", nb_clo.kernel_model) {}
    else if VG_BINT_CLO(arg, "--timer-tick", nb_clo.timer_tick, 0, 1000000000000LL) {}
    else if VG_STR_CLO(arg, "--program", nb_clo.program) {}
    else if VG_STR_CLO(arg, "--results", nb_clo.results) {}
    else if VG_STR_CLO(arg, "--record", nb_clo.record) {}
    else if VG_BOOL_CLO(arg, "--fixed-random", nb_clo.fixed_random) {}
    else if VG_STR_CLO(arg, "--progress", nb_clo.progress) {}
    else if VG_XACT_CLO(arg, "--clock=host", nb_clo.clock_emulated, False) {}
    else if VG_XACT_CLO(arg, "--clock=emulated", nb_clo.clock_emulated, True) {}
    else if VG_BINT_CLO(arg, "--pmi-skid", nb_clo.pmi_skid, 0, 100000) {}
    else if VG_BOOL_CLO(arg, "--memo-probe", nb_clo.memo_probe) {}
    else if VG_BINT_CLO(arg, "--memo-probe-states", nb_clo.memo_probe_states, 8, 1LL << 30) {}
    else return False;
    return True;
}

static void print_usage(void) {
    VG_(printf)(
        "    --model=N                 the emulated processor: family 0FH model 0-4 or 6 [2, Northwood]\n"
        "    --ht=yes|no               two logical processors; guest threads alternate between them [no]\n"
        "    --l3=yes|no               the Xeon MP variant of the model, with an L3 cache [no]\n"
        "    --cpu-wide=yes|no         one PMU for all guest threads instead of one per thread [no]\n"
        "    --kernel-model=yes|no     run the synthetic system-call path at CPL 0; with no, counters that\n"
        "                              count at CPL 0 report 'unsupported' [yes]\n"
        "    --timer-tick=N            with the kernel model, a timer interrupt every N instructions of a\n"
        "                              thread, run as a synthetic CPL-0 path; 0: none [8000000]\n"
        "    --fixed-random=yes|no     fixed AT_RANDOM bytes, so that runs repeat exactly (the stack-protector\n"
        "                              canary is then known) [yes]\n"
        "    --clock=host|emulated     what rdtsc, clock_gettime, gettimeofday and time read: the host's\n"
        "                              clock, or the emulated core's cycles (every instruction is then\n"
        "                              timed) [host]\n"
        "    --record=FILE             also write the instruction stream as a binary trace (%%p: the pid)\n"
        "    --program=FILE            netburst-run's event program (set by netburst-run)\n"
        "    --results=DIR             where to write this process's results (set by netburst-run)\n"
        "    --progress=DIR            where to keep the instruction count for the progress line (set by\n"
        "                              netburst-run)\n"
        "    --pmi-skid=N              cycles from a counter overflow to its interrupt being taken\n"
        "                              [" NB_STRINGIFY_VALUE(NB_DEFAULT_PMI_SKID_CYCLES) "]\n");
}

static void print_debug_usage(void) {
    VG_(printf)("    --memo-probe=yes|no       measure how often a timing memo would hit, and print it at exit\n"
                "                              (emulator/memo_probe.h) [no]\n"
                "    --memo-probe-states=N     the probed memo's capacity in states, rounded down to a power\n"
                "                              of two; it forgets the least recently used [4194304]\n");
}

/* ---- Start and end ------------------------------------------------------------------------------------------- */

static void post_clo_init(void) {
    /* Records describe straight-line instructions; conditional-branch chasing would fold guarded instructions
     * into blocks (see nb_instrument.c). */
    VG_(clo_vex_control).guest_chase = False;
    /* The tool reads each instruction's register and memory traffic from the IR it is given (nb_instrument.c).
     * VEX's optimiser, which runs before the tool, forwards register values through temporaries across
     * instructions, deletes register writes that a later instruction overwrites, folds constants and deletes loads
     * whose result is unused: dependencies and accesses the hardware still has. At level 0 every instruction
     * keeps its own GETs, PUTs and loads, whatever --vex-iropt-level said (doc/emulator-valgrind.md). */
    if (VG_(clo_vex_control).iropt_level != 0 && VG_(clo_verbosity) > 1)
        VG_(umsg)("netburst: --vex-iropt-level=%d overridden: the tool needs unoptimised IR (level 0)\n",
                  VG_(clo_vex_control).iropt_level);
    VG_(clo_vex_control).iropt_level = 0;
    if (nb_clo.model == 5) VG_(fmsg_bad_option)("--model", "there is no NetBurst model 5\n");
    struct nb_rt_config config;
    config.model = nb_clo.model;
    config.hyper_threading = nb_clo.ht;
    config.with_l3 = nb_clo.l3;
    config.cpu_wide = nb_clo.cpu_wide;
    config.kernel_model = nb_clo.kernel_model;
    config.timer_tick = nb_clo.kernel_model ? nb_clo.timer_tick : 0;
    config.recording = nb_clo.record != NULL;
    config.max_threads = VG_N_THREADS;
    config.emulated_clock = nb_clo.clock_emulated;
    config.pmi_skid_cycles = (int)nb_clo.pmi_skid;
    config.memo_probe = nb_clo.memo_probe;
    config.memo_probe_states = (uint64_t)nb_clo.memo_probe_states;
    const char* error = nb_rt_init(&config);
    if (error) VG_(fmsg_bad_option)("netburst", "%s\n", error);
    load_program();
    open_record_file();
    create_results_file();
    if (results_path) nb_samples_open(nb_clo.results, VG_(getpid)(), results_k);
    open_progress_file();
    nb_instrument_init();
    nb_clock_init();
}

static void fini(Int exitcode) {
    (void)exitcode;
    nb_flush();
    nb_rt_finish();
    nb_samples_close(True);
    nb_write_results(True);
    if (record_fd >= 0) VG_(close)(record_fd);
    if (progress_fd >= 0) VG_(close)(progress_fd);
    uint64_t blocks, hits, stored, evicted;
    if (nb_rt_memo_probe(&blocks, &hits, &stored, &evicted))
        VG_(umsg)("netburst: memo probe: %llu timed blocks, %llu keys stored, %llu evicted, memo hit rate %.1f %%\n",
                  (ULong)blocks, (ULong)stored, (ULong)evicted, blocks ? 100.0 * (double)hits / (double)blocks : 0.0);
    if (VG_(clo_verbosity) > 1) {
        VG_(umsg)("netburst: %llu guest instructions emulated\n", (ULong)nb_rt_instructions());
        VG_(umsg)("netburst: %llu instructions in the timing tier (kernel paths included); thread switches: %llu\n",
                  (ULong)nb_rt_timed_instructions(), (ULong)nb_rt_thread_switches());
        nb_instrument_stats();
    }
}

static void pre_clo_init(void) {
    VG_(details_name)("netburst");
    VG_(details_version)(NULL);
    VG_(details_description)("runs the program on an emulated Intel NetBurst (Pentium 4) PMU and core");
    VG_(details_copyright_author)("papi-netburst");
    VG_(details_bug_reports_to)("the papi-netburst issue tracker");
    VG_(details_avg_translation_sizeB)(275);
    VG_(basic_tool_funcs)(post_clo_init, nb_instrument, fini);
    VG_(needs_command_line_options)(process_option, print_usage, print_debug_usage);
    VG_(needs_superblock_discards)(nb_discard_superblock);
    nb_events_register();
    VG_(clo_vex_control).guest_chase = False;
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
