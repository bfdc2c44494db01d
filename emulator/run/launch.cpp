#include "emulator/run/launch.h"

#include <dirent.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "emulator/protocol/program_file.h"
#include "emulator/run/cpu_view.h"
#include "emulator/run/guest_platform.h"
#include "emulator/run/progress.h"

#ifndef NB_VALGRIND_TOOLDIR
#error "NB_VALGRIND_TOOLDIR (the installed tool directory) must be defined"
#endif

namespace netburst::emu::run {

namespace {

Error system_error(std::string m) { return make_error(ErrorCode::System, std::move(m)); }

bool is_executable_file(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// Searches $PATH for name; returns "" when absent.
std::string search_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        std::size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string dir = dirs.substr(start, end - start);
        if (dir.empty()) dir = ".";
        const std::string candidate = dir + "/" + name;
        if (is_executable_file(candidate)) return candidate;
        start = end + 1;
    }
    return "";
}

std::string self_dir() {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "";
    std::string p(buf, static_cast<std::size_t>(n));
    const std::size_t slash = p.rfind('/');
    return slash == std::string::npos ? "" : p.substr(0, slash);
}

bool has_tool(const std::string& dir) { return is_executable_file(dir + "/netburst-amd64-linux"); }
bool has_x86_tool(const std::string& dir) { return is_executable_file(dir + "/netburst-x86-linux"); }

void remove_tree(const std::string& path) {
    if (DIR* d = opendir(path.c_str())) {
        while (dirent* e = readdir(d)) {
            if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, "..")) continue;
            const std::string entry = path + "/" + e->d_name;
            struct stat st;
            if (lstat(entry.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(entry);
            else unlink(entry.c_str());
        }
        closedir(d);
    }
    rmdir(path.c_str());
}

}  // namespace

Result<std::string> find_valgrind() {
    if (const char* v = std::getenv("NETBURST_VALGRIND")) {
        if (is_executable_file(v)) return std::string(v);
        return system_error(std::string("$NETBURST_VALGRIND (") + v + ") is not an executable file");
    }
    const std::string v = search_path("valgrind");
    if (v.empty())
        return system_error("valgrind is not installed: install the Debian package 'valgrind' "
                            "(apt-get install valgrind), which netburst-run needs to run programs on the emulator");
    return v;
}

Result<std::string> find_tool_dir() {
    if (const char* d = std::getenv("NETBURST_VALGRIND_LIB")) {
        if (has_tool(d)) return std::string(d);
        return system_error(std::string("$NETBURST_VALGRIND_LIB (") + d + ") has no netburst-amd64-linux");
    }
    const std::string build_tree = self_dir() + "/emulator/valgrind/lib";
    if (has_tool(build_tree)) return build_tree;
    if (has_tool(NB_VALGRIND_TOOLDIR)) return std::string(NB_VALGRIND_TOOLDIR);
    return system_error("the netburst Valgrind tool is not installed in " NB_VALGRIND_TOOLDIR
                        " (run 'make install', or set NETBURST_VALGRIND_LIB to a directory holding "
                        "netburst-amd64-linux)");
}

namespace {

// Resolves name as execvp would; *missing says whether it does not exist (rather than not being executable).
Result<std::string> find_program(const std::string& name, bool* missing) {
    *missing = false;
    if (name.find('/') != std::string::npos) {
        struct stat st;
        if (stat(name.c_str(), &st) != 0) {
            *missing = errno == ENOENT || errno == ENOTDIR;
            return make_error(ErrorCode::BadInput, name + ": " + std::strerror(errno));
        }
        if (!is_executable_file(name)) return make_error(ErrorCode::BadInput, name + ": not an executable file");
        return name;
    }
    const std::string found = search_path(name);
    *missing = found.empty();
    if (found.empty()) return make_error(ErrorCode::BadInput, name + ": command not found");
    return found;
}

}  // namespace

bool find_launch(const std::string& command, Launch* out, LaunchFailure* failure) {
    auto valgrind = find_valgrind();
    if (!valgrind) {
        *failure = {valgrind.error().message, kExitOwnError};
        return false;
    }
    auto tool_dir = find_tool_dir();
    if (!tool_dir) {
        *failure = {tool_dir.error().message, kExitOwnError};
        return false;
    }
    bool missing = false;
    auto program = find_program(command, &missing);
    if (!program) {
        *failure = {program.error().message, missing ? kExitNotFound : kExitNotExecutable};
        return false;
    }
    // Valgrind picks the tool's build by the program's ELF class; without the i386 one it would fail in its own words.
    const GuestPlatform platform = guest_platform_of(*program);
    if (platform == GuestPlatform::kX86 && !has_x86_tool(*tool_dir)) {
        *failure = {command + ": a 32-bit (i386) program, and the netburst tool was built without its i386 build "
                              "(netburst-x86-linux): install gcc-multilib and libc6-dev-i386 (scripts/install-deps.sh), "
                              "then configure, make and make install again",
                    kExitOwnError};
        return false;
    }
    *out = {*valgrind, *tool_dir, *program, platform};
    return true;
}

FpVariant default_fp_variant_of(const std::vector<std::string>& command) {
    if (command.empty()) return default_fp_variant(false);
    bool missing = false;
    auto program = find_program(command[0], &missing);
    return default_fp_variant(program && guest_platform_of(*program) == GuestPlatform::kX86);
}

Result<std::string> write_event_program(const vg::EventProgram& program, const std::string& dir) {
    std::vector<char> text(1 << 20);  // -e all with --ht: about 2,500 lines
    const std::size_t n = vg::format_event_program(program, text.data(), text.size());
    const std::string path = dir + "/program";
    std::ofstream out(path);
    if (n == 0 || !out.write(text.data(), static_cast<std::streamsize>(n)) || !out.flush())
        return system_error(path + ": cannot be written");
    return path;
}

TempDir::~TempDir() {
    if (!path_.empty()) remove_tree(path_);
}

Result<bool> TempDir::create() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/netburst-run.XXXXXX";
    if (!mkdtemp(pattern.data())) return system_error(pattern + ": " + std::strerror(errno));
    path_ = pattern;
    return true;
}

Result<ChildStatus> run_and_wait(const std::vector<std::string>& argv, const std::string& valgrind_lib,
                                 const std::function<void()>& while_running, const std::function<void()>& in_child) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    struct sigaction ignore {}, old_int {}, old_quit {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    const pid_t pid = fork();
    if (pid < 0) return system_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        sigaction(SIGINT, &old_int, nullptr);
        sigaction(SIGQUIT, &old_quit, nullptr);
        setenv("VALGRIND_LIB", valgrind_lib.c_str(), 1);
        if (in_child) in_child();
        execv(args[0], args.data());
        std::fprintf(stderr, "netburst-run: %s: %s\n", args[0], std::strerror(errno));
        _exit(127);
    }
    int status = 0;
    pid_t r;
    if (while_running) {
        while ((r = waitpid(pid, &status, WNOHANG)) == 0 || (r < 0 && errno == EINTR)) {
            while_running();
            usleep(200 * 1000);
        }
    } else {
        while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
        }
    }
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    if (r < 0) return system_error(std::string("waitpid: ") + std::strerror(errno));
    ChildStatus c;
    c.pid = pid;
    if (WIFSIGNALED(status)) {
        c.signaled = true;
        c.status = WTERMSIG(status);
    } else {
        c.status = WEXITSTATUS(status);
    }
    return c;
}

namespace {

std::string yes_no(bool b) { return b ? "yes" : "no"; }

}  // namespace

bool launch_under_tool(const ToolRun& run, TempDir* dir, ChildStatus* ended, LaunchFailure* failure) {
    Launch launch;
    if (!find_launch(run.command[0], &launch, failure)) return false;
    if (auto made = dir->create(); !made) {
        *failure = {made.error().message, kExitOwnError};
        return false;
    }
    const ToolOptions& o = run.options;
    if (o.note_64_bit) {
        const std::string note = no_64_bit_mode_note(o.model, launch.platform);
        if (!note.empty()) std::cerr << "netburst-run: " << note << "\n";
    }
    std::vector<std::string> args = {launch.valgrind, "--tool=netburst", "-q", "--model=" + std::to_string(o.model)};
    args.insert(args.end(), run.tool_args.begin(), run.tool_args.end());
    args.insert(args.end(), {"--kernel-model=" + yes_no(o.kernel_model), "--timer-tick=" + std::to_string(o.timer_tick),
                             std::string("--timing=") + timing_name(o.timing), "--trace-children=" + yes_no(o.children),
                             "--results=" + dir->path()});
    if (run.program) {
        auto program_file = write_event_program(*run.program, dir->path());
        if (!program_file) {
            *failure = {program_file.error().message, kExitOwnError};
            return false;
        }
        args.push_back("--program=" + *program_file);
    }
    const bool progress = o.progress && isatty(STDERR_FILENO);
    if (progress) args.push_back("--progress=" + dir->path());
    args.insert(args.end(), o.valgrind_options.begin(), o.valgrind_options.end());
    args.push_back("--");
    args.insert(args.end(), run.command.begin(), run.command.end());

    std::function<void()> cpu_view;
    if (!o.host_cpu_view) {
        const std::string view = dir->path() + "/cpu-view";
        auto written = mkdir(view.c_str(), 0755) == 0 ? write_cpu_view(run.machine, view)
                                                      : Result<bool>(system_error(view + ": " + std::strerror(errno)));
        if (!written) {
            *failure = {written.error().message, kExitOwnError};
            return false;
        }
        cpu_view = [view] {
            const std::string failed = enter_cpu_view(view);
            if (!failed.empty())
                std::fprintf(stderr,
                             "netburst-run: the program sees the host's /proc/cpuinfo and /sys/devices/system/cpu, "
                             "not the emulated Pentium 4's: %s (--cpu-view=host: the host's, without this line)\n",
                             failed.c_str());
        };
    }

    std::function<void()> in_child = cpu_view;
    if (wants_fixed_layout(launch.platform))
        in_child = [cpu_view] {
            const int current = personality(0xffffffff);  // 0xffffffff: only asks
            if (current != -1) personality(static_cast<unsigned>(current) | ADDR_NO_RANDOMIZE);
            if (cpu_view) cpu_view();
        };

    ProgressLine line(dir->path());
    std::function<void()> update;
    if (progress) update = [&line] { line.update(); };
    auto ran = run_and_wait(args, launch.tool_dir, update, in_child);
    line.clear();
    if (!ran) {
        *failure = {ran.error().message, kExitOwnError};
        return false;
    }
    *ended = *ran;
    return true;
}

}  // namespace netburst::emu::run
