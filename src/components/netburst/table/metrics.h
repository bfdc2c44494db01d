// The 19 at-retirement metrics of SDM Vol. 3B Tables 19-31 (front-end tagging), 19-32 (execution tagging) and
// 19-33 (replay tagging), as complete recipes: the upstream event that marks uops, the downstream event that
// counts them at retirement, and the values of the three global tagging MSRs.
//
// Freestanding-safe, like the rest of table/.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table/events.h"

namespace netburst {

enum class TagMechanism : std::uint8_t { FrontEnd, Execution, Replay };

// Execution tagging has four tag bits per uop (SDM 18.15.6.3): up to four execution metrics at once.
constexpr unsigned kNumExecutionTagBits = 4;
const char* tag_mechanism_name(TagMechanism mechanism);

enum class MetricId : std::uint8_t {
    MemoryLoads, MemoryStores,
    PackedSpRetired, PackedDpRetired, ScalarSpRetired, ScalarDpRetired, Mmx64Retired, Mmx128Retired,
    X87FpRetired, X87SimdMemoryMovesRetired,
    L1LoadMissRetired, L2LoadMissRetired, DtlbLoadMissRetired, DtlbStoreMissRetired, DtlbAllMissRetired,
    TaggedMispredBranch, MobLoadReplayRetired, SplitLoadRetired, SplitStoreRetired,
    Count_
};
constexpr unsigned kNumMetrics = static_cast<unsigned>(MetricId::Count_);

struct MetricDef {
    MetricId id;
    const char* name;
    TagMechanism mechanism;
    const char* sdm_table;
    // The event whose ESCR marks uops: uop_type for front-end metrics, the FP/SIMD uop event for execution
    // metrics (its tag value is chosen by the allocator), the extra replay select for three replay metrics.
    bool has_upstream;
    EventId upstream_event;
    std::uint16_t upstream_mask;
    EscrId upstream_escr;  // the only ESCR the recipe allows, or EscrId::None when both of the event's ESCRs do
    // The event that counts marked uops at retirement. Its mask is NBOGUS unless the user asks for BOGUS; for
    // execution metrics NBOGUS/BOGUS become NBOGUSn/BOGUSn for the chosen tag bit n.
    EventId counting_event;
    std::uint32_t pebs_enable;       // IA32_PEBS_ENABLE (replay metrics); 0 for the others
    std::uint32_t matrix_vert;       // MSR_PEBS_MATRIX_VERT (replay metrics); 0 for the others
    std::uint32_t tc_precise_event;  // MSR_TC_PRECISE_EVENT; no documented metric needs it
    const char* replay_mask;         // libpfm4's replay_event virtual mask naming this metric, or nullptr
    const char* description;
    const char* note;
};

extern const MetricDef kMetrics[kNumMetrics];

inline const MetricDef& metric_def(MetricId id) { return kMetrics[static_cast<unsigned>(id)]; }

// Case-insensitive lookup by metric name; `name` need not be NUL-terminated.
const MetricDef* find_metric(const char* name, std::size_t len);
// The metric a libpfm4 replay_event virtual mask (L1_LD_MISS, ...) stands for.
const MetricDef* find_metric_by_replay_mask(const char* name, std::size_t len);

// execution_event's mask for tag bit n: NBOGUSn is bit n, BOGUSn is bit n + 4.
constexpr std::uint16_t execution_counting_mask(bool nbogus, bool bogus, unsigned tag_bit) {
    return static_cast<std::uint16_t>((nbogus ? 1u << tag_bit : 0u) | (bogus ? 1u << (tag_bit + 4) : 0u));
}

// Counting-mask bits of the downstream event: NBOGUS/BOGUS for front-end and replay metrics, NBOGUSn/BOGUSn for
// execution metrics with tag bit n.
std::uint16_t metric_counting_mask(const MetricDef& metric, bool nbogus, bool bogus, unsigned tag_bit);

}  // namespace netburst
