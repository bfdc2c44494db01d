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
#include "emulator/run/report.h"
#include "emulator/valgrind/kernel_model.h"
#include "table/cpu_model.h"

namespace {

using namespace netburst;
using namespace netburst::emu::run;

// Exit statuses of netburst-run's own failures; otherwise it exits with the program's status (128 + the signal
// number when a signal killed it), as a shell would.
constexpr int kExitOwnError = 125;
constexpr int kExitNotExecutable = 126;
constexpr int kExitNotFound = 127;

const char* kUsage =
    "Usage: netburst-run [OPTIONS] [--] PROGRAM [ARGS...]\n"
    "Run PROGRAM on an emulated Intel Pentium 4 (NetBurst) under Valgrind.\n"
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
    "      --no-children    do not follow exec'd programs (they then run natively and are not counted)\n"
    "      --json           print the counts as JSON\n"
    "  -o, --output FILE    write the counts to FILE instead of standard error\n"
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
    std::vector<std::string> command;
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
    enum { kModel = 256, kHt, kL3, kCpuWide, kKernelModel, kTimerTick, kNoChildren, kJson, kRecord, kValgrindOption };
    static const option kLong[] = {
        {"event", required_argument, nullptr, 'e'},   {"model", required_argument, nullptr, kModel},
        {"ht", no_argument, nullptr, kHt},            {"l3", no_argument, nullptr, kL3},
        {"cpu-wide", no_argument, nullptr, kCpuWide}, {"kernel-model", required_argument, nullptr, kKernelModel},
        {"timer-tick", required_argument, nullptr, kTimerTick},
        {"no-children", no_argument, nullptr, kNoChildren},
        {"json", no_argument, nullptr, kJson},        {"output", required_argument, nullptr, 'o'},
        {"record", required_argument, nullptr, kRecord},
        {"valgrind-option", required_argument, nullptr, kValgrindOption},
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
        case 'h': std::cout << kUsage; std::exit(0);
        default: usage_error("unknown option");
        }
    }
    for (int i = optind; i < argc; ++i) o.command.emplace_back(argv[i]);
    if (o.command.empty()) usage_error("no program to run");
    return o;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse_options(argc, argv);

    PlanOptions po;
    po.model = o.model;
    po.hyper_threading = o.ht;
    po.with_l3 = o.l3;
    if (const char* fp = std::getenv("PAPI_NETBURST_FP"); fp && *fp && !parse_fp_variant(fp, &po.fp))
        fail(std::string("PAPI_NETBURST_FP=") + fp + ": expected sse, x87 or x87_sse_dp");
    EventPlan plan;
    if (!o.events.empty()) {
        auto p = plan_events(o.events, po);
        if (!p) fail(p.error().message);
        plan = std::move(p.value());
    }

    auto valgrind = find_valgrind();
    if (!valgrind) fail(valgrind.error().message);
    auto tool_dir = find_tool_dir();
    if (!tool_dir) fail(tool_dir.error().message);
    auto program = find_program(o.command[0]);
    if (!program) {
        const bool missing = program.error().message.find("not found") != std::string::npos ||
                             program.error().message.find("No such file") != std::string::npos;
        fail(program.error().message, missing ? kExitNotFound : kExitNotExecutable);
    }

    TempDir dir;
    std::vector<std::string> args = {*valgrind, "--tool=netburst", "-q", "--model=" + std::to_string(o.model),
                                     "--ht=" + yes_no(o.ht), "--l3=" + yes_no(o.l3),
                                     "--cpu-wide=" + yes_no(o.cpu_wide), "--kernel-model=" + yes_no(o.kernel_model),
                                     "--timer-tick=" + std::to_string(o.timer_tick),
                                     "--trace-children=" + yes_no(o.children)};
    // Results come back even without events: the tool also reports instructions the model does not have.
    if (auto made = dir.create(); !made) fail(made.error().message);
    args.push_back("--results=" + dir.path());
    if (!o.events.empty()) {
        std::vector<char> text(1 << 16);
        const std::size_t n = emu::vg::format_event_program(plan.program, text.data(), text.size());
        const std::string program_file = dir.path() + "/program";
        std::ofstream out(program_file);
        if (n == 0 || !out.write(text.data(), static_cast<std::streamsize>(n)) || !out.flush())
            fail(program_file + ": cannot be written");
        args.push_back("--program=" + program_file);
    }
    if (!o.record.empty()) args.push_back("--record=" + o.record);
    for (const std::string& v : o.valgrind_options) args.push_back(v);
    args.push_back("--");
    args.insert(args.end(), o.command.begin(), o.command.end());

    auto ran = run_and_wait(args, *tool_dir);
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
    const auto values = event_values(plan, *totals, o.ht ? 2 : 1);
    const std::string report = o.json ? format_json(run, values, *totals) : format_text(run, values, *totals);
    if (o.output.empty()) {
        std::cerr << report;
    } else {
        std::ofstream out(o.output);
        if (!(out << report) || !out.flush()) fail(o.output + ": cannot be written");
    }
    return exit_status;
}
