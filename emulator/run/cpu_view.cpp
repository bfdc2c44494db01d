#include "emulator/run/cpu_view.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "emulator/x86/guest_cpu_view.h"

namespace netburst::emu::run {

namespace {

Error system_error(const std::string& what) {
    return make_error(ErrorCode::System, what + ": " + std::strerror(errno));
}

// mkdir -p of the directories above `path`, which starts with `root`.
bool make_parents(const std::string& root, const std::string& path) {
    for (std::size_t slash = path.find('/', root.size() + 1); slash != std::string::npos;
         slash = path.find('/', slash + 1))
        if (mkdir(path.substr(0, slash).c_str(), 0755) != 0 && errno != EEXIST) return false;
    return true;
}

bool write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    return (out << text) && out.flush();
}

// Writes `text` to a /proc file of this process in one write, as the uid and gid maps require.
bool write_proc(const char* path, const std::string& text) {
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    close(fd);
    return ok;
}

std::string why(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// A user namespace in which this process keeps its own user and group IDs (and no others), with every capability
// until it execs: enough to own a mount namespace and bind files in it.
std::string enter_user_namespace() {
    const uid_t uid = geteuid();
    const gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return why("no user namespace (unshare)") + "; unprivileged user namespaces may be disabled on this system";
    if (!write_proc("/proc/self/setgroups", "deny"))
        return why("/proc/self/setgroups");
    if (!write_proc("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n"))
        return why("/proc/self/uid_map");
    if (!write_proc("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n"))
        return why("/proc/self/gid_map");
    return "";
}

}  // namespace

Result<bool> write_cpu_view(const EmulatedMachine& machine, const std::string& dir) {
    const std::string cpuinfo = dir + "/cpuinfo";
    if (!write_file(cpuinfo, vg::guest_proc_cpuinfo(machine))) return system_error(cpuinfo);
    const std::string root = dir + "/cpu";
    if (mkdir(root.c_str(), 0755) != 0) return system_error(root);
    for (const vg::GuestSysFile& f : vg::guest_sys_cpu(machine)) {
        const std::string path = root + "/" + f.path;
        if (!make_parents(root, path) || !write_file(path, f.text)) return system_error(path);
    }
    return true;
}

std::string enter_cpu_view(const std::string& dir) {
    // Root needs only the mount namespace; a user who is not root (or a root without CAP_SYS_ADMIN, in a
    // container) gets it inside a user namespace of its own.
    if (geteuid() != 0 || unshare(CLONE_NEWNS) != 0) {
        if (std::string failed = enter_user_namespace(); !failed.empty()) return failed;
    }
    // Private: nothing mounted here reaches the host's namespace, and nothing mounted there changes this one.
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return why("making the mounts private");
    if (mount((dir + "/cpuinfo").c_str(), "/proc/cpuinfo", nullptr, MS_BIND, nullptr) != 0)
        return why("mount over /proc/cpuinfo");
    if (mount((dir + "/cpu").c_str(), "/sys/devices/system/cpu", nullptr, MS_BIND | MS_REC, nullptr) != 0) {
        std::string failed = why("mount over /sys/devices/system/cpu");
        umount2("/proc/cpuinfo", MNT_DETACH);  // both views or neither
        return failed;
    }
    return "";
}

}  // namespace netburst::emu::run
