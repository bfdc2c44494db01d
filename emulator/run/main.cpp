// netburst-run: runs a program on the emulated Pentium 4 under the netburst Valgrind tool. With -e it counts the
// events over the whole program and prints them at exit, like `perf stat`; without, it only runs the program, so
// that a PAPI program inside can count. See doc/netburst-run.md.
#include <getopt.h>
#include <unistd.h>

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
#include "emulator/run/progress.h"
#include "emulator/run/record_main.h"
#include "emulator/run/report.h"
#include "emulator/protocol/tool_options.h"
#include "table/cpu_model.h"

namespace {

using namespace netburst;
using namespace netburst::emu::run;


const char* kUsage =
    "Usage: netburst-run [OPTIONS] [--] PROGRAM [ARGS...]\n"
    "       netburst-run record -e EVENT[:precise=N] [-c PERIOD] [-o perf.data] [--callgrind FILE] [--] PROGRAM\n"
    "       netburst-run --merge [--json] [-o FILE] REPORT...\n"
    "Run PROGRAM on an emulated Intel Pentium 4 (NetBurst) under Valgrind; sample one of its events into perf.data\n"
    "(record: netburst-run record --help); or merge the per-rank reports of a parallel run (netburst-run's --json\n"
    "reports and PAPI's papi_hl_output/rank_NNNNNN.json) into one table. A program named 'record' runs as\n"
    "'netburst-run -- record'.\n"
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
    "      --clock=emulated the program's clock is the emulated Pentium 4's: rdtsc reads its cycles, and\n"
    "                       clock_gettime, gettimeofday and time advance at its nominal frequency, and the\n"
    "                       CPU-time timers (setitimer ITIMER_PROF and ITIMER_VIRTUAL: PAPI's multiplexing)\n"
    "                       expire on its cycles (every instruction is then timed). Default --clock=host:\n"
    "                       the host's clock and timers\n"
    "      --no-children    do not follow exec'd programs (they then run natively and are not counted)\n"
    "      --json           print the counts as JSON\n"
    "  -o, --output FILE    write the counts to FILE instead of standard error. FILE may hold %r (the MPI rank:\n"
    "                       OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or SLURM_PROCID, the first set), %p (the\n"
    "                       program's process id), %h (the host name) and %% (a percent sign)\n"
    "      --merge          read the REPORTs and print, per event, each rank's value, the minimum, median,\n"
    "                       maximum, sum and imbalance (maximum over mean)\n"
    "      --no-progress    no progress line (default: one on standard error while the program runs, when standard\n"
    "                       error is a terminal)\n"
    "      --record FILE    also record the instruction stream as a binary trace (%p: the process id)\n"
    "      --valgrind-option OPT  pass OPT to Valgrind (repeatable)\n"
    "  -h, --help           this help\n"
    "\n"
    "Environment: PAPI_NETBURST_FP=sse|x87|x87_sse_dp selects the FP presets' recipes (default sse);\n"
    "NETBURST_VALGRIND and NETBURST_VALGRIND_LIB override where valgrind and the tool are found.\n"
    "\n"
    "Exit status: the program's (128+N when signal N killed it); 125 when netburst-run itself fails (unknown\n"
    "event, events that cannot be counted together, valgrind missing), 126/127 when PROGRAM cannot be run.\n";

struct Options {
    std::vector<std::string> events;
    unsigned model = kDefaultModel;
    bool ht = false;
    bool l3 = false;
    bool cpu_wide = false;
    bool kernel_model = true;
    std::uint64_t timer_tick = emu::vg::kDefaultTimerTick;
    bool children = true;
    bool json = false;
    std::string output;
    std::string record;
    std::vector<std::string> valgrind_options;
    bool merge = false;
    bool progress = true;
    bool emulated_clock = false;
    std::vector<std::string> command;  // with --merge: the reports
};

[[noreturn]] void fail(const std::string& message, int status = kExitOwnError) {
    std::cerr << "netburst-run: " << message << "\n";
    std::exit(status);
}

[[noreturn]] void usage_error(const std::string& message) {
    std::cerr << "netburst-run: " << message << "\nTry 'netburst-run --help'.\n";
    std::exit(kExitOwnError);
}

void split_events(const std::string& list, std::vector<std::string>* out) {
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) out->push_back(item);
}

Options parse_options(int argc, char** argv) {
    enum {
        kModel = 256, kHt, kL3, kCpuWide, kKernelModel, kTimerTick, kNoChildren, kJson, kRecord, kValgrindOption,
        kMerge, kNoProgress, kClock
    };
    static const option kLong[] = {
        {"event", required_argument, nullptr, 'e'},   {"model", required_argument, nullptr, kModel},
        {"ht", no_argument, nullptr, kHt},            {"l3", no_argument, nullptr, kL3},
        {"cpu-wide", no_argument, nullptr, kCpuWide}, {"kernel-model", required_argument, nullptr, kKernelModel},
        {"timer-tick", required_argument, nullptr, kTimerTick},
        {"no-children", no_argument, nullptr, kNoChildren},
        {"json", no_argument, nullptr, kJson},        {"output", required_argument, nullptr, 'o'},
        {"record", required_argument, nullptr, kRecord},
        {"valgrind-option", required_argument, nullptr, kValgrindOption},
        {"merge", no_argument, nullptr, kMerge},      {"no-progress", no_argument, nullptr, kNoProgress},
        {"clock", required_argument, nullptr, kClock},
        {"help", no_argument, nullptr, 'h'},          {nullptr, 0, nullptr, 0}};
    Options o;
    int c;
    // '+': options end at the program's name, so that its own options are left alone.
    while ((c = getopt_long(argc, argv, "+e:o:h", kLong, nullptr)) != -1) {
        switch (c) {
        case 'e': split_events(optarg, &o.events); break;
        case kModel: {
            char* end = nullptr;
            const unsigned long m = std::strtoul(optarg, &end, 10);
            if (!*optarg || *end || !model_exists(static_cast<unsigned>(m)) || m > 15)
                usage_error(std::string("--model ") + optarg + ": NetBurst models are 0, 1, 2, 3, 4 and 6");
            o.model = static_cast<unsigned>(m);
            break;
        }
        case kHt: o.ht = true; break;
        case kL3: o.l3 = true; break;
        case kCpuWide: o.cpu_wide = true; break;
        case kKernelModel:
            if (std::string(optarg) == "yes") o.kernel_model = true;
            else if (std::string(optarg) == "no") o.kernel_model = false;
            else usage_error("--kernel-model takes yes or no");
            break;
        case kTimerTick: {
            char* end = nullptr;
            const unsigned long long n = std::strtoull(optarg, &end, 10);
            if (!*optarg || *end || optarg[0] == '-')
                usage_error(std::string("--timer-tick ") + optarg + ": give the instructions between ticks (0: none)");
            o.timer_tick = n;
            break;
        }
        case kNoChildren: o.children = false; break;
        case kJson: o.json = true; break;
        case 'o': o.output = optarg; break;
        case kRecord: o.record = optarg; break;
        case kValgrindOption: o.valgrind_options.emplace_back(optarg); break;
        case kMerge: o.merge = true; break;
        case kNoProgress: o.progress = false; break;
        case kClock:
            if (std::string(optarg) == "emulated") o.emulated_clock = true;
            else if (std::string(optarg) == "host") o.emulated_clock = false;
            else usage_error(std::string("--clock ") + optarg + ": the clock is 'host' or 'emulated'");
            break;
        case 'h': std::cout << kUsage; std::exit(0);
        default: usage_error("unknown option");
        }
    }
    for (int i = optind; i < argc; ++i) o.command.emplace_back(argv[i]);
    if (o.command.empty()) usage_error(o.merge ? "no reports to merge" : "no program to run");
    return o;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

// The report on standard error, or in the -o file.
void write_report(const std::string& report, const std::string& file) {
    if (file.empty()) {
        std::cerr << report;
        return;
    }
    std::ofstream out(file);
    if (!(out << report) || !out.flush()) fail(file + ": cannot be written");
}

}  // namespace

int main(int argc, char** argv) {
    // perf's habit: a subcommand first (`netburst-run record ...`); anything else is a counting run.
    if (argc > 1 && std::string(argv[1]) == "record") return record_main(argc - 1, argv + 1);
    const Options o = parse_options(argc, argv);
    if (o.merge) {
        auto merged = merge_reports_text(o.command, o.json);
        if (!merged) fail(merged.error().message);
        // The merged table is the command's own output (a run's report goes to standard error, beside the
        // program's output).
        if (o.output.empty()) std::cout << *merged;
        else write_report(*merged, o.output);
        return 0;
    }
    // A wrong pattern, or %r outside a parallel job, is found before the program runs rather than after.
    if (auto checked = expand_output_pattern(o.output, process_pattern_context(0)); !checked) fail(checked.error().message);

    PlanOptions po;
    po.model = o.model;
    po.hyper_threading = o.ht;
    po.with_l3 = o.l3;
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

    Launch launch;
    if (LaunchFailure f; !find_launch(o.command[0], &launch, &f)) fail(f.message, f.exit_status);

    TempDir dir;
    const bool progress = o.progress && isatty(STDERR_FILENO);
    if (!o.events.empty() || progress)
        if (auto made = dir.create(); !made) fail(made.error().message);
    std::vector<std::string> args = {launch.valgrind, "--tool=netburst", "-q", "--model=" + std::to_string(o.model),
                                     "--ht=" + yes_no(o.ht), "--l3=" + yes_no(o.l3),
                                     "--cpu-wide=" + yes_no(o.cpu_wide), "--kernel-model=" + yes_no(o.kernel_model),
                                     "--timer-tick=" + std::to_string(o.timer_tick),
                                     "--trace-children=" + yes_no(o.children),
                                     std::string("--clock=") + (o.emulated_clock ? "emulated" : "host")};
    // Results come back even without events: the tool also reports instructions the model does not have.
    if (auto made = dir.create(); !made) fail(made.error().message);
    args.push_back("--results=" + dir.path());
    if (!o.events.empty()) {
        auto program_file = write_event_program(plan.program, dir.path());
        if (!program_file) fail(program_file.error().message);
        args.push_back("--program=" + *program_file);
    }
    if (progress) args.push_back("--progress=" + dir.path());
    if (!o.record.empty()) args.push_back("--record=" + o.record);
    for (const std::string& v : o.valgrind_options) args.push_back(v);
    args.push_back("--");
    args.insert(args.end(), o.command.begin(), o.command.end());

    ProgressLine line(dir.path());
    auto ran = progress ? run_and_wait(args, launch.tool_dir, [&line] { line.update(); }) : run_and_wait(args, launch.tool_dir);
    line.clear();
    if (!ran) fail(ran.error().message);
    const int exit_status = ran->signaled ? 128 + ran->status : ran->status;
    if (o.events.empty()) {
        // No report to put it in: say it on standard error, where Valgrind's own messages go.
        auto totals = read_results(dir.path(), 0);
        if (totals && totals->missing != 0) std::cerr << "netburst-run: " << describe_missing(o.model, *totals) << "\n";
        return exit_status;
    }

    auto totals = read_results(dir.path(), plan.program.num_events);
    if (!totals) fail(totals.error().message);
    if (totals->images == 0) {
        std::cerr << "netburst-run: the program did not run under the emulator (see Valgrind's message above)\n";
        return ran->status != 0 || ran->signaled ? exit_status : kExitOwnError;
    }
    RunDescription run;
    run.command = o.command;
    run.model = o.model;
    run.hyper_threading = o.ht;
    run.with_l3 = o.l3;
    run.cpu_wide = o.cpu_wide;
    run.kernel_model = o.kernel_model;
    run.timer_tick = o.kernel_model ? o.timer_tick : 0;
    run.signaled = ran->signaled;
    run.status = ran->status;
    const PatternContext context = process_pattern_context(ran->pid);
    run.rank = find_rank(context);
    run.host = context.host;
    const auto values = event_values(plan, *totals, o.ht ? 2 : 1);
    const std::string report = o.json ? format_json(run, values, *totals) : format_text(run, values, *totals);
    write_report(report, *expand_output_pattern(o.output, context));
    return exit_status;
}
