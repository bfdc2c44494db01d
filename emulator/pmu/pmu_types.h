// The plain types of the PMU model's public API (pmu.h): configuration, MSR access results, guest memory access and
// the records the model hands out. They live in their own header so that the model's parts (pmi.h, pebs.h) can use
// them without including the whole Pmu; pmu.h includes this file, so users see no difference.
//
// Freestanding: plain data.
#pragma once

#include <cstdint>

#include "emulator/model/emulated_machine.h"
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
    // The model decides IQ_ESCR0/1, extended cascading and instr_completed; without Hyper-Threading only thread 0
    // exists; the PMI skid delays imprecise interrupts.
    EmulatedMachine machine;
    bool pebs_available = true;     // IA32_MISC_ENABLE bit 12 clear
    bool long_mode = true;          // DS save area and PEBS records in the 64-bit layout (else 32-bit)
    // --timing=sampled: cycle-driven counters read estimates (sampled_counters.h) while the functional tier runs.
    bool sampled_timing = false;
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
    // The record's EFLAGS and general registers are the instruction's (Outcome::regs); else they are zeros.
    bool has_registers = false;
    // Not part of the hardware record (which holds registers): the linear address of the sampled load or store
    // uop's memory operand, when the front end described the instruction's operands (Outcome::instruction).
    bool has_data_address = false;
    std::uint64_t data_address = 0;
};

}  // namespace netburst::emu
