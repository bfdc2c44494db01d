#include "backend/msr_device.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#ifndef NETBURST_DATADIR
#define NETBURST_DATADIR "/usr/local/share/papi-netburst"
#endif
#define NETBURST_ALLOWLIST_DIR NETBURST_DATADIR "/msr-safe"

namespace netburst::component {

MsrDeviceProbe probe_msr_device(unsigned cpu, const std::string& dev_root) {
    MsrDeviceProbe probe;
    const std::string dir = dev_root + "/" + std::to_string(cpu) + "/";
    bool denied = false;
    std::string denied_path;
    for (const char* name : {"msr_safe", "msr"}) {
        probe.path = dir + name;
        const int fd = ::open(probe.path.c_str(), O_RDWR | O_CLOEXEC);
        if (fd >= 0) {
            ::close(fd);
            probe.state = MsrDeviceState::Usable;
            return probe;
        }
        const int err = errno;
        if (err == EACCES || err == EPERM) {
            denied = true;
            denied_path = probe.path;
        } else if (err != ENOENT && err != ENXIO && err != ENODEV) {
            probe.state = MsrDeviceState::Failed;
            probe.advice = "cannot open " + probe.path + ": " + std::strerror(err);
            return probe;
        }
    }
    if (denied) {
        probe.state = MsrDeviceState::NoPermission;
        probe.path = denied_path;
        probe.advice = "no permission to open " + denied_path +
                       ": the msr device needs CAP_SYS_RAWIO (run as root, or setcap cap_sys_rawio=ep PROGRAM) and "
                       "read-write access to the file (chmod or a udev rule); or use msr-safe with papi-netburst's "
                       "allow-list (cat " NETBURST_ALLOWLIST_DIR "/al_0F_<model> > /dev/cpu/msr_allowlist, "
                       "doc/real-pentium4.md)";
        return probe;
    }
    probe.state = MsrDeviceState::Missing;
    probe.advice = "neither " + dir + "msr_safe nor " + dir +
                   "msr exists: load the msr kernel module (modprobe msr, as root) or install msr-safe";
    return probe;
}

}  // namespace netburst::component
