// Step one of allocation: expand parsed requests into the ESCR/counter units they need, and collect the
// package-wide tagging each one claims (replay metric, front-end tag, execution tag bits).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "alloc/context.h"
#include "alloc/schedule.h"
#include "encode/unit_encoding.h"
#include "events/request.h"

namespace netburst {

struct UnitNeed {
    std::size_t request = 0;
    UnitRole role = UnitRole::Count;
    EscrContent content;
    EscrId candidates[2] = {EscrId::None, EscrId::None};
    bool needs_counter = true;
    bool pebs = false;  // the counting unit of a :precise request: it must be on the PEBS counter
    CounterFilter filter;
    // Execution-metric units: their tag value (upstream) or counting mask (downstream) follows the tag bit the
    // allocator chooses for group `exec_group`.
    int exec_group = -1;
    bool nbogus = false;
    bool bogus = false;
};


// The upstream configuration that marks uops with a tag bit.
struct TagConfig {
    EventId event{};
    std::uint16_t mask = 0;
    Privilege privilege{};
    bool operator==(const TagConfig& o) const { return event == o.event && mask == o.mask && privilege == o.privilege; }
    bool operator!=(const TagConfig& o) const { return !(*this == o); }
};

// Who marks uops with one execution tag bit. Raw upstream events with explicit TAGn may share a bit: execution_event
// then counts the union, which the SDM describes as counting a combination of events (18.15.6.3). A metric's bit
// belongs to its configuration alone, so that the metric counts exactly what it names.
struct TagBitUse {
    std::vector<TagConfig> raw;  // distinct configurations of raw upstream events
    bool metric = false;
    TagConfig metric_config;
    std::vector<std::size_t> requests;

    bool used() const { return metric || !raw.empty(); }
    // Whether a metric with configuration c may use this bit.
    bool open_to_metric(const TagConfig& c) const {
        if (metric && metric_config != c) return false;
        for (const TagConfig& r : raw)
            if (r != c) return false;
        return true;
    }
};

// The upstream configuration of one or more execution metrics that share a tag bit (pinned or to be chosen).
struct ExecGroup {
    TagConfig config;
    int pinned_bit = -1;  // the bit :tag=N asked for, or -1 for "allocator chooses"
    std::vector<std::size_t> requests;
};

// Why a set cannot be counted together, in terms of the resource that collides.
enum class ConflictKind { None, ReplayMetric, FrontEndTag, TagBit, TagBitsExhausted, Counters, Escr };

struct Conflict {
    ConflictKind kind = ConflictKind::None;
    std::vector<std::size_t> requests;  // the requests involved
    std::string detail;                 // the resource, in words
};

struct Plan {
    std::vector<UnitNeed> units;
    std::vector<ExecGroup> exec_groups;  // groups whose bit is chosen or pinned by execution metrics
    TagBitUse fixed_uses[4];             // bits claimed by upstream events with explicit TAGn and by pinned metrics
    bool replay_active = false;
    std::uint32_t pebs_enable = 0;
    std::uint32_t matrix_vert = 0;
    std::uint16_t front_end_uop_mask = 0;
    Conflict conflict;  // set when the requests clash before any register is chosen
};

// Whether the upstream ESCR of a tagging recipe needs an enabled counter. The SDM describes tagging as a property
// of the ESCR, but every documented set-up (the thesis' worked examples, PAPI's DERIVED_CMPD presets, Brink &
// Abyss) enables a counter for it; we do the same so that recipes work however the hardware gates detection.
constexpr bool kUpstreamNeedsCounter = true;

Plan make_plan(const std::vector<EventRequest>& requests, const AllocContext& ctx);

// The privilege a request counts at: its own :u/:k, or the context's default.
Privilege effective_privilege(const EventRequest& request, const AllocContext& ctx);

}  // namespace netburst
