// Starting Valgrind with the netburst tool, and waiting for it like a shell would.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "emulator/model/emulated_machine.h"
#include "emulator/run/guest_platform.h"
#include "emulator/run/run_options.h"
#include "events/status.h"
#include "presets/preset_table.h"

namespace netburst::emu::vg {
struct EventProgram;
}

namespace netburst::emu::run {

// The valgrind launcher: $NETBURST_VALGRIND, else `valgrind` on the PATH. The error says which package to install.
Result<std::string> find_valgrind();

// The tool's VALGRIND_LIB directory: $NETBURST_VALGRIND_LIB; else, next to a netburst-run in the build tree,
// emulator/valgrind/lib; else the installed one (pkglibdir/valgrind).
Result<std::string> find_tool_dir();

// What a run needs before it starts: the launcher, the tool's directory and the program, resolved as execvp would
// so that a missing or non-executable program, or a 32-bit one (guest_platform.h), gets netburst-run's own message
// rather than Valgrind's.
struct Launch {
    std::string valgrind, tool_dir, program;
    GuestPlatform platform = GuestPlatform::kOther;
};
struct LaunchFailure {
    std::string message;
    int exit_status = kExitOwnError;  // a shell's: kExitNotFound, kExitNotExecutable; else kExitOwnError
};
bool find_launch(const std::string& command, Launch* out, LaunchFailure* failure);
// The FP presets' variant for the program `command` runs (found as execvp finds it), without $PAPI_NETBURST_FP:
// its word size's default floating point (default_fp_variant; x86-64's when the file cannot be read).
FpVariant default_fp_variant_of(const std::vector<std::string>& command);

// Writes `program` as DIR/program, the file the tool's --program reads; returns its path.
Result<std::string> write_event_program(const vg::EventProgram& program, const std::string& dir);

// A private directory under $TMPDIR (or /tmp) for the event program, the results and the guest's view of the
// processor; removed, with everything in it, by the destructor.
class TempDir {
public:
    TempDir() = default;
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir();
    Result<bool> create();
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

struct ChildStatus {
    long pid = 0;    // the program's process id (Valgrind runs it in the process netburst-run started)
    bool signaled = false;
    int status = 0;  // exit status, or the signal number
    // As a shell reports it: the exit status, or 128 + the signal number.
    int exit_status() const { return signaled ? 128 + status : status; }
    // When the tool's results show the program never ran under the emulator: its own failure, else ours.
    int exit_status_not_emulated() const { return status != 0 || signaled ? exit_status() : kExitOwnError; }
};

// Runs argv with VALGRIND_LIB set and waits. While it runs, netburst-run ignores SIGINT and SIGQUIT (the program
// gets them from the terminal, as under `time` or `perf stat`). `while_running`, when given, is called about five
// times a second until the program ends (the progress line). `in_child`, when given, runs in the child just before
// it execs argv.
Result<ChildStatus> run_and_wait(const std::vector<std::string>& argv, const std::string& valgrind_lib,
                                 const std::function<void()>& while_running = nullptr,
                                 const std::function<void()>& in_child = nullptr);

// One run of a program under the tool, as counting runs and `record` start it.
struct ToolRun {
    ToolOptions options;
    EmulatedMachine machine;                    // what the program's /proc/cpuinfo and sysfs describe
    std::vector<std::string> tool_args;         // the subcommand's own tool options (--ht=no, --pmi-skid=N, ...)
    const vg::EventProgram* program = nullptr;  // the events the tool applies (nullptr: none)
    std::vector<std::string> command;
};

// Runs `run.command` under the tool and waits, with the progress line when asked for and standard error is a
// terminal: finds valgrind, the tool and the program, creates `dir` and writes the event program into it; the
// tool writes its results (and samples) there. Unless options.host_cpu_view, the program sees `machine` in
// /proc/cpuinfo and /sys/devices/system/cpu (cpu_view.h); when that cannot be, one line on standard error says so
// and the program runs with the host's. On failure *failure says why and with what status to end.
bool launch_under_tool(const ToolRun& run, TempDir* dir, ChildStatus* ended, LaunchFailure* failure);

}  // namespace netburst::emu::run
