// Step two of allocation: give every unit an ESCR and a counter. Units in different counter blocks never
// interact (each ESCR and counter belongs to one block), so each block is searched on its own; within a block
// the search tries each unit's ESCRs, lets units share an ESCR only when they need the identical value, and
// keeps each side of the block within the counters it has free.
#pragma once

#include <cstdint>
#include <vector>

#include "alloc/context.h"
#include "alloc/plan.h"

namespace netburst {

// A unit whose ESCR content no longer depends on a tag choice.
struct ConcreteUnit {
    const UnitNeed* need = nullptr;
    std::uint64_t escr_value = 0;
};

struct UnitPlace {
    EscrId escr = EscrId::None;
    int counter = -1;
};

// Places all units or returns false. `places` gets one entry per unit, in order.
bool place_units(const std::vector<ConcreteUnit>& units, const AllocContext& ctx, std::vector<UnitPlace>* places);

// The counters this context leaves usable.
CounterMask usable_counters(const AllocContext& ctx);

// Whether `escr` may be used in this context (exists on the model, not held by the other logical processor or
// by other software).
bool escr_usable(EscrId escr, const AllocContext& ctx);

}  // namespace netburst
