// The NetBurst PMU model: the register file software sees (wrmsr/rdmsr/rdpmc) and the counting machinery behind
// it, exactly as Intel SDM Vol. 3B section 18.15 describes it. It decodes ESCRs and CCCRs with the hardware
// table's register layouts (table/registers.h) and event table (table/events.h); it never asks the component
// what an event means, so a wrong ESCR value gives a wrong count.
//
// Freestanding: no allocation, no exceptions, no C library. Construct with new or placement new, then reset().
#pragma once

#include <cstdint>

#include "emulator/model/outcome.h"

namespace netburst::emu {

// What wrmsr/rdmsr/rdpmc would do: succeed, or raise #GP (unknown MSR, reserved bit set, bad rdpmc index).
enum class MsrResult : std::uint8_t { Ok, GeneralProtection };

// Guest memory, for the DS save area and PEBS records: the Valgrind tool writes real guest memory, the trace
// replay a private sparse memory. Return false when the address is not accessible.
struct GuestMemory {
    void* context = nullptr;
    bool (*read)(void* context, std::uint64_t address, void* buffer, unsigned size) = nullptr;
    bool (*write)(void* context, std::uint64_t address, const void* buffer, unsigned size) = nullptr;
};

struct PmuConfig {
    unsigned model = 2;             // family 0FH model: decides IQ_ESCR0/1, extended cascading, instr_completed
    bool hyper_threading = false;   // two logical processors; without it only thread 0 exists
    bool pebs_available = true;     // IA32_MISC_ENABLE bit 12 clear
    bool long_mode = true;          // DS save area and PEBS records in the 64-bit layout (else 32-bit)
    unsigned pmi_skid_cycles = 0;   // cycles between an overflow and the PMI being taken (imprecise sampling)
};

// A performance-monitoring interrupt as the model raised it.
struct PmiRecord {
    Cycle cycle = 0;                // when it was taken
    std::uint8_t thread = 0;        // the logical processor interrupted (OVF_PMI_T0 / OVF_PMI_T1)
    std::uint32_t overflowed = 0;   // counters whose OVF flag is set, as a bitmask over 0-17
    std::uint64_t eip = 0;          // the instruction the interrupt would return to
    bool pebs_threshold = false;    // raised by the PEBS buffer reaching its interrupt threshold
};

// A PEBS record the model wrote into the DS buffer.
struct PebsRecord {
    Cycle cycle = 0;
    std::uint8_t thread = 0;
    std::uint64_t eip = 0;          // the instruction whose uop caused the event (precise)
    std::uint64_t address = 0;      // where in guest memory the record went
};

class Pmu {
public:
    void reset(const PmuConfig& config);

    // Software's view. `thread` is the logical processor executing the instruction; `now` the current cycle.
    MsrResult write_msr(unsigned thread, std::uint32_t msr, std::uint64_t value, Cycle now);
    MsrResult read_msr(unsigned thread, std::uint32_t msr, std::uint64_t* value, Cycle now);
    // RDPMC: ECX bits 4:0 select the counter (0-17), bit 31 asks for the low 32 bits only ("fast" read).
    MsrResult read_pmc(unsigned thread, std::uint32_t ecx, std::uint64_t* value, Cycle now);

    // True while counter n is enabled on an ESCR/mask the core model does not drive (see model/coverage.h), or
    // has counted such an event since software last wrote it: its value then means nothing and the emulator
    // reports it as unsupported.
    bool counter_unsupported(unsigned n) const;

    // The core model's feed, in instruction order.
    void consume(const Outcome& outcome);
    // Logical processor activity for the CCCR active-thread filter: `thread` is active from `cycle` on (or,
    // with active false, halted or finished from `cycle` on).
    void set_thread_active(unsigned thread, bool active, Cycle cycle);
    // Evaluates every cycle before `cycle` (threshold, edge, active-thread filtering, PMI delivery). Called before
    // each MSR access and at the end; consume() closes up to each outcome's frontier on its own.
    void close_until(Cycle cycle);

    void set_guest_memory(const GuestMemory& memory);

    // Records since the last call (oldest first); returns how many were copied, and counts those lost when more
    // arrived than the internal ring holds.
    unsigned take_pmis(PmiRecord* out, unsigned capacity);
    unsigned take_pebs_records(PebsRecord* out, unsigned capacity);
    std::uint64_t lost_records() const;

private:
    // All state is fixed-size members (no allocation).
};

}  // namespace netburst::emu
