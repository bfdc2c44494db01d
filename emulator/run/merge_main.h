// `netburst-run --merge REPORT...`: reads the per-rank reports of a parallel run and returns the merged table.
#pragma once

#include <string>
#include <vector>

#include "events/status.h"

namespace netburst::emu::run {

Result<std::string> merge_reports_text(const std::vector<std::string>& files, bool json);

}  // namespace netburst::emu::run
