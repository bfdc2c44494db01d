// How the component reaches the PMU registers: a Backend writes and reads MSRs and counters for the calling thread.
// The emulator backend (client requests to netburst-run's Valgrind tool) exists today; the kernel MSR backend for a
// real Pentium 4 (/dev/cpu/N/msr_safe or msr) is issue 6 and plugs in behind the same interface.
//
// Every register value comes from the encoder (encode/program.h); a backend only carries values to the hardware.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace netburst::component {

enum class IoStatus : std::uint8_t {
    Ok,
    Fault,        // the processor refused the access (#GP: unknown MSR, reserved bit)
    Unsupported,  // the emulator does not model what this counter counts
    Unavailable,  // the channel is gone (not under the emulator, device closed)
};

// What the component needs to know about the processor it counts on.
struct CpuDescription {
    unsigned model = 2;            // CPUID family 0FH model
    bool hyper_threading = false;  // the package has two logical processors
    bool has_l3 = false;           // Xeon MP parts: the L3 presets apply
    bool emulated = false;
    // Each thread has its own PMU (the emulator's default); otherwise the PMU is shared by every thread of the
    // logical processor, as on real hardware.
    bool per_thread_pmu = true;
    std::string description;  // for papi_component_avail, e.g. "emulated Pentium 4 model 2 (Northwood)"
};

class Backend {
public:
    virtual ~Backend() = default;
    Backend() = default;
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;

    virtual IoStatus write_msr(std::uint32_t msr, std::uint64_t value) = 0;
    virtual IoStatus read_msr(std::uint32_t msr, std::uint64_t* value) = 0;
    // The full 40-bit value of counter 0-17 (RDPMC).
    virtual IoStatus read_counter(unsigned counter, std::uint64_t* value) = 0;
    // Whether the counter, as programmed now, counts something the backend can measure. Real hardware always can;
    // the emulator answers Unsupported for events its model does not drive, so that no made-up count is reported.
    virtual IoStatus counter_status(unsigned counter) = 0;
    // The logical processor (0 or 1) the calling thread runs on.
    virtual unsigned logical_processor() = 0;
};

// The result of looking for a PMU: a backend, or the reason there is none, written for the user.
struct Detection {
    std::unique_ptr<Backend> backend;
    CpuDescription cpu;
    std::string disabled_reason;  // empty when backend is set
};

}  // namespace netburst::component
