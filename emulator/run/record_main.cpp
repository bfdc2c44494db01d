#include "emulator/run/record_main.h"

#include <getopt.h>
#include <unistd.h>

#include <algorithm>
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
#include "emulator/run/report.h"
#include "emulator/run/sample_input.h"
#include "emulator/run/output_pattern.h"
#include "emulator/run/sample_plan.h"
#include "emulator/protocol/tool_options.h"
#include "emulator/sampling/shadow_stack.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

namespace {

const char* kUsage =
    "Usage: netburst-run record [-e EVENT]... [-c PERIOD | -F FREQ] [-d] [-g] [-o FILE] [--callgrind FILE]\n"
    "                           [OPTIONS] [--] PROGRAM [ARGS...]\n"
    "Sample events of PROGRAM on an emulated Intel Pentium 4 (NetBurst) and write perf.data, which perf report,\n"
    "perf script, perf annotate and perf mem report read.\n"
    "\n"
    "  -e, --event EVENT    an event: a native event, an at-retirement metric or a PAPI preset that is one event.\n"
    "                       EVENT:precise=N (N 1-3; perf's :p, :pp, :ppp too) samples by PEBS, at the exact\n"
    "                       instruction; without it the counter's overflow interrupt samples (IEBS), with skid.\n"
    "                       Events that name neither :u nor :k count in user mode. Default: PAPI_TOT_CYC\n"
    "                       (cycles, as perf record's default). Repeat -e to sample several events in one run,\n"
    "                       each on its own counter with its own overflow interrupt: they must fit on the PMU\n"
    "                       together (the error names the counter or ESCR they collide on), and one of them at\n"
    "                       most can have :precise (one PEBS counter, one PEBS set-up)\n"
    "  -c, --count PERIOD   one sample every PERIOD events, for every event (default for events other than\n"
    "                       cycles: 100000)\n"
    "  -F, --freq FREQ      FREQ samples a second of the emulated clock (the model's nominal frequency), for the\n"
    "                       cycle event (PAPI_TOT_CYC, global_power_events:RUNNING) only: a fixed period of\n"
    "                       clock / FREQ cycles; refused when another event is given (use -c). Default for\n"
    "                       cycles: 4000, as perf record's\n"
    "  -g                   every sample carries its call chain (perf report -g, perf script). The chain is a\n"
    "                       shadow call stack the emulator keeps from the calls and returns it runs, not an unwind\n"
    "                       of the program's stack: it needs no frame pointers and no debug information\n"
    "      --call-graph=MODE  the same as -g for MODE fp (perf's default; the chain still comes from the shadow\n"
    "                       stack); dwarf and lbr are not offered\n"
    "  -d, --data           samples carry their data address (perf mem report): PEBS samples always do, and\n"
    "                       only they can, so -d asks for an event with :precise\n"
    "  -o, --output FILE    the perf.data file (default perf.data; an existing one becomes FILE.old)\n"
    "      --callgrind FILE also write FILE in the callgrind format: per instruction and source line, the exact\n"
    "                       count beside samples x period (two columns per event), and the call edges from the\n"
    "                       shadow call stack, with each call's inclusive cost: exact for the exact count, the\n"
    "                       samples taken during the call for the sampled one (callgrind_annotate\n"
    "                       --inclusive=yes, KCachegrind)\n"
    "                       Both FILEs may hold %r (the MPI rank), %p (the program's process id), %h (the host\n"
    "                       name) and %%, as for counting runs: mpirun -np 4 netburst-run record -o perf.%r.data\n"
    "      --model N        the emulated processor: family 0FH model 0, 1, 2 (default), 3, 4 or 6\n"
    "      --pmi-skid N     cycles from an overflow to its interrupt being taken (default: the emulator's, "
    NB_STRINGIFY_VALUE(NB_DEFAULT_PMI_SKID_CYCLES) ")\n"
    "      --kernel-model=no  no synthetic kernel path for system calls (default: yes)\n"
    "      --timer-tick N   with the kernel model, a timer interrupt every N instructions (default 8000000; 0: none)\n"
    "      --cpu-view=host  the program reads the host's /proc/cpuinfo and /sys/devices/system/cpu, not the\n"
    "                       emulated Pentium 4's\n"
    "      --timing=sampled time a sample of the program in the cycle-exact tier; cycle-driven counts are then\n"
    "                       estimates with a 99.7 % confidence interval (netburst-run --help). Default: exact\n"
    "      --no-children    do not follow exec'd programs\n"
    "      --no-progress    no progress line\n"
    "      --no-64-bit-note no note that an x86-64 program runs on a model without 64-bit mode (0, 1, 2)\n"
    "  -q, --quiet          no summary line\n"
    "      --valgrind-option OPT  pass OPT to Valgrind (repeatable)\n"
    "  -h, --help           this help\n";

struct RecordOptions {
    std::vector<std::string> events;
    std::uint64_t period = 0;     // -c; 0: not given
    std::uint64_t frequency = 0;  // -F; 0: not given
    std::string output = "perf.data";
    std::string callgrind;
    bool callchain = false;
    bool data = false;  // -d: perf's "sample addresses": PEBS samples carry them anyway
    long pmi_skid = -1;
    bool quiet = false;
    ToolOptions tool;
    std::vector<std::string> command;
};

constexpr const char* kName = "netburst-run record";

[[noreturn]] void fail(const std::string& message) { std::exit(failed(kName, message)); }

std::uint64_t number_option(const char* name, const char* text) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(text, &end, 10);
    if (!*text || *end || text[0] == '-') usage_error(kName, std::string(name) + " " + text + ": expected a number");
    return n;
}

RecordOptions parse(int argc, char** argv) {
    enum { kCallgrind = 256, kSkid, kCallGraph };
    RecordOptions o;
    auto take = [&o](int c, const char* arg) {
        switch (c) {
        case 'e': o.events.emplace_back(arg); return true;
        case 'c':
            o.period = number_option("-c", arg);
            if (o.period == 0) usage_error(kName, "-c 0: give a period of 1 or more events");
            return true;
        case 'o': o.output = arg; return true;
        case kCallgrind: o.callgrind = arg; return true;
        case kSkid: {
            const std::uint64_t s = number_option("--pmi-skid", arg);
            if (s > 100000) usage_error(kName, "--pmi-skid: 0 to 100000 cycles");
            o.pmi_skid = static_cast<long>(s);
            return true;
        }
        case 'q': o.quiet = true; return true;
        case 'F':
            o.frequency = number_option("-F", arg);
            if (o.frequency == 0) usage_error(kName, "-F 0: give a frequency of 1 or more samples a second");
            return true;
        case 'g': o.callchain = true; return true;
        case 'd': o.data = true; return true;
        case kCallGraph: {
            const std::string mode(arg);
            // perf's --call-graph=fp[,SIZE] and perf's record-mode spelling; the chain is the shadow stack's anyway.
            if (mode == "fp" || mode.rfind("fp,", 0) == 0) o.callchain = true;
            else usage_error(kName, "--call-graph=" + mode + ": only fp (the chain comes from the emulator's shadow "
                                    "call stack; no dwarf or lbr unwinding)");
            return true;
        }
        }
        return false;
    };
    o.command = parse_run_options(argc, argv, kName, kUsage, "e:c:o:qF:gd",
                                  {{"event", required_argument, nullptr, 'e'}, {"count", required_argument, nullptr, 'c'},
                                   {"output", required_argument, nullptr, 'o'},
                                   {"callgrind", required_argument, nullptr, kCallgrind},
                                   {"pmi-skid", required_argument, nullptr, kSkid}, {"quiet", no_argument, nullptr, 'q'},
                                   {"freq", required_argument, nullptr, 'F'}, {"data", no_argument, nullptr, 'd'},
                                   {"call-graph", required_argument, nullptr, kCallGraph}},
                                  take, &o.tool);
    if (o.events.empty()) o.events.emplace_back("PAPI_TOT_CYC");  // perf record's default event: cycles
    if (o.command.empty()) usage_error(kName, "no program to run");
    return o;
}

std::string commas(std::uint64_t n) { return with_commas(static_cast<std::int64_t>(n)); }

// "N samples of EVENT (PEBS, one every P events[: F a second ...])": how one event was sampled.
std::string samples_of(const SampledEvent& e, std::uint64_t samples) {
    std::string s = commas(samples) + " samples of " + e.name + " (" + (e.precise ? "PEBS" : "IEBS") +
                    ", one every " + commas(e.period) + " events";
    if (e.frequency != 0) s += ": " + commas(e.frequency) + " a second of the emulated clock";
    return s + ")";
}

std::string exact_count(const SampledEvent& e) {
    if (e.exact_unsupported) return "exact count unsupported";
    if (e.total_estimated)
        return "estimated count " + commas(e.exact_total) + " " +
               format_interval(static_cast<std::int64_t>(e.exact_total), e.total_half_width);
    return "exact count " + commas(e.exact_total);
}

// How many samples each event got (Profile::events' order).
std::vector<std::uint64_t> samples_per_event(const Profile& profile) {
    std::vector<std::uint64_t> samples(profile.events.size(), 0);
    for (const Sample& s : profile.samples) ++samples[s.event];
    return samples;
}

// The summary on standard error: one line with one event, a line for the run and one per event with several.
void print_summary(const Profile& profile, const std::vector<std::uint64_t>& samples, const std::string& files) {
    std::uint64_t lost = 0;
    std::uint64_t chain_overflow = 0;
    for (const Process& p : profile.processes) {
        lost += p.lost;
        chain_overflow += p.chain_overflow;
    }
    std::string notes;
    if (lost) notes += "; " + std::to_string(lost) + " interrupts returned nowhere (their thread had stopped)";
    if (chain_overflow)
        notes += "; " + std::to_string(chain_overflow) + " calls deeper than the shadow call stack's " +
                 std::to_string(vg::ShadowStack::kCapacity) + " entries (no chain entry or call edge of their own)";
    if (profile.events.size() == 1) {
        std::cerr << "[ netburst-run record: " << samples_of(profile.events[0], samples[0]) << " in " << files << "; "
                  << exact_count(profile.events[0]) << notes << " ]\n";
        return;
    }
    std::cerr << "[ netburst-run record: " << commas(profile.samples.size()) << " samples of "
              << profile.events.size() << " events in " << files << notes << " ]\n";
    for (std::size_t i = 0; i < profile.events.size(); ++i)
        std::cerr << "[   " << samples_of(profile.events[i], samples[i]) << "; " << exact_count(profile.events[i])
                  << " ]\n";
}

// An event without samples is worth a word even with -q: perf report would not show it and not say why.
void explain_empty(const Profile& profile, const std::vector<std::uint64_t>& samples) {
    for (std::size_t i = 0; i < profile.events.size(); ++i) {
        const SampledEvent& e = profile.events[i];
        if (samples[i] != 0 || e.exact_unsupported || e.exact_total >= e.period) continue;
        std::cerr << "netburst-run record: no samples"
                  << (profile.events.size() == 1 ? std::string() : " of " + e.name) << ": the event counted "
                  << commas(e.exact_total) << ", less than one period (" << commas(e.period)
                  << "); give a smaller -c" << (e.frequency != 0 ? " or a higher -F" : "") << "\n";
    }
}

}  // namespace

int record_main(int argc, char** argv) {
    const RecordOptions o = parse(argc, argv);
    SampleOptions so;
    so.machine.model = o.tool.model;
    so.period = o.period;
    so.frequency = o.frequency;
    so.callchain = o.callchain;
    so.call_edges = !o.callgrind.empty();
    so.fp = default_fp_variant_of(o.command);
    if (auto fp = fp_variant_from_environment(so.fp); fp) so.fp = *fp;
    else fail(fp.error().message);
    auto plan = plan_sampling(o.events, so);
    if (!plan) fail(plan.error().message);
    const bool any_precise =
        std::any_of(plan->events.begin(), plan->events.end(), [](const SampledEvent& e) { return e.precise; });
    if (o.data && !any_precise)
        fail("-d: data addresses come from PEBS records: sample an at-retirement metric with :precise=1 (for "
             "example 1stL_cache_load_miss_retired:precise=1; netburst-events lists the metrics)");
    // The file names may be patterns (%r, %p, %h), as for counting runs: checked before the run, expanded after.
    for (const std::string* pattern : {&o.output, &o.callgrind})
        if (auto checked = expand_output_pattern(*pattern, process_pattern_context(0)); !checked)
            fail(checked.error().message);

    ToolRun tool_run;
    tool_run.options = o.tool;
    tool_run.machine = so.machine;
    if (o.pmi_skid >= 0) tool_run.tool_args.push_back("--pmi-skid=" + std::to_string(o.pmi_skid));
    tool_run.program = &plan->program;
    tool_run.command = o.command;
    TempDir dir;
    ChildStatus ran;
    if (LaunchFailure f; !launch_under_tool(tool_run, &dir, &ran, &f)) return failed(kName, f.message, f.exit_status);

    auto totals = read_results(dir.path(), plan->program.num_events);
    if (!totals) return failed(kName, totals.error().message);
    if (totals->images == 0) {
        std::cerr << "netburst-run record: the program did not run under the emulator (see Valgrind's message above)\n";
        return ran.exit_status_not_emulated();
    }
    Profile profile;
    profile.events = plan->events;
    for (std::size_t i = 0; i < profile.events.size(); ++i) {
        profile.events[i].exact_total = i < totals->values.size() ? totals->values[i] : 0;
        profile.events[i].exact_unsupported = i < totals->unsupported.size() && totals->unsupported[i];
        profile.events[i].total_estimated = i < totals->estimated.size() && totals->estimated[i];
        profile.events[i].total_half_width = i < totals->half_widths.size() ? totals->half_widths[i] : 0;
    }
    profile.machine = so.machine;
    profile.command = o.command;
    if (auto read = read_samples_dir(dir.path(), &profile); !read) return failed(kName, read.error().message);

    std::vector<std::string> cmdline = {"netburst-run"};
    for (int i = 0; i < argc; ++i) cmdline.emplace_back(argv[i]);
    const PatternContext context = process_pattern_context(ran.pid);
    const std::string output = *expand_output_pattern(o.output, context);
    const std::string callgrind = *expand_output_pattern(o.callgrind, context);
    if (auto w = write_perf_data(output, profile, perf_header_info(o.tool.model, cmdline)); !w)
        return failed(kName, w.error().message);
    if (!callgrind.empty())
        if (auto w = write_callgrind(callgrind, profile); !w) return failed(kName, w.error().message);

    const std::vector<std::uint64_t> samples = samples_per_event(profile);
    if (!o.quiet) print_summary(profile, samples, output + (callgrind.empty() ? "" : " and " + callgrind));
    explain_empty(profile, samples);
    return ran.exit_status();
}

}  // namespace netburst::emu::run
