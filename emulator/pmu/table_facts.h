// The few facts the PMU model needs beyond register layouts, read once from the hardware table at reset (one source
// of truth for the hardware: no fact is written twice): the mask bits of the events the PMU counts itself from retiring uops, and
// the replay-tagging selects of SDM Table 19-33 as the metric recipes give them.
#pragma once

#include <cstdint>

#include "emulator/model/outcome.h"
#include "table/events.h"
#include "table/msr_map.h"

namespace netburst::emu {

// The replay causes of outcome.h, in the order TableFacts::cause_select lists them.
constexpr unsigned kNumReplayCauses = 6;
inline constexpr std::uint16_t kReplayCauseBits[kNumReplayCauses] = {kReplayL1LoadMiss, kReplayL2LoadMiss, kReplayDtlbMiss,
                                                              kReplayMispredBranch, kReplayMob, kReplaySplit};

struct TableFacts {
    // uop_type (front-end tagging upstream).
    std::uint8_t tag_loads_bit = 0;
    std::uint8_t tag_stores_bit = 0;
    // NBOGUS/BOGUS mask bits of front_end_event, replay_event, uops_retired and instr_completed.
    std::uint8_t fe_nbogus = 0, fe_bogus = 0;
    std::uint8_t replay_nbogus = 0, replay_bogus = 0;
    std::uint8_t uops_nbogus = 0, uops_bogus = 0;
    std::uint8_t completed_nbogus = 0, completed_bogus = 0;
    // instr_retired: indexed by (bogus * 2 + tagged).
    std::uint8_t instr_retired_bit[4] = {};
    // execution_event mask bits selected by a uop's 4-bit execution tag, for non-bogus and bogus uops.
    std::uint16_t exec_nbogus_bits[16] = {};
    std::uint16_t exec_bogus_bits[16] = {};

    // MSR_PEBS_MATRIX_VERT bits for load, store and branch uops.
    std::uint64_t mv_loads = 0, mv_stores = 0, mv_branches = 0;
    // The IA32_PEBS_ENABLE bits that select each replay cause (all of them must be set).
    std::uint64_t cause_select[kNumReplayCauses] = {};
    // The extra selects that qualify MOB and split replays: the event, and the only ESCR allowed (or None).
    EventId mob_event = EventId::MobLoadReplay;
    EscrId mob_escr = EscrId::None;
    EventId split_load_event = EventId::LoadPortReplay;
    EscrId split_load_escr = EscrId::None;
    EventId split_store_event = EventId::StorePortReplay;
    EscrId split_store_escr = EscrId::None;

    void load();
};

}  // namespace netburst::emu
