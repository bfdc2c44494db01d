// What the core model reports about one instruction: the uops it became, when they retired, and every event
// detector output it caused. The PMU model consumes it (the emulator is hardware: the PMU sees only what a
// Pentium 4's event detectors would see, and software sees only MSRs).
//
// The split of work:
//  - the core model knows micro-architecture: it emits every event whose occurrence does not depend on PMU
//    programming (cache, TLB, trace cache, branch, bus, stall events) as EventRecords and IntervalRecords;
//  - the PMU model owns tagging: it decides from its ESCRs and IA32_PEBS_ENABLE/MATRIX_VERT which uops carry a
//    front-end, execution or replay tag, and counts from UopRecords the events that depend on tags or on
//    retirement of uops: uops_retired, instr_retired, instr_completed, front_end_event, execution_event,
//    replay_event. It also applies PEBS on retiring tagged uops.
//
// Freestanding: plain data with fixed capacity.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"
#include "table/events.h"

namespace netburst::emu {

using Cycle = std::uint64_t;

// How a uop looks to front-end tagging (uop_type TAGLOADS/TAGSTORES) and to MSR_PEBS_MATRIX_VERT.
enum class UopKind : std::uint8_t { Other, Load, Store, Branch };

// Replay causes a uop met on its way to retirement; IA32_PEBS_ENABLE selects which ones tag (Table 19-33).
enum ReplayCause : std::uint16_t {
    kReplayL1LoadMiss = 1u << 0,      // PEBS_ENABLE bit 0
    kReplayL2LoadMiss = 1u << 1,      // bit 1
    kReplayDtlbMiss = 1u << 2,        // bit 2 (load or store, MATRIX_VERT says which)
    kReplayMispredBranch = 1u << 3,   // bits 15 and 16
    kReplayMob = 1u << 4,             // bit 9, qualified by MOB_load_replay's ESCR mask
    kReplaySplit = 1u << 5,           // bit 10, qualified by load_port_replay / store_port_replay
};

// Eight-aligned on every target: write_uop stores it as whole words, and the i386 ABI aligns a uint64_t to 4 only
// (the tool's x86-linux build), which would leave it 28 bytes long.
struct alignas(8) UopRecord {
    Cycle retire = 0;        // the cycle the uop left the machine at retirement (bogus uops: when discarded)
    UopKind kind = UopKind::Other;
    bool bogus = false;      // on a mispredicted path: reaches retirement but never commits
    bool last_of_instruction = false;  // the uop that retires the instruction (instr_retired counts here)
    // Execution tagging: the FIRM event that detected this uop as it executed (x87_FP_uop, packed_SP_uop, ...),
    // with its mask bit, or has_exec_event false.
    bool has_exec_event = false;
    EventId exec_event = EventId::X87FpUop;
    std::uint8_t exec_mask_bit = 0;
    Cycle exec_cycle = 0;
    std::uint16_t replay_causes = 0;  // ReplayCause bits
    // For MOB replays: the MOB_load_replay mask bits that describe the cause (NO_STA 1, NO_STD 3, PARTIAL_DATA 4,
    // UNALGN_ADDR 5). For split replays: the load_port_replay/store_port_replay bit (SPLIT_LD/SPLIT_ST, bit 1).
    std::uint16_t mob_mask = 0;
};

// One event-detector output: `count` occurrences of (event, mask bit) in cycle `cycle`.
struct EventRecord {
    Cycle cycle = 0;
    EventId event{};
    std::uint8_t mask_bit = 0;
    std::uint8_t count = 1;
};

// An event that holds for every cycle of [begin, end): `per_cycle` occurrences each cycle (cycles running,
// stall cycles, queue occupancy, trace-cache mode). The PMU expands it cycle by cycle only for counters that
// compare against a threshold.
struct IntervalRecord {
    Cycle begin = 0;
    Cycle end = 0;
    EventId event{};
    std::uint8_t mask_bit = 0;
    std::uint8_t per_cycle = 1;
};

struct Outcome {
    static constexpr unsigned kMaxUops = 96;     // long microcode flows are summarised, see core/README
    static constexpr unsigned kMaxEvents = 64;
    static constexpr unsigned kMaxIntervals = 16;

    std::uint8_t thread = 0;
    std::uint8_t cpl = 3;
    std::uint64_t pc = 0;
    const RegisterSnapshot* regs = nullptr;  // for PEBS records, may be null
    // The instruction this outcome describes, while the PMU consumes it (set by the Emulator; null for outcomes
    // that only carry cycle records): PEBS takes the sampled uop's data address from its memory operands.
    const Instruction* instruction = nullptr;

    Cycle fetch = 0;    // when the instruction's first uop was delivered
    Cycle retire = 0;   // when its last uop retired
    // No later outcome carries an event, uop or interval that starts before this cycle. The PMU may close (and
    // evaluate thresholds for) every cycle before it.
    Cycle frontier = 0;

    unsigned num_uops = 0;
    UopRecord uops[kMaxUops];
    unsigned num_events = 0;
    EventRecord events[kMaxEvents];
    unsigned num_intervals = 0;
    IntervalRecord intervals[kMaxIntervals];

    void clear() {
        num_uops = num_events = num_intervals = 0;
        regs = nullptr;
        instruction = nullptr;
    }
    // Adding beyond capacity is dropped and remembered, so that a test can catch it; the core sizes its
    // summaries so that it never happens.
    bool overflowed = false;
    UopRecord* add_uop() {
        if (num_uops == kMaxUops) { overflowed = true; return nullptr; }
        uops[num_uops] = UopRecord{};
        return &uops[num_uops++];
    }
    void add_event(Cycle cycle, EventId event, unsigned mask_bit, unsigned count = 1) {
        if (count == 0) return;
        if (num_events == kMaxEvents) { overflowed = true; return; }
        events[num_events++] = EventRecord{cycle, event, static_cast<std::uint8_t>(mask_bit),
                                           static_cast<std::uint8_t>(count > 255 ? 255 : count)};
    }
    void add_interval(Cycle begin, Cycle end, EventId event, unsigned mask_bit, unsigned per_cycle = 1) {
        if (end <= begin || per_cycle == 0) return;
        if (num_intervals == kMaxIntervals) { overflowed = true; return; }
        intervals[num_intervals++] = IntervalRecord{begin, end, event, static_cast<std::uint8_t>(mask_bit),
                                                    static_cast<std::uint8_t>(per_cycle)};
    }
};

}  // namespace netburst::emu
