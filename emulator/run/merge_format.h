// How `netburst-run merge` prints the merged table: a block per event (text) or the same as JSON.
#pragma once

#include <string>

#include "emulator/run/merge_stats.h"

namespace netburst::emu::run {

std::string format_merged_text(const MergedTable& table);
std::string format_merged_json(const MergedTable& table);

}  // namespace netburst::emu::run
