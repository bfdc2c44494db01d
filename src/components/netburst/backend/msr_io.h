// The system calls of the kernel MSR backend, behind an interface: 8-byte pread/pwrite at offset = MSR address
// on /dev/cpu/N/msr_safe (LLNL's msr-safe) or /dev/cpu/N/msr (the kernel's msr module).
//
// Every access the backend makes goes through MsrIo, and nothing else in the library opens an MSR device. Tests
// wrap it to record each write (and prove that refused writes never reach it), and point DeviceIo at a directory
// of regular files laid out like /dev/cpu: N/msr (or N/msr_safe) for CPU N, sparse, MSR A in the 8 bytes at
// offset 8*A. (A device takes offset A for MSR A and transfers that one register; in a regular file consecutive
// registers would overlap, so DeviceIo scales the offset for anything that is not a character device.)
//
// read and write are async-signal-safe (pread, pwrite): the fatal-signal handler restores registers through them.
#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

#include "backend/interface.h"

namespace netburst::component {

class MsrIo : public Interface {
public:

    // 0 on success, otherwise an errno value (EIO: the processor raised #GP; EACCES: msr-safe's allow-list
    // refuses; ENXIO: the CPU is offline; EBADF: no device open for that CPU).
    virtual int read(unsigned cpu, std::uint32_t msr, std::uint64_t* value) = 0;
    virtual int write(unsigned cpu, std::uint32_t msr, std::uint64_t value) = 0;
};

// Which device a CPU was opened through.
enum class MsrDeviceKind : std::uint8_t { None, MsrSafe, Msr };

// Opens and owns the devices for a list of CPUs.
class DeviceIo final : public MsrIo {
public:
    // How a device is opened; tests replace it to produce errors a root test run cannot (EACCES).
    using OpenFn = int (*)(const char* path, int flags);

    DeviceIo() = default;
    ~DeviceIo() override;

    // Opens dev_root/N/msr_safe, else dev_root/N/msr, read-write, for every CPU in `cpus`. On failure returns
    // false with the failing path and errno in *path and *error; nothing stays open.
    bool open_all(const std::string& dev_root, const std::vector<unsigned>& cpus, std::string* path, int* error,
                  OpenFn open_fn = nullptr);

    // The kind of device every CPU got (msr-safe or msr; they can differ only if msr-safe covers some CPUs).
    MsrDeviceKind kind() const { return kind_; }

    int read(unsigned cpu, std::uint32_t msr, std::uint64_t* value) override;
    int write(unsigned cpu, std::uint32_t msr, std::uint64_t value) override;

private:
    void close_all();
    off_t offset(unsigned cpu, std::uint32_t msr) const { return static_cast<off_t>(msr) * scale_by_cpu_[cpu]; }
    std::vector<int> fd_by_cpu_;        // indexed by OS CPU number; -1 for CPUs not opened
    std::vector<unsigned> scale_by_cpu_;  // 1 for a device, 8 for a regular file standing in for one
    MsrDeviceKind kind_ = MsrDeviceKind::None;
};

}  // namespace netburst::component
