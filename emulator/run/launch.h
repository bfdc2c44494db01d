// Starting Valgrind with the netburst tool, and waiting for it like a shell would.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "events/status.h"

namespace netburst::emu::vg {
struct EventProgram;
}

namespace netburst::emu::run {

// Exit statuses of netburst-run's own failures; otherwise it exits with the program's status (128 + the signal
// number when a signal killed it), as a shell would.
constexpr int kExitOwnError = 125;
constexpr int kExitNotExecutable = 126;
constexpr int kExitNotFound = 127;

// The valgrind launcher: $NETBURST_VALGRIND, else `valgrind` on the PATH. The error says which package to install.
Result<std::string> find_valgrind();

// The tool's VALGRIND_LIB directory: $NETBURST_VALGRIND_LIB; else, next to a netburst-run in the build tree,
// emulator/valgrind/lib; else the installed one (pkglibdir/valgrind).
Result<std::string> find_tool_dir();

// What a run needs before it starts: the launcher, the tool's directory and the program, resolved as execvp would
// so that a missing or non-executable program gets netburst-run's own message rather than Valgrind's.
struct Launch {
    std::string valgrind, tool_dir, program;
};
struct LaunchFailure {
    std::string message;
    int exit_status = kExitOwnError;  // a shell's: kExitNotFound, kExitNotExecutable; else kExitOwnError
};
bool find_launch(const std::string& command, Launch* out, LaunchFailure* failure);

// Writes `program` as DIR/program, the file the tool's --program reads; returns its path.
Result<std::string> write_event_program(const vg::EventProgram& program, const std::string& dir);

// A private directory under $TMPDIR (or /tmp) for the event program and the results; removed by the destructor.
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
};

// Runs argv with VALGRIND_LIB set and waits. While it runs, netburst-run ignores SIGINT and SIGQUIT (the program
// gets them from the terminal, as under `time` or `perf stat`). `while_running`, when given, is called about five
// times a second until the program ends (the progress line).
Result<ChildStatus> run_and_wait(const std::vector<std::string>& argv, const std::string& valgrind_lib,
                                 const std::function<void()>& while_running = nullptr);

}  // namespace netburst::emu::run
