/* The tool's command line: its options, their defaults and their help. netburst-run passes the ones it sets
 * explicitly; their shared defaults are in emulator/protocol/tool_options.h. */
#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "emulator/pmi_skid.h"
#include "emulator/protocol/tool_options.h"
#include "emulator/valgrind/nb_tool.h"
#include "table/default_model.h"

struct nb_options nb_clo = {.model = NB_DEFAULT_MODEL, .kernel_model = True, .timer_tick = NB_DEFAULT_TIMER_TICK,
                            .fixed_random = True, .pmi_skid = -1, .memo_probe_states = 1LL << 22,
                            .sample_period = NB_DEFAULT_SAMPLE_PERIOD, .sample_warm = NB_DEFAULT_SAMPLE_WARM,
                            .sample_unit = NB_DEFAULT_SAMPLE_UNIT, .sample_head = NB_DEFAULT_SAMPLE_HEAD,
                            .clock_emulated = True};

/* The sample schedule's lengths are bounded so that warm + unit cannot overflow. */
#define NB_MAX_SAMPLE_LENGTH 1000000000000LL

/* --timing=exact|sampled; any other value is an error that lists the two. */
static void take_timing(const HChar* arg, const HChar* value) {
    if (VG_(strcmp)(value, "exact") == 0) nb_clo.timing_sampled = False;
    else if (VG_(strcmp)(value, "sampled") == 0) nb_clo.timing_sampled = True;
    else VG_(fmsg_bad_option)(arg, "the timing is 'exact' or 'sampled'\n");
}

static Bool process_option(const HChar* arg) {
    const HChar* timing;
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
    else if VG_STR_CLO(arg, "--timing", timing) take_timing(arg, timing);
    else if VG_BINT_CLO(arg, "--sample-period", nb_clo.sample_period, 1, NB_MAX_SAMPLE_LENGTH) {}
    else if VG_BINT_CLO(arg, "--sample-warm", nb_clo.sample_warm, 0, NB_MAX_SAMPLE_LENGTH) {}
    else if VG_BINT_CLO(arg, "--sample-unit", nb_clo.sample_unit, 0, NB_MAX_SAMPLE_LENGTH) {}
    else if VG_BINT_CLO(arg, "--sample-head", nb_clo.sample_head, 0, NB_MAX_SAMPLE_LENGTH) {}
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
        "                              clock, or the emulated core's cycles (exact while every instruction\n"
        "                              is timed, else estimated from the sampled schedule) [emulated]\n"
        "    --timing=exact|sampled    exact: while a counter needs cycles, every instruction runs in the\n"
        "                              timing tier; sampled: a warmed, measured unit every sample period,\n"
        "                              and cycle-driven counts are estimates with a 99.7 %% confidence\n"
        "                              interval (doc/sampled-timing.md) [exact]\n"
        "    --sample-period=N         the sampled schedule (--timing=sampled, and the emulated clock while\n"
        "                              no counter needs cycles): program instructions from one sample's\n"
        "                              start to the next's [" NB_STRINGIFY_VALUE(NB_DEFAULT_SAMPLE_PERIOD) "]\n"
        "    --sample-warm=N           the sampled schedule's instructions of detailed warming before each\n"
        "                              unit [" NB_STRINGIFY_VALUE(NB_DEFAULT_SAMPLE_WARM) "]\n"
        "    --sample-unit=N           the sampled schedule's instructions of each measured unit (at least\n"
        "                              1; warm + unit must fit in the period) ["
        NB_STRINGIFY_VALUE(NB_DEFAULT_SAMPLE_UNIT) "]\n"
        "    --sample-head=N           with --timing=sampled, instructions timed after each read or write of a\n"
        "                              counter: PAPI's intervals shorter than that are exact ["
        NB_STRINGIFY_VALUE(NB_DEFAULT_SAMPLE_HEAD) "]\n"
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

/* The schedule is checked with --timing=exact too: a bad one given there is a mistake all the same. Valgrind's
 * bad-option message ends the run only while it parses options, not after (in post_clo_init), so the exit is ours. */
void nb_options_check(void) {
    if (nb_clo.sample_unit < 1) {
        VG_(fmsg_bad_option)("--sample-unit=0", "a measured unit needs at least 1 instruction\n");
        VG_(exit)(1);
    }
    if (nb_clo.sample_warm + nb_clo.sample_unit > nb_clo.sample_period) {
        VG_(fmsg_bad_option)("--sample-period",
                             "warming and the measured unit must fit in the period: --sample-warm=%llu + "
                             "--sample-unit=%llu is more than --sample-period=%llu\n",
                             nb_clo.sample_warm, nb_clo.sample_unit, nb_clo.sample_period);
        VG_(exit)(1);
    }
}

void nb_options_register(void) { VG_(needs_command_line_options)(process_option, print_usage, print_debug_usage); }
