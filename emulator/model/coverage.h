// Which (event, mask bit) pairs the core model drives. A counter programmed to count anything else reads as
// "unsupported" through the emulator's interfaces, never as a made-up zero (issue 3, "Event coverage").
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

}  // namespace netburst::emu
