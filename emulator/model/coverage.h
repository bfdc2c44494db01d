// Which (event, mask bit) pairs the core model drives. A counter programmed to count anything else reads as
// "unsupported" through the emulator's interfaces, never as a made-up zero.
// The core model owns the answers (core/coverage.cpp); doc/emulator-coverage.md is generated from them.
#pragma once

#include "table/events.h"

namespace netburst::emu {

enum class Coverage : std::uint8_t {
    Modelled,      // the core emits it faithfully
    Approximate,   // emitted, from a simplified mechanism the documentation describes
    NotModelled,   // never emitted; counting it is unsupported
};

Coverage coverage(EventId event, unsigned mask_bit);
// One line on how the model produces (or why it does not produce) this event, for the documentation.
const char* coverage_note(EventId event);

// Whether the count of (event, mask bit) depends on timing. A functional pair's count depends only on the
// program-order instruction stream and the functional state (trace cache, predictors, TLBs, cache contents, bus
// requests caused by misses and write-backs, split accesses, uop decomposition, retired branch outcomes,
// non-bogus retirement), so the emulator can count it without simulating cycles (its functional tier). A
// timing-dependent pair counts cycles or something per cycle, wrong-path (bogus) uops, or replays that depend on
// what is in flight; counting one makes the emulator simulate time (doc/emulator-model.md, "Tiers"). Pairs that
// are not modelled are never emitted and answer false.
bool timing_dependent(EventId event, unsigned mask_bit);

}  // namespace netburst::emu
