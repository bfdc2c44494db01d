/* The netburst Valgrind tool: its registration with Valgrind, its start and its end. See doc/emulator-valgrind.md
 * (and nb_tool.h for the C files and what each provides). */
#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

static void post_clo_init(void) {
    /* Records describe straight-line instructions; conditional-branch chasing would fold guarded instructions
     * into blocks (see nb_instrument.c). */
    VG_(clo_vex_control).guest_chase = False;
    /* The tool reads each instruction's register and memory traffic from the IR it is given (nb_instrument.c).
     * VEX's optimiser, which runs before the tool, forwards register values through temporaries across
     * instructions, deletes register writes that a later instruction overwrites, folds constants and deletes loads
     * whose result is unused: dependencies and accesses the hardware still has. At level 0 every instruction
     * keeps its own GETs, PUTs and loads; the tool then optimises the instrumented block itself, at the level
     * --vex-iropt-level asked for (doc/emulator-valgrind.md). */
    nb_instrument_set_iropt_level(VG_(clo_vex_control).iropt_level);
    VG_(clo_vex_control).iropt_level = 0;
    if (nb_clo.model == 5) VG_(fmsg_bad_option)("--model", "there is no NetBurst model 5\n");
    nb_options_check();
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
    config.timing_sampled = nb_clo.timing_sampled;
    config.sample_period = nb_clo.sample_period;
    config.sample_warm = nb_clo.sample_warm;
    config.sample_unit = nb_clo.sample_unit;
    config.sample_head = nb_clo.sample_head;
    const char* error = nb_rt_init(&config);
    if (error) {
        VG_(fmsg_bad_option)("netburst", "%s\n", error);
        VG_(exit)(1);  /* after option parsing fmsg_bad_option returns (Valgrind 3.19): nothing may run half set up */
    }
    nb_files_open();
    nb_instrument_init();
    nb_clock_init();
    nb_itimer_init();
}

static void fini(Int exitcode) {
    (void)exitcode;
    nb_flush();
    nb_rt_finish();
    nb_samples_close(True);
    nb_write_results(True);
    nb_files_close();
    uint64_t blocks, hits, stored, evicted;
    if (nb_rt_memo_probe(&blocks, &hits, &stored, &evicted))
        VG_(umsg)("netburst: memo probe: %llu timed blocks, %llu keys stored, %llu evicted, memo hit rate %.1f %%\n",
                  (ULong)blocks, (ULong)stored, (ULong)evicted, blocks ? 100.0 * (double)hits / (double)blocks : 0.0);
    if (VG_(clo_verbosity) > 1) {
        VG_(umsg)("netburst: %llu guest instructions emulated\n", (ULong)nb_rt_instructions());
        VG_(umsg)("netburst: %llu instructions in the timing tier (kernel paths included); thread switches: %llu\n",
                  (ULong)nb_rt_timed_instructions(), (ULong)nb_rt_thread_switches());
        if (nb_clo.clock_emulated) {
            const ULong half = nb_rt_clock_half_width();
            if (half == ~0ull)
                VG_(umsg)("netburst: emulated clock at exit: %llu cycles (not bounded)\n", (ULong)nb_rt_cycles_now());
            else
                VG_(umsg)("netburst: emulated clock at exit: %llu cycles, 99.7 %% interval +- %llu\n",
                          (ULong)nb_rt_cycles_now(), half);
        }
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
    nb_options_register();
    VG_(needs_superblock_discards)(nb_discard_superblock);
    nb_events_register();
    VG_(clo_vex_control).guest_chase = False;
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
