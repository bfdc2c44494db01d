// netburst-run: runs a program on the emulated Pentium 4 under the netburst Valgrind tool. With -e it counts the
// events over the whole program and prints them at exit, like `perf stat`; without, it only runs the program, so
// that a PAPI program inside can count. See doc/netburst-run.md.
#include <getopt.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "emulator/run/event_plan.h"
#include "emulator/run/launch.h"
#include "emulator/run/merge_main.h"
#include "emulator/run/output_pattern.h"
#include "emulator/run/record_main.h"
#include "emulator/run/report.h"
#include "emulator/pmi_skid.h"  // NB_STRINGIFY_VALUE
#include "emulator/protocol/tool_options.h"
#include "table/cpu_model.h"

namespace {

using namespace netburst;
using namespace netburst::emu::run;


const char* kUsage =
    "Usage: netburst-run [OPTIONS] [--] PROGRAM [ARGS...]\n"
    "       netburst-run record -e EVENT[:precise=N] [-c PERIOD] [-o perf.data] [--callgrind FILE] [--] PROGRAM\n"
    "       netburst-run merge [--json] [-o FILE] REPORT...\n"
    "Run PROGRAM on an emulated Intel Pentium 4 (NetBurst) under Valgrind; sample one of its events into perf.data\n"
    "(record: netburst-run record --help); or merge the per-rank reports of a parallel run (netburst-run's --json\n"
    "reports and PAPI's papi_hl_output/rank_NNNNNN.json) into one table (merge: netburst-run merge --help). A\n"
    "program named 'record' or 'merge' runs after '--': netburst-run -- merge.\n"
    "\n"
    "  -e, --event EVENT    count EVENT over the whole program and print it at exit: a PAPI preset (PAPI_TOT_INS),\n"
    "                       a native event (branch_retired:MMTP:MMTM:u) or an at-retirement metric\n"
    "                       (1stL_cache_load_miss_retired); repeat -e, or separate events with commas.\n"
    "                       Without -e the program only runs, so that PAPI inside it can count.\n"
    "      --model N        the emulated processor: family 0FH model 0, 1, 2 (default), 3, 4 or 6\n"
    "      --ht             two logical processors (Hyper-Threading); guest threads alternate between them\n"
    "      --l3             the Xeon MP variant of the model, with an L3 cache\n"
    "      --cpu-wide       one PMU for all threads (the CPU-wide view) instead of one per thread\n"
    "      --kernel-model=no  no synthetic kernel path for system calls: events counting at CPL 0 (:k) report\n"
    "                       'unsupported' (default: yes)\n"
    "      --timer-tick N   with the kernel model, a timer interrupt every N instructions of each thread, run as a\n"
    "                       synthetic CPL-0 path (default 8000000, about a 4 ms tick; 0: none)\n"
    "      --clock=host     the program reads the host's clock and its CPU-time timers are the host's. Default\n"
    "                       --clock=emulated: the emulated Pentium 4's. rdtsc reads its cycles, clock_gettime,\n"
    "                       gettimeofday and time advance at its nominal frequency, and the CPU-time timers\n"
    "                       (setitimer ITIMER_PROF and ITIMER_VIRTUAL: PAPI's multiplexing) expire on its\n"
    "                       cycles. They are exact while every instruction is timed, and estimated from the\n"
    "                       sampled schedule below while no counter needs cycles\n"
    "      --timing=sampled time a sample of the program in the cycle-exact tier: every "
    NB_STRINGIFY_VALUE(NB_DEFAULT_SAMPLE_PERIOD) " instructions,\n"
    "                       " NB_STRINGIFY_VALUE(NB_DEFAULT_SAMPLE_WARM) " of warming and a measured unit of "
    NB_STRINGIFY_VALUE(NB_DEFAULT_SAMPLE_UNIT) ", and the first " NB_STRINGIFY_VALUE(NB_DEFAULT_SAMPLE_HEAD)
    " after each read or write of a\n"
    "                       counter, so that PAPI's short intervals are exact (--valgrind-option=\n"
    "                       --sample-period=N, --sample-warm=N, --sample-unit=N, --sample-head=N change them).\n"
    "                       Architectural events (instructions, branches, misses...) stay exact; cycle-driven\n"
    "                       ones (cycles, stalls, replays...) are estimates with a 99.7 % confidence interval.\n"
    "                       Default --timing=exact: every instruction is timed\n"
    "                       while a counter needs cycles\n"
    "      --cpu-view=host  the program reads the host's /proc/cpuinfo and /sys/devices/system/cpu. Default\n"
    "                       --cpu-view=emulated: the emulated Pentium 4's (model, clock, flags, caches, --ht)\n"
    "      --no-children    do not follow exec'd programs (they then run natively and are not counted)\n"
    "      --json           print the counts as JSON\n"
    "  -o, --output FILE    write the counts to FILE instead of standard error. FILE may hold %r (the MPI rank:\n"
    "                       OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or SLURM_PROCID, the first set), %p (the\n"
    "                       program's process id), %h (the host name) and %% (a percent sign)\n"
    "      --merge          the same as netburst-run merge: the arguments are the REPORTs\n"
    "      --no-progress    no progress line (default: one on standard error while the program runs, when standard\n"
    "                       error is a terminal)\n"
    "      --no-64-bit-note no note that an x86-64 program runs on a model whose part had no 64-bit mode (models\n"
    "                       0, 1 and 2, the default's too: their CPUID has no Intel 64; the program runs all the same)\n"
    "      --record FILE    also record the instruction stream as a binary trace (%p: the process id)\n"
    "      --valgrind-option OPT  pass OPT to Valgrind (repeatable)\n"
    "  -h, --help           this help\n"
    "\n"
    "Environment: PAPI_NETBURST_FP=sse|x87|x87_sse_dp selects the FP presets' recipes (default: x87 for an i386\n"
    "  program, sse for an x86-64 one);\n"
    "NETBURST_VALGRIND and NETBURST_VALGRIND_LIB override where valgrind and the tool are found.\n"
    "\n"
    "Exit status: the program's (128+N when signal N killed it); 125 when netburst-run itself fails (unknown\n"
    "event, events that cannot be counted together, valgrind missing), 126/127 when PROGRAM cannot be run.\n";

struct Options {
    std::vector<std::string> events;
    bool ht = false;
    bool l3 = false;
    bool cpu_wide = false;
    bool json = false;
    std::string output;
    std::string record;
    bool merge = false;
    bool emulated_clock = true;
    ToolOptions tool;
    std::vector<std::string> command;  // with --merge: the reports
};

constexpr const char* kName = "netburst-run";

[[noreturn]] void fail(const std::string& message) { std::exit(failed(kName, message)); }

void split_events(const std::string& list, std::vector<std::string>* out) {
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) out->push_back(item);
}

Options parse_options(int argc, char** argv) {
    enum { kHt = 256, kL3, kCpuWide, kJson, kRecord, kMerge, kClock };
    Options o;
    auto take = [&o](int c, const char* arg) {
        switch (c) {
        case 'e': split_events(arg, &o.events); return true;
        case kHt: o.ht = true; return true;
        case kL3: o.l3 = true; return true;
        case kCpuWide: o.cpu_wide = true; return true;
        case kJson: o.json = true; return true;
        case 'o': o.output = arg; return true;
        case kRecord: o.record = arg; return true;
        case kMerge: o.merge = true; return true;
        case kClock:
            if (std::string(arg) == "emulated") o.emulated_clock = true;
            else if (std::string(arg) == "host") o.emulated_clock = false;
            else usage_error(kName, std::string("--clock ") + arg + ": the clock is 'host' or 'emulated'");
            return true;
        }
        return false;
    };
    o.command = parse_run_options(argc, argv, kName, kUsage, "e:o:",
                                  {{"event", required_argument, nullptr, 'e'}, {"ht", no_argument, nullptr, kHt},
                                   {"l3", no_argument, nullptr, kL3}, {"cpu-wide", no_argument, nullptr, kCpuWide},
                                   {"json", no_argument, nullptr, kJson}, {"output", required_argument, nullptr, 'o'},
                                   {"record", required_argument, nullptr, kRecord},
                                   {"merge", no_argument, nullptr, kMerge}, {"clock", required_argument, nullptr, kClock}},
                                  take, &o.tool);
    if (o.command.empty()) usage_error(kName, o.merge ? "no reports to merge" : "no program to run");
    return o;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

// The report on standard error, or in the -o file; false when the file cannot be written.
bool write_report(const std::string& report, const std::string& file) {
    if (file.empty()) {
        std::cerr << report;
        return true;
    }
    std::ofstream out(file);
    return (out << report) && out.flush();
}

}  // namespace

int main(int argc, char** argv) {
    // perf's habit: a subcommand first (`netburst-run record ...`); anything else is a counting run.
    if (argc > 1 && std::string(argv[1]) == "record") return record_main(argc - 1, argv + 1);
    if (argc > 1 && std::string(argv[1]) == "merge") return merge_main(argc - 1, argv + 1);
    const Options o = parse_options(argc, argv);
    if (o.merge) return merge_files(o.command, o.json, o.output);  // --merge: the subcommand's old spelling
    // A wrong pattern, or %r outside a parallel job, is found before the program runs rather than after.
    if (auto checked = expand_output_pattern(o.output, process_pattern_context(0)); !checked) fail(checked.error().message);

    const emu::EmulatedMachine machine = emu::EmulatedMachine{}.with_model(o.tool.model).with_ht(o.ht).with_l3(o.l3);
    PlanOptions po;
    po.machine = machine;
    // The FP presets count the program's default floating point unless PAPI_NETBURST_FP says otherwise.
    po.fp = default_fp_variant_of(o.command);
    if (auto fp = fp_variant_from_environment(po.fp); fp) po.fp = *fp;
    else fail(fp.error().message);
    EventPlan plan;
    if (!o.events.empty()) {
        auto p = plan_events(o.events, po);
        if (!p) fail(p.error().message);
        plan = std::move(p.value());
        for (const std::string& e : plan.left_out)
            std::cerr << "netburst-run: -e all leaves out " << e << ": not countable in this configuration\n";
    }

    ToolRun tool_run;
    tool_run.options = o.tool;
    tool_run.machine = machine;
    tool_run.tool_args = {"--ht=" + yes_no(o.ht), "--l3=" + yes_no(o.l3), "--cpu-wide=" + yes_no(o.cpu_wide),
                          std::string("--clock=") + (o.emulated_clock ? "emulated" : "host")};
    if (!o.record.empty()) tool_run.tool_args.push_back("--record=" + o.record);
    // Results come back even without events: the tool also reports instructions the model does not have.
    if (!o.events.empty()) tool_run.program = &plan.program;
    tool_run.command = o.command;
    TempDir dir;
    ChildStatus ran;
    if (LaunchFailure f; !launch_under_tool(tool_run, &dir, &ran, &f)) return failed(kName, f.message, f.exit_status);
    if (o.events.empty()) {
        // No report to put it in: say it on standard error, where Valgrind's own messages go.
        auto totals = read_results(dir.path(), 0);
        if (totals && totals->missing != 0)
            std::cerr << "netburst-run: " << describe_missing(o.tool.model, *totals) << "\n";
        return ran.exit_status();
    }

    auto totals = read_results(dir.path(), plan.program.num_events);
    if (!totals) return failed(kName, totals.error().message);
    if (totals->images == 0) {
        std::cerr << "netburst-run: the program did not run under the emulator (see Valgrind's message above)\n";
        return ran.exit_status_not_emulated();
    }
    RunDescription run;
    run.command = o.command;
    run.machine = machine;
    run.cpu_wide = o.cpu_wide;
    run.kernel_model = o.tool.kernel_model;
    run.timer_tick = o.tool.kernel_model ? o.tool.timer_tick : 0;
    run.sampled_timing = o.tool.timing == Timing::kSampled;
    run.signaled = ran.signaled;
    run.status = ran.status;
    const PatternContext context = process_pattern_context(ran.pid);
    run.rank = find_rank(context);
    run.host = context.host;
    const auto values = event_values(plan, *totals, machine.logical_processors());
    const std::string report = o.json ? format_json(run, values, *totals) : format_text(run, values, *totals);
    const std::string file = *expand_output_pattern(o.output, context);
    if (!write_report(report, file)) return failed(kName, file + ": cannot be written");
    return ran.exit_status();
}
