// What netburst-run's counting runs and `record` parse alike: the options that describe the run under the tool,
// the option loop, and the messages of netburst-run's own failures.
#pragma once

#include <getopt.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "emulator/protocol/tool_options.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

// Exit statuses of netburst-run's own failures; otherwise it exits with the program's status (128 + the signal
// number when a signal killed it), as a shell would.
constexpr int kExitOwnError = 125;
constexpr int kExitNotExecutable = 126;
constexpr int kExitNotFound = 127;

// --timing: the tool's timing tier runs every instruction a counter's cycles need (exact), or a sample of them from
// which cycle-driven counts are estimated (sampled; doc/sampled-timing.md).
enum class Timing { kExact, kSampled };

// The tool's and the command line's spelling: "exact" or "sampled".
const char* timing_name(Timing timing);

// The options counting runs and `record` both take.
struct ToolOptions {
    unsigned model = kDefaultModel;
    bool kernel_model = true;
    std::uint64_t timer_tick = vg::kDefaultTimerTick;
    bool children = true;
    bool progress = true;  // the progress line, when standard error is a terminal
    // The one-line note that an x86-64 program runs on a model whose part had no 64-bit mode (launch.h).
    bool note_64_bit = true;
    // --cpu-view=host: the program reads the host's /proc/cpuinfo and /sys/devices/system/cpu instead of the
    // emulated Pentium 4's (emulator/run/cpu_view.h).
    bool host_cpu_view = false;
    Timing timing = Timing::kExact;
    std::vector<std::string> valgrind_options;
};

// getopt_long's loop over argv: the subcommand's `short_options` and `own` long options, then --model,
// --kernel-model, --timer-tick, --no-children, --no-progress, --no-64-bit-note, --cpu-view, --timing,
// --valgrind-option (into *tool)
// and -h/--help (prints `usage` and exits). `take_own` applies one of the subcommand's options and returns false
// for any other. The options end at the program's name, so that its own are left alone; returns the program and
// its arguments.
std::vector<std::string> parse_run_options(int argc, char** argv, const char* command_name, const char* usage,
                                           const std::string& short_options, const std::vector<option>& own,
                                           const std::function<bool(int c, const char* arg)>& take_own,
                                           ToolOptions* tool);

// "NAME: message" on standard error (NAME: netburst-run, or with its subcommand); returns `status`, the exit status.
int failed(const char* command_name, const std::string& message, int status = kExitOwnError);

// A wrong command line: the message and where the help is, then netburst-run ends with kExitOwnError.
[[noreturn]] void usage_error(const char* command_name, const std::string& message);

}  // namespace netburst::emu::run
