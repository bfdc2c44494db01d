// The allocator's answer: for every request, the ESCRs and counters it was given and the register values, plus
// the package-wide tagging registers.
#pragma once

#include <cstdint>
#include <vector>

#include "alloc/context.h"
#include "table/events.h"

namespace netburst {

// A request needs one or two "units", each an ESCR and (usually) a counter: the counting unit, whose counter
// holds the request's result, and for tagged metrics the upstream unit that marks uops.
enum class UnitRole : std::uint8_t { Count, Upstream };

struct PlacedUnit {
    UnitRole role = UnitRole::Count;
    EventId event{};
    EscrId escr = EscrId::None;
    int counter = -1;  // -1 when the unit needs no counter
    std::uint64_t escr_value = 0;
    std::uint64_t cccr_value = 0;  // enabled, ready to write; 0 when counter is -1
};

struct ScheduledRequest {
    std::vector<PlacedUnit> units;
    int result_counter = -1;  // the counter to read for this request's value
    int tag_bit = -1;         // execution tag bit, for execution metrics
};

struct Schedule {
    std::vector<ScheduledRequest> requests;  // in the order of the input
    // Package-wide tagging state the set needs.
    bool replay_active = false;
    std::uint32_t pebs_enable = 0;
    std::uint32_t matrix_vert = 0;
    std::uint32_t tc_precise_event = 0;
    std::uint8_t execution_tag_bits = 0;  // tag bits owned by this set's upstream events
    std::uint16_t front_end_uop_mask = 0; // uop_type mask of the set's front-end tagging, 0 if none
    // What the set occupies, for the other logical processor's Occupancy.
    CounterMask counters = 0;
    EscrMask escrs = 0;

    Occupancy as_occupancy() const {
        return Occupancy{counters, escrs, replay_active, pebs_enable, matrix_vert};
    }
};

}  // namespace netburst
