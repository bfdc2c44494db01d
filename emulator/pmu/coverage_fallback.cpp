// TEMPORARY, to be deleted when the core model's emulator/core/coverage.cpp is merged: the PMU model calls
// coverage() (model/coverage.h) to mark counters whose selection the core does not drive, and the core model owns
// the real answers. Until they arrive, everything reads as modelled so that libnetburst_emu.a links.
#include "emulator/model/coverage.h"

namespace netburst::emu {

Coverage coverage(EventId, unsigned) { return Coverage::Modelled; }
const char* coverage_note(EventId) { return "coverage table not merged yet (emulator/pmu/coverage_fallback.cpp)"; }

}  // namespace netburst::emu
