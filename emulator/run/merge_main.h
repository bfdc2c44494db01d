// `netburst-run merge REPORT...` (and its older spelling `netburst-run --merge`): reads the per-rank reports of a
// parallel run and prints the merged table.
#pragma once

#include <string>
#include <vector>

#include "events/status.h"

namespace netburst::emu::run {

Result<std::string> merge_reports_text(const std::vector<std::string>& files, bool json);

// Prints the merged table of `files` on standard output, or writes it to `output`; returns the exit status.
int merge_files(const std::vector<std::string>& files, bool json, const std::string& output);

// argv[0] is "merge"; returns the exit status.
int merge_main(int argc, char** argv);

}  // namespace netburst::emu::run
