#include "backend/msr_io.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace netburst::component {

namespace {

int default_open(const char* path, int flags) { return ::open(path, flags); }

}  // namespace

DeviceIo::~DeviceIo() { close_all(); }

void DeviceIo::close_all() {
    for (int& fd : fd_by_cpu_) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    kind_ = MsrDeviceKind::None;
}

bool DeviceIo::open_all(const std::string& dev_root, const std::vector<unsigned>& cpus, std::string* path,
                        int* error, OpenFn open_fn) {
    if (!open_fn) open_fn = default_open;
    close_all();
    for (unsigned cpu : cpus) {
        if (cpu >= fd_by_cpu_.size()) {
            fd_by_cpu_.resize(cpu + 1, -1);
            scale_by_cpu_.resize(cpu + 1, 1);
        }
        const std::string dir = dev_root + "/" + std::to_string(cpu) + "/";
        // msr-safe first: it is the device a site sets up for non-root users, with an allow-list.
        const std::string safe_path = dir + "msr_safe";
        const std::string msr_path = dir + "msr";
        MsrDeviceKind kind = MsrDeviceKind::MsrSafe;
        int fd = open_fn(safe_path.c_str(), O_RDWR | O_CLOEXEC);
        const int safe_err = fd < 0 ? errno : 0;
        if (fd < 0) {
            kind = MsrDeviceKind::Msr;
            fd = open_fn(msr_path.c_str(), O_RDWR | O_CLOEXEC);
        }
        if (fd < 0) {
            const int msr_err = errno;
            const bool msr_absent = msr_err == ENOENT || msr_err == ENODEV || msr_err == ENXIO;
            // Report the more telling failure: msr-safe present but refused beats a missing msr device.
            const bool report_safe = msr_absent && safe_err != ENOENT;
            *path = report_safe ? safe_path : msr_path;
            *error = report_safe ? safe_err : msr_err;
            close_all();
            return false;
        }
        fd_by_cpu_[cpu] = fd;
        struct stat st;
        scale_by_cpu_[cpu] = (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode)) ? 1 : 8;
        if (kind_ == MsrDeviceKind::None || kind == MsrDeviceKind::Msr) kind_ = kind;
    }
    return true;
}

int DeviceIo::read(unsigned cpu, std::uint32_t msr, std::uint64_t* value) {
    if (cpu >= fd_by_cpu_.size() || fd_by_cpu_[cpu] < 0) return EBADF;
    const ssize_t n = ::pread(fd_by_cpu_[cpu], value, sizeof *value, offset(cpu, msr));
    if (n == static_cast<ssize_t>(sizeof *value)) return 0;
    return n < 0 ? errno : EIO;  // a short read is an error: the MSR devices transfer exactly 8 bytes
}

int DeviceIo::write(unsigned cpu, std::uint32_t msr, std::uint64_t value) {
    if (cpu >= fd_by_cpu_.size() || fd_by_cpu_[cpu] < 0) return EBADF;
    const ssize_t n = ::pwrite(fd_by_cpu_[cpu], &value, sizeof value, offset(cpu, msr));
    if (n == static_cast<ssize_t>(sizeof value)) return 0;
    return n < 0 ? errno : EIO;
}

}  // namespace netburst::component
