// `-e all`: every event the emulator's model drives, each with all its modelled masks, and every at-retirement
// metric, as event strings the parser takes.
#pragma once

#include <string>
#include <vector>

namespace netburst::emu::run {

inline constexpr const char* kAllEventsName = "all";

// For CPU model `model`: each event of the table on that model with the masks the core model emits (coverage.h;
// approximate ones included), skipping events with none; then the metrics.
std::vector<std::string> all_modelled_events(unsigned model);

}  // namespace netburst::emu::run
