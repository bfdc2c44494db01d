// The three at-retirement tagging mechanisms of SDM Vol. 3B 18.15.6, as "colours" a uop can carry independently:
//  - front-end tag: uop_type's TAGLOADS/TAGSTORES mark load/store uops (counted by front_end_event and by
//    instr_retired's TAG masks);
//  - execution tags: four bits, set by every upstream ESCR that detects the uop with Tag Enable and a tag value
//    (counted by execution_event's NBOGUSn/BOGUSn);
//  - replay tag: IA32_PEBS_ENABLE UOP_TAG with the cause selects, MSR_PEBS_MATRIX_VERT with the uop kinds, and for
//    MOB and split replays an extra ESCR (counted by replay_event).
//
// An upstream ESCR tags only while an enabled CCCR selects it. No source says whether hardware requires that (see
// doc/emulator-pmu.md); our recipes always enable a counter for it, and this conservative rule makes a recipe
// that forgets to do so visibly wrong instead of accidentally right.
//
// TagConfig is rebuilt from the registers after every MSR write that can change it, so tagging a uop costs a few
// bit tests.
#pragma once

#include <cstdint>

#include "emulator/model/outcome.h"
#include "emulator/pmu/qualifier.h"
#include "emulator/pmu/register_file.h"
#include "emulator/pmu/table_facts.h"

namespace netburst::emu {

struct TagConfig {
    // Front-end: qualifier-index accept bits (qualifier.h) for load and store uops.
    std::uint8_t fe_loads = 0;
    std::uint8_t fe_stores = 0;

    // Execution: one entry per upstream ESCR in use with Tag Enable set.
    struct ExecTagger {
        EventId event;
        std::uint16_t mask;
        std::uint8_t tag_value;
        Qualifier qualifier;
    };
    ExecTagger exec[kNumEscrs];
    unsigned num_exec = 0;

    // Replay.
    bool replay = false;                // UOP_TAG
    std::uint8_t replay_kinds = 0;      // bit (1 << UopKind) for each kind MATRIX_VERT selects
    std::uint16_t replay_causes = 0;    // ReplayCause bits IA32_PEBS_ENABLE selects
    std::uint16_t mob_mask[4] = {};     // per qualifier index: MOB_load_replay mask bits of ESCRs in use
    std::uint16_t split_load_mask[4] = {};
    std::uint16_t split_store_mask[4] = {};

    bool front_end_tag(const UopRecord& uop, unsigned q) const {
        if (uop.kind == UopKind::Load) return (fe_loads >> q) & 1u;
        if (uop.kind == UopKind::Store) return (fe_stores >> q) & 1u;
        return false;
    }
    std::uint8_t execution_tags(const UopRecord& uop, unsigned q) const;
    bool replay_tag(const UopRecord& uop, unsigned q) const;
};

// `in_use[i]`: ESCR i is selected by a counting (enabled or cascade-started) CCCR.
void build_tag_config(const RegisterFile& regs, const bool in_use[kNumEscrs], unsigned model, const TableFacts& facts,
                      TagConfig* out);

}  // namespace netburst::emu
