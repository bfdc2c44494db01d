// How the component reaches the PMU registers: a Backend writes and reads MSRs and counters for the calling thread.
// Two implement it: the emulator backend (client requests to netburst-run's Valgrind tool) and the kernel MSR
// backend for a real Pentium 4 (/dev/cpu/N/msr_safe or msr, backend/msr_backend.h).
//
// Every register value comes from the encoder (encode/program.h); a backend only carries values to the hardware.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "alloc/context.h"
#include "backend/interface.h"
#include "table/msr_map.h"

struct nb_msr_write;  // component/glue_api.h: one register write as an event set keeps it

namespace netburst::component {

enum class IoStatus : std::uint8_t {
    Ok,
    Fault,        // the processor refused the access (#GP: unknown MSR, reserved bit)
    Unsupported,  // the emulator does not model what this counter counts
    Unavailable,  // the channel is gone (not under the emulator, device closed)
};

// One cache of the emulated processor (bytes; 0 when absent).
struct CacheGeometry {
    unsigned size = 0;
    unsigned ways = 0;
    unsigned line = 0;
};

// The caches and TLBs of the emulator's core model, which PAPI reports as the memory hierarchy.
struct EmulatedMemory {
    CacheGeometry l1d, l2, l3;
    unsigned trace_cache_uops = 0;
    unsigned trace_cache_ways = 0;
    unsigned itlb_entries = 0;
    unsigned itlb_ways = 0;
    unsigned dtlb_entries = 0;  // fully associative
};

// What the component needs to know about the processor it counts on.
struct CpuDescription {
    unsigned model = kDefaultModel;  // CPUID family 0FH model
    bool hyper_threading = false;    // the package has two logical processors
    bool has_l3 = false;             // Xeon MP parts: the L3 presets apply
    bool emulated = false;
    unsigned stepping = 0;
    EmulatedMemory memory;  // under the emulator only; natively PAPI reads the caches through CPUID
    // Each thread has its own PMU (the emulator's default); otherwise the PMU is shared by every thread of the
    // logical processor, as on real hardware.
    bool per_thread_pmu = true;
    std::string description;  // for papi_component_avail, e.g. "emulated Pentium 4 model 2 (Northwood)"
    // Event sets can be attached to any logical CPU (PAPI_CPU_ATTACH, PAPI_GRN_SYS): the kernel MSR backend.
    bool cpu_attach = false;
    // What the user should know beyond the description (errata worked around, counters other software holds),
    // for PAPI's verbose error output at initialisation; empty if nothing.
    std::string notes;
};

// What other users of a shared PMU hold, for the allocator (alloc/context.h): counters and ESCRs it must not use
// (someone else enabled them, or an erratum rules them out) and why, and what this process's event sets on the
// other logical processor of the package hold.
struct PmuOccupancy {
    CounterMask unavailable_counters = 0;
    EscrMask unavailable_escrs = 0;
    std::string reason;
    Occupancy sibling;
};

// The registers an event set is about to program, so that a backend on shared hardware can check them against
// what others hold and save them before the first write.
struct PmuClaim {
    CounterMask counters = 0;  // counters the set enables
    EscrMask escrs = 0;        // ESCRs it writes
    bool replay = false;       // writes IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT (package-wide)
    std::uint64_t pebs_enable = 0;
    std::uint64_t matrix_vert = 0;
    unsigned logical_processor = 0;
};

// One overflow interrupt as the backend hands it to the handler.
struct Interrupt {
    std::uint64_t eip = 0;       // the instruction it returns to (0: unknown)
    CounterMask overflowed = 0;  // counters whose OVF flag was set
    bool pebs = false;           // raised by the PEBS buffer's threshold (its records: take_pebs_record)
};

// A PEBS record the PMU wrote into the DS save area's buffer: where, which of its fields the backend knows to hold
// the machine's values (bit i for field i, table/msr_map.h), and the sampled uop's data address where the backend
// knows it (0 otherwise).
// `rewound`: the backend moved the buffer's index back to its base after this record, the last one written, and
// the buffer had held that many records.
struct PebsNote {
    std::uint64_t record = 0;
    std::uint32_t valid = 0;
    std::uint64_t data_address = 0;
    std::uint32_t rewound = 0;
};

class Backend : public Interface {
public:

    virtual IoStatus write_msr(std::uint32_t msr, std::uint64_t value) = 0;
    virtual IoStatus read_msr(std::uint32_t msr, std::uint64_t* value) = 0;
    // Writes in order, stopping at the first one refused; *done says how many were made. The writes of one start,
    // stop or reset come in one call, so that a backend can carry them together (one client request under the
    // emulator); the default makes them one at a time.
    virtual IoStatus write_msrs(const nb_msr_write* writes, unsigned count, unsigned* done);
    // The full 40-bit value of counter 0-17 (RDPMC).
    virtual IoStatus read_counter(unsigned counter, std::uint64_t* value) = 0;
    // Whether the counter, as programmed now, counts something the backend can measure. Real hardware always can;
    // the emulator answers Unsupported for events its model does not drive, so that no made-up count is reported.
    virtual IoStatus counter_status(unsigned counter) = 0;
    // The half-width of the 99.7 % confidence interval of the counter's value since it was last written: 0 when the
    // value is exact, which real hardware's always is; under netburst-run --timing=sampled a cycle-driven counter's
    // value is an estimate (doc/sampled-timing.md), and kIntervalUnbounded says the sample cannot bound it.
    static constexpr std::uint64_t kIntervalUnbounded = ~std::uint64_t{0};
    virtual IoStatus counter_interval(unsigned counter, std::uint64_t* half_width);
    // The logical processor (0 or 1) the calling thread runs on.
    virtual unsigned logical_processor() = 0;

    // --- Shared hardware. The emulator gives each thread its own PMU and keeps these defaults; the kernel MSR
    // backend shares one PMU per package with the other logical processor and with other software.

    // Counters, with their CCCRs read first (the order counter_extension.h relies on): cccr[c] and raw[c] for
    // every c in `counters`. One call per read of an event set, so a backend can batch the accesses.
    virtual IoStatus read_counters(CounterMask counters, std::uint64_t* cccr, std::uint64_t* raw);
    // Whether claim and release below do anything. A PMU of one's own has nothing to claim, so an event set need
    // not work out its claim at every start and stop.
    virtual bool claims_registers() const { return false; }
    // What is taken on the package of the current target CPU (see select_cpu), for scheduling.
    virtual PmuOccupancy occupancy(unsigned logical_processor);
    // Before an event set's first write: checks that nothing in `claim` is held by someone else, saves the
    // registers for restoring, and marks them as this process's. Refuses (Unavailable, *why says why) otherwise.
    virtual IoStatus claim(const PmuClaim& claim, std::string* why);
    // After the set stopped: the counters are free again.
    virtual void release(const PmuClaim& claim);
    // Directs the calling thread's next calls at OS CPU `cpu` (an event set attached with PAPI_CPU_ATTACH), or
    // at the CPU the thread is pinned to (-1). Returns the previous choice, to be given back.
    virtual int select_cpu(int cpu);
    // Checks that event sets can be attached to OS CPU `cpu` and gives its logical processor.
    virtual IoStatus attach_cpu(unsigned cpu, unsigned* logical_processor, std::string* why);
    // A PAPI context starts (init_thread) or ends (shutdown_thread) on the calling thread: PAPI makes one per
    // thread and one per CPU an event set is attached to, both on the thread that asks. The kernel MSR backend
    // pins the thread at the first and gives its CPU affinity back when the last one ends.
    virtual unsigned register_thread() { return logical_processor(); }
    virtual void release_thread() {}
    // --- Overflow interrupts (PAPI's hardware overflow). A backend that can deliver a counter's overflow interrupt
    // (OVF_PMI_T0/T1) to the thread as a signal says so; the others keep these defaults and PAPI emulates
    // overflow with its timer.

    // The signal a PMI arrives as, or 0 when the backend cannot interrupt the program.
    virtual int interrupt_signal() const { return 0; }
    // Asks for the calling thread's PMIs to arrive as interrupt_signal() (on), or for none (off: queued ones are
    // dropped).
    virtual IoStatus deliver_interrupts(bool on) {
        (void)on;
        return IoStatus::Unsupported;
    }
    // The calling thread's oldest PMI not yet taken. Unavailable when none is queued.
    virtual IoStatus take_interrupt(Interrupt* out) {
        (void)out;
        return IoStatus::Unavailable;
    }
    // The calling thread's oldest PEBS record not yet taken, in the order the PMU wrote them. Unavailable when none.
    virtual IoStatus take_pebs_record(PebsNote* out) {
        (void)out;
        return IoStatus::Unavailable;
    }
    // Whether the backend can arm PEBS for the program (a DS save area in the program's memory, its buffer
    // interrupt delivered as interrupt_signal()); *why says why not.
    virtual bool pebs_possible(std::string* why) const {
        *why = "this backend cannot deliver PEBS buffer interrupts to the program";
        return false;
    }

    // Why the last access the calling thread made was refused, when the backend refused it itself ("" if not).
    virtual std::string last_refusal() const { return std::string(); }
};

// The result of looking for a PMU: a backend, or the reason there is none, written for the user.
struct Detection {
    std::unique_ptr<Backend> backend;
    CpuDescription cpu;
    std::string disabled_reason;  // empty when backend is set
};

}  // namespace netburst::component
