// Every NetBurst performance-monitoring event (SDM Vol. 3B Table 19-28, non-retirement, and Table 19-29,
// at-retirement), with its masks, ESCRs, thread scope, models and PEBS capability.
//
// Names follow libpfm4 so that PAPI's `CPU,netburst` preset lines and users' libpfm4 strings keep working; the
// SDM spelling is accepted as an alias. Facts (codes, bits, ESCRs) follow the SDM; where a source disagrees the
// entry carries a note that the generated documentation prints.
//
// Freestanding-safe: plain constant-initialised arrays, lookups without allocation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table/cpu_model.h"
#include "table/msr_map.h"

namespace netburst {

// Table order. kEvents[static_cast<unsigned>(id)] describes id.
enum class EventId : std::uint8_t {
    // Table 19-28, non-retirement
    TcDeliverMode, BpuFetchRequest, ItlbReference, MemoryCancel, MemoryComplete, LoadPortReplay,
    StorePortReplay, MobLoadReplay, PageWalkType, BsqCacheReference, IoqAllocation, IoqActiveEntries,
    FsbDataActivity, BsqAllocation, BsqActiveEntries, SseInputAssist, PackedSpUop, PackedDpUop, ScalarSpUop,
    ScalarDpUop, Mmx64Uop, Mmx128Uop, X87FpUop, X87SimdMovesUop, TcMisc, GlobalPowerEvents, TcMsXfer,
    UopQueueWrites, RetiredMispredBranchType, RetiredBranchType, ResourceStall, WcBuffer, B2bCycles, Bnr,
    Snoop, Response,
    // Table 19-29, at-retirement
    FrontEndEvent, ExecutionEvent, ReplayEvent, InstrRetired, UopsRetired, UopType, BranchRetired,
    MispredBranchRetired, X87Assist, MachineClear, InstrCompleted,
    Count_
};
constexpr unsigned kNumEvents = static_cast<unsigned>(EventId::Count_);

// How an event takes part in at-retirement tagging (SDM 18.15.6).
enum class TagRole : std::uint8_t {
    None,
    FrontEndUpstream,   // uop_type: marks loads/stores that front_end_event then counts at retirement
    ExecutionUpstream,  // the FP/SIMD uop events: the ESCR's tag value marks uops for execution_event
    ReplayUpstream,     // MOB_load_replay, load_port_replay, store_port_replay: extra selects for replay metrics
    FrontEndCounter,    // front_end_event
    ExecutionCounter,   // execution_event
    ReplayCounter,      // replay_event
};

// Thread scope (SDM Table 19-34). A thread-independent (TI) event counts for the whole package whichever of the
// T0/T1 bits is set; a thread-specific (TS) event counts only for the logical processor(s) the T bits select.
enum class Scope : std::uint8_t { ThreadSpecific, ThreadIndependent };

// MaskDef::flags
constexpr std::uint8_t kMaskDefault = 1u << 0;            // used when the event string names no mask
constexpr std::uint8_t kMaskThreadIndependent = 1u << 1;  // this bit is TI although the event is TS (Table 19-34)
constexpr std::uint8_t kMaskTsTiTableOnly = 1u << 2;      // documented only in Table 19-34, not in Tables 19-28/29
constexpr std::uint8_t kMaskNeedsL3 = 1u << 3;            // counts only on parts with an L3 cache (Xeon MP)

struct MaskDef {
    const char* name;   // libpfm4 spelling (upper case)
    const char* alias;  // SDM spelling when it differs, else nullptr
    std::uint8_t bit;   // position in the ESCR event-mask field (ESCR bit 9 + bit)
    std::uint8_t flags;
    ModelSet models;
    const char* description;
};

struct EventDef {
    EventId id;
    const char* name;   // libpfm4 spelling
    const char* alias;  // SDM spelling when it differs, else nullptr
    std::uint8_t event_select;  // ESCR bits 30:25
    std::uint8_t cccr_select;   // CCCR bits 15:13; always equal to kEscrs[escr].select of the allowed ESCRs
    EscrId escrs[2];            // allowed ESCRs; the second is EscrId::None when only one is allowed
    const MaskDef* masks;
    std::uint8_t num_masks;
    Scope scope;
    ModelSet models;
    bool at_retirement;  // Table 19-29
    bool pebs;           // "Can Support PEBS" in Table 19-29
    TagRole tag_role;
    const char* sdm_table;
    const char* description;
    const char* note;  // disagreement, erratum or model note for the documentation; nullptr if none
};

extern const EventDef kEvents[kNumEvents];

inline const EventDef& event_def(EventId id) { return kEvents[static_cast<unsigned>(id)]; }

// Case-insensitive lookup by libpfm4 name or SDM alias; `name` need not be NUL-terminated.
const EventDef* find_event(const char* name, std::size_t len);
const MaskDef* find_mask(const EventDef& event, const char* name, std::size_t len);
const MaskDef* mask_by_bit(const EventDef& event, unsigned bit);

// The bits of the event's default mask (0 when it has none).
std::uint16_t default_mask_bits(const EventDef& event);
// All documented bits of the event's mask.
std::uint16_t valid_mask_bits(const EventDef& event);

inline bool event_on_model(const EventDef& event, unsigned model) { return model_in(event.models, model); }

// True for the events whose TS/TI row of Table 19-34 we could not read (execution_event, x87_assist,
// branch_retired, mispred_branch_retired, uops_retired, instr_completed, BSQ_active_entries and the four bus
// events). They are marked thread-specific, as every other event of their kind is; FreeBSD marks the bus events TI.
bool scope_unverified(EventId id);

// The event an ESCR programmed with `event_select` detects, or nullptr when that ESCR has no such event. This is
// how the emulator decodes what software asked for.
const EventDef* event_for_escr(EscrId escr, std::uint8_t event_select);

}  // namespace netburst
