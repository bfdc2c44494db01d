#include "emulator/run/record_main.h"

#include <getopt.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "emulator/emulator.h"
#include "emulator/run/callgrind_out.h"
#include "emulator/run/launch.h"
#include "emulator/run/perf_data.h"
#include "emulator/run/progress.h"
#include "emulator/run/report.h"
#include "emulator/run/sample_input.h"
#include "emulator/run/output_pattern.h"
#include "emulator/run/sample_plan.h"
#include "emulator/valgrind/kernel_model.h"
#include "emulator/valgrind/shadow_stack.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

namespace {

const char* kUsage =
    "Usage: netburst-run record [-e EVENT] [-c PERIOD | -F FREQ] [-d] [-g] [-o FILE] [--callgrind FILE] [OPTIONS]\n"
    "                           [--] PROGRAM [ARGS...]\n"
    "Sample one event of PROGRAM on an emulated Intel Pentium 4 (NetBurst) and write perf.data, which perf report,\n"
    "perf script, perf annotate and perf mem report read.\n"
    "\n"
    "  -e, --event EVENT    the event: a native event, an at-retirement metric or a PAPI preset that is one event.\n"
    "                       EVENT:precise=N (N 1-3; perf's :p, :pp, :ppp too) samples by PEBS, at the exact\n"
    "                       instruction; without it the counter's overflow interrupt samples (IEBS), with skid.\n"
    "                       Events that name neither :u nor :k count in user mode. Default: PAPI_TOT_CYC\n"
    "                       (cycles, as perf record's default)\n"
    "  -c, --count PERIOD   one sample every PERIOD events (default for events other than cycles: 100000)\n"
    "  -F, --freq FREQ      FREQ samples a second of the emulated clock (the model's nominal frequency), for the\n"
    "                       cycle event (PAPI_TOT_CYC, global_power_events:RUNNING) only: a fixed period of\n"
    "                       clock / FREQ cycles. Default for cycles: 4000, as perf record's\n"
    "  -g                   every sample carries its call chain (perf report -g, perf script). The chain is a\n"
    "                       shadow call stack the emulator keeps from the calls and returns it runs, not an unwind\n"
    "                       of the program's stack: it needs no frame pointers and no debug information\n"
    "      --call-graph=MODE  the same as -g for MODE fp (perf's default; the chain still comes from the shadow\n"
    "                       stack); dwarf and lbr are not offered\n"
    "  -d, --data           samples carry their data address (perf mem report): PEBS samples always do, and\n"
    "                       only they can, so -d asks for an event with :precise\n"
    "  -o, --output FILE    the perf.data file (default perf.data; an existing one becomes FILE.old)\n"
    "      --callgrind FILE also write FILE in the callgrind format: per instruction and source line, the exact\n"
    "                       count beside samples x period, and the call edges from the shadow call stack, with\n"
    "                       each call's inclusive cost: exact for the exact count, the samples taken during the\n"
    "                       call for the sampled one (callgrind_annotate --inclusive=yes, KCachegrind)\n"
    "                       Both FILEs may hold %r (the MPI rank), %p (the program's process id), %h (the host\n"
    "                       name) and %%, as for counting runs: mpirun -np 4 netburst-run record -o perf.%r.data\n"
    "      --model N        the emulated processor: family 0FH model 0, 1, 2 (default), 3, 4 or 6\n"
    "      --pmi-skid N     cycles from an overflow to its interrupt being taken (default: the emulator's, "
    NB_STRINGIFY_VALUE(NB_DEFAULT_PMI_SKID_CYCLES) ")\n"
    "      --kernel-model=no  no synthetic kernel path for system calls (default: yes)\n"
    "      --timer-tick N   with the kernel model, a timer interrupt every N instructions (default 8000000; 0: none)\n"
    "      --no-children    do not follow exec'd programs\n"
    "      --no-progress    no progress line\n"
    "  -q, --quiet          no summary line\n"
    "      --valgrind-option OPT  pass OPT to Valgrind (repeatable)\n"
    "  -h, --help           this help\n";

struct RecordOptions {
    std::string event;
    std::uint64_t period = 0;     // -c; 0: not given
    std::uint64_t frequency = 0;  // -F; 0: not given
    std::string output = "perf.data";
    std::string callgrind;
    bool callchain = false;
    bool data = false;  // -d: perf's "sample addresses": PEBS samples carry them anyway
    unsigned model = kDefaultModel;
    long pmi_skid = -1;
    bool kernel_model = true;
    std::uint64_t timer_tick = vg::kDefaultTimerTick;
    bool children = true;
    bool progress = true;
    bool quiet = false;
    std::vector<std::string> valgrind_options;
    std::vector<std::string> command;
};

[[noreturn]] void fail(const std::string& message, int status = kExitOwnError) {
    std::cerr << "netburst-run record: " << message << "\n";
    std::exit(status);
}

[[noreturn]] void usage_error(const std::string& message) {
    std::cerr << "netburst-run record: " << message << "\nTry 'netburst-run record --help'.\n";
    std::exit(kExitOwnError);
}

std::uint64_t number_option(const char* name, const char* text) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(text, &end, 10);
    if (!*text || *end || text[0] == '-') usage_error(std::string(name) + " " + text + ": expected a number");
    return n;
}

RecordOptions parse(int argc, char** argv) {
    enum { kCallgrind = 256, kModel, kSkid, kKernelModel, kTimerTick, kNoChildren, kNoProgress, kValgrindOption,
           kCallGraph };
    static const option kLong[] = {
        {"event", required_argument, nullptr, 'e'},      {"count", required_argument, nullptr, 'c'},
        {"output", required_argument, nullptr, 'o'},     {"callgrind", required_argument, nullptr, kCallgrind},
        {"model", required_argument, nullptr, kModel},   {"pmi-skid", required_argument, nullptr, kSkid},
        {"kernel-model", required_argument, nullptr, kKernelModel},
        {"timer-tick", required_argument, nullptr, kTimerTick},
        {"no-children", no_argument, nullptr, kNoChildren}, {"no-progress", no_argument, nullptr, kNoProgress},
        {"quiet", no_argument, nullptr, 'q'},
        {"valgrind-option", required_argument, nullptr, kValgrindOption},
        {"freq", required_argument, nullptr, 'F'},       {"data", no_argument, nullptr, 'd'},       {"call-graph", required_argument, nullptr, kCallGraph},
        {"help", no_argument, nullptr, 'h'},             {nullptr, 0, nullptr, 0}};
    RecordOptions o;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+e:c:o:qF:gdh", kLong, nullptr)) != -1) {
        switch (c) {
        case 'e':
            if (!o.event.empty()) usage_error("one event per recording (-e given twice)");
            o.event = optarg;
            break;
        case 'c':
            o.period = number_option("-c", optarg);
            if (o.period == 0) usage_error("-c 0: give a period of 1 or more events");
            break;
        case 'o': o.output = optarg; break;
        case kCallgrind: o.callgrind = optarg; break;
        case kModel: {
            const std::uint64_t m = number_option("--model", optarg);
            if (m > 15 || !model_exists(static_cast<unsigned>(m)))
                usage_error(std::string("--model ") + optarg + ": NetBurst models are 0, 1, 2, 3, 4 and 6");
            o.model = static_cast<unsigned>(m);
            break;
        }
        case kSkid: {
            const std::uint64_t s = number_option("--pmi-skid", optarg);
            if (s > 100000) usage_error("--pmi-skid: 0 to 100000 cycles");
            o.pmi_skid = static_cast<long>(s);
            break;
        }
        case kKernelModel:
            if (std::string(optarg) == "yes") o.kernel_model = true;
            else if (std::string(optarg) == "no") o.kernel_model = false;
            else usage_error("--kernel-model takes yes or no");
            break;
        case kTimerTick: o.timer_tick = number_option("--timer-tick", optarg); break;
        case kNoChildren: o.children = false; break;
        case kNoProgress: o.progress = false; break;
        case 'q': o.quiet = true; break;
        case kValgrindOption: o.valgrind_options.emplace_back(optarg); break;
        case 'F':
            o.frequency = number_option("-F", optarg);
            if (o.frequency == 0) usage_error("-F 0: give a frequency of 1 or more samples a second");
            break;
        case 'g': o.callchain = true; break;
        case 'd': o.data = true; break;
        case kCallGraph: {
            const std::string mode(optarg);
            // perf's --call-graph=fp[,SIZE] and perf's record-mode spelling; the chain is the shadow stack's anyway.
            if (mode == "fp" || mode.rfind("fp,", 0) == 0) o.callchain = true;
            else usage_error("--call-graph=" + mode + ": only fp (the chain comes from the emulator's shadow call "
                             "stack; no dwarf or lbr unwinding)");
            break;
        }
        case 'h': std::cout << kUsage; std::exit(0);
        default: usage_error("unknown option");
        }
    }
    for (int i = optind; i < argc; ++i) o.command.emplace_back(argv[i]);
    if (o.event.empty()) o.event = "PAPI_TOT_CYC";  // perf record's default event: cycles
    if (o.command.empty()) usage_error("no program to run");
    return o;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

// perf's habit: a new recording does not silently destroy the last one.
void keep_old(const std::string& path) {
    if (access(path.c_str(), F_OK) == 0) std::rename(path.c_str(), (path + ".old").c_str());
}

}  // namespace

int record_main(int argc, char** argv) {
    const RecordOptions o = parse(argc, argv);
    SampleOptions so;
    so.model = o.model;
    so.period = o.period;
    so.frequency = o.frequency;
    so.callchain = o.callchain;
    so.call_edges = !o.callgrind.empty();
    if (auto fp = fp_variant_from_environment(so.fp); fp) so.fp = *fp;
    else fail(fp.error().message);
    auto plan = plan_sampling(o.event, so);
    if (!plan) fail(plan.error().message);
    if (o.data && !plan->event.precise)
        fail("-d: data addresses come from PEBS records: sample an at-retirement metric with :precise=1 (for "
             "example 1stL_cache_load_miss_retired:precise=1; netburst-events lists the metrics)");
    // The file names may be patterns (%r, %p, %h), as for counting runs: checked before the run, expanded after.
    for (const std::string* pattern : {&o.output, &o.callgrind})
        if (auto checked = expand_output_pattern(*pattern, process_pattern_context(0)); !checked)
            fail(checked.error().message);

    Launch launch;
    if (LaunchFailure f; !find_launch(o.command[0], &launch, &f)) fail(f.message, f.exit_status);

    TempDir dir;
    if (auto made = dir.create(); !made) fail(made.error().message);
    auto program_file = write_event_program(plan->program, dir.path());
    if (!program_file) fail(program_file.error().message);
    const bool progress = o.progress && isatty(STDERR_FILENO);
    std::vector<std::string> args = {launch.valgrind, "--tool=netburst", "-q", "--model=" + std::to_string(o.model),
                                     "--kernel-model=" + yes_no(o.kernel_model),
                                     "--timer-tick=" + std::to_string(o.timer_tick),
                                     "--trace-children=" + yes_no(o.children), "--results=" + dir.path(),
                                     "--program=" + *program_file};
    if (o.pmi_skid >= 0) args.push_back("--pmi-skid=" + std::to_string(o.pmi_skid));
    if (progress) args.push_back("--progress=" + dir.path());
    for (const std::string& v : o.valgrind_options) args.push_back(v);
    args.push_back("--");
    args.insert(args.end(), o.command.begin(), o.command.end());

    ProgressLine line(dir.path());
    auto ran = progress ? run_and_wait(args, launch.tool_dir, [&line] { line.update(); }) : run_and_wait(args, launch.tool_dir);
    line.clear();
    if (!ran) fail(ran.error().message);
    const int exit_status = ran->signaled ? 128 + ran->status : ran->status;

    auto totals = read_results(dir.path(), plan->program.num_events);
    if (!totals) fail(totals.error().message);
    if (totals->images == 0) {
        std::cerr << "netburst-run record: the program did not run under the emulator (see Valgrind's message above)\n";
        return ran->status != 0 || ran->signaled ? exit_status : kExitOwnError;
    }
    Profile profile;
    profile.event = plan->event;
    profile.event.exact_total = totals->values.empty() ? 0 : totals->values[0];
    profile.event.exact_unsupported = !totals->unsupported.empty() && totals->unsupported[0];
    profile.command = o.command;
    if (auto read = read_samples_dir(dir.path(), &profile); !read) fail(read.error().message);

    std::vector<std::string> cmdline = {"netburst-run"};
    for (int i = 0; i < argc; ++i) cmdline.emplace_back(argv[i]);
    const PatternContext context = process_pattern_context(ran->pid);
    const std::string output = *expand_output_pattern(o.output, context);
    const std::string callgrind = *expand_output_pattern(o.callgrind, context);
    keep_old(output);
    if (auto w = write_perf_data(output, profile, perf_header_info(o.model, cmdline)); !w) fail(w.error().message);
    if (!callgrind.empty())
        if (auto w = write_callgrind(callgrind, profile); !w) fail(w.error().message);

    if (!o.quiet) {
        std::uint64_t lost = 0;
        std::uint64_t chain_overflow = 0;
        for (const Process& p : profile.processes) {
            lost += p.lost;
            chain_overflow += p.chain_overflow;
        }
        std::cerr << "[ netburst-run record: " << with_commas(static_cast<std::int64_t>(profile.samples.size()))
                  << " samples of " << profile.event.name << " (" << (profile.event.precise ? "PEBS" : "IEBS")
                  << ", one every " << with_commas(static_cast<std::int64_t>(profile.event.period)) << " events";
        if (profile.event.frequency != 0)
            std::cerr << ": " << with_commas(static_cast<std::int64_t>(profile.event.frequency))
                      << " a second of the emulated clock";
        std::cerr << ") in " << output;
        if (!callgrind.empty()) std::cerr << " and " << callgrind;
        std::cerr << "; exact count "
                  << (profile.event.exact_unsupported ? std::string("unsupported")
                                                      : with_commas(static_cast<std::int64_t>(profile.event.exact_total)));
        if (lost) std::cerr << "; " << lost << " interrupts returned nowhere (their thread had stopped)";
        if (chain_overflow)
            std::cerr << "; " << chain_overflow << " calls deeper than the shadow call stack's "
                      << vg::ShadowStack::kCapacity << " entries (no chain entry or call edge of their own)";
        std::cerr << " ]\n";
    }
    // An empty profile is worth a word even with -q: perf report would show nothing and not say why.
    if (profile.samples.empty() && !profile.event.exact_unsupported &&
        profile.event.exact_total < profile.event.period)
        std::cerr << "netburst-run record: no samples: the event counted "
                  << with_commas(static_cast<std::int64_t>(profile.event.exact_total)) << ", less than one period ("
                  << with_commas(static_cast<std::int64_t>(profile.event.period)) << "); give a smaller -c"
                  << (profile.event.frequency != 0 ? " or a higher -F" : "") << "\n";
    return exit_status;
}

}  // namespace netburst::emu::run
