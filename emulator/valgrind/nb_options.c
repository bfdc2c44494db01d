/* The tool's command line: its options, their defaults and their help. netburst-run passes the ones it sets
 * explicitly; their shared defaults are in emulator/protocol/tool_options.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "emulator/pmi_skid.h"
#include "emulator/protocol/tool_options.h"
#include "emulator/valgrind/nb_tool.h"
#include "table/default_model.h"

struct nb_options nb_clo = {.model = NB_DEFAULT_MODEL, .kernel_model = True, .timer_tick = NB_DEFAULT_TIMER_TICK,
                            .fixed_random = True, .pmi_skid = -1, .memo_probe_states = 1LL << 22};

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
        "                              thread, run as a synthetic CPL-0 path; 0: none ["
        NB_STRINGIFY_VALUE(NB_DEFAULT_TIMER_TICK) "]\n"
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

void nb_options_register(void) { VG_(needs_command_line_options)(process_option, print_usage, print_debug_usage); }
