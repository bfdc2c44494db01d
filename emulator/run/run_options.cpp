#include "emulator/run/run_options.h"

#include <cstdlib>
#include <iostream>

namespace netburst::emu::run {

namespace {

enum ToolOption { kOptModel = 0x200, kOptKernelModel, kOptTimerTick, kOptNoChildren, kOptNoProgress, kOptNo64BitNote,
                  kOptCpuView, kOptTiming, kOptValgrindOption };

// A decimal count with nothing around it; false for "", "-1", "12x".
bool parse_count(const char* text, std::uint64_t* out) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(text, &end, 10);
    if (!*text || *end || text[0] == '-') return false;
    *out = n;
    return true;
}

// Applies a shared option; false when `c` is not one. A bad value is a usage error.
bool take_tool_option(int c, const char* arg, ToolOptions* o, const char* command_name) {
    switch (c) {
    case kOptModel: {
        std::uint64_t m = 0;
        if (!parse_count(arg, &m) || m > 15 || !model_exists(static_cast<unsigned>(m)))
            usage_error(command_name, std::string("--model ") + arg + ": NetBurst models are 0, 1, 2, 3, 4 and 6");
        o->model = static_cast<unsigned>(m);
        return true;
    }
    case kOptKernelModel:
        if (std::string(arg) == "yes") o->kernel_model = true;
        else if (std::string(arg) == "no") o->kernel_model = false;
        else usage_error(command_name, "--kernel-model takes yes or no");
        return true;
    case kOptTimerTick:
        if (!parse_count(arg, &o->timer_tick))
            usage_error(command_name,
                        std::string("--timer-tick ") + arg + ": give the instructions between ticks (0: none)");
        return true;
    case kOptNoChildren: o->children = false; return true;
    case kOptNoProgress: o->progress = false; return true;
    case kOptNo64BitNote: o->note_64_bit = false; return true;
    case kOptCpuView:
        if (std::string(arg) == "emulated") o->host_cpu_view = false;
        else if (std::string(arg) == "host") o->host_cpu_view = true;
        else usage_error(command_name, std::string("--cpu-view ") + arg + ": the view is 'emulated' or 'host'");
        return true;
    case kOptTiming:
        if (std::string(arg) == timing_name(Timing::kExact)) o->timing = Timing::kExact;
        else if (std::string(arg) == timing_name(Timing::kSampled)) o->timing = Timing::kSampled;
        else usage_error(command_name, std::string("--timing ") + arg + ": the timing is 'exact' or 'sampled'");
        return true;
    case kOptValgrindOption: o->valgrind_options.emplace_back(arg); return true;
    }
    return false;
}

}  // namespace

const char* timing_name(Timing timing) { return timing == Timing::kSampled ? "sampled" : "exact"; }

std::vector<std::string> parse_run_options(int argc, char** argv, const char* command_name, const char* usage,
                                           const std::string& short_options, const std::vector<option>& own,
                                           const std::function<bool(int c, const char* arg)>& take_own,
                                           ToolOptions* tool) {
    std::vector<option> options = own;
    options.insert(options.end(), {{"model", required_argument, nullptr, kOptModel},
                                   {"kernel-model", required_argument, nullptr, kOptKernelModel},
                                   {"timer-tick", required_argument, nullptr, kOptTimerTick},
                                   {"no-children", no_argument, nullptr, kOptNoChildren},
                                   {"no-progress", no_argument, nullptr, kOptNoProgress},
                                   {"no-64-bit-note", no_argument, nullptr, kOptNo64BitNote},
                                   {"cpu-view", required_argument, nullptr, kOptCpuView},
                                   {"timing", required_argument, nullptr, kOptTiming},
                                   {"valgrind-option", required_argument, nullptr, kOptValgrindOption},
                                   {"help", no_argument, nullptr, 'h'},
                                   {nullptr, 0, nullptr, 0}});
    // '+': stop at the first argument that is not an option, the program's name.
    const std::string shorts = "+" + short_options + "h";
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, shorts.c_str(), options.data(), nullptr)) != -1) {
        if (c == 'h') {
            std::cout << usage;
            std::exit(0);
        }
        if (!take_own(c, optarg) && !take_tool_option(c, optarg, tool, command_name))
            usage_error(command_name, "unknown option");
    }
    return std::vector<std::string>(argv + optind, argv + argc);
}

int failed(const char* command_name, const std::string& message, int status) {
    std::cerr << command_name << ": " << message << "\n";
    return status;
}

void usage_error(const char* command_name, const std::string& message) {
    std::cerr << command_name << ": " << message << "\nTry '" << command_name << " --help'.\n";
    std::exit(kExitOwnError);
}

}  // namespace netburst::emu::run
