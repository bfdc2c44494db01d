// Reading the tool's samples files (emulator/valgrind/sample_file.h) into a Profile.
#pragma once

#include <string>

#include "emulator/run/profile.h"
#include "events/status.h"

namespace netburst::emu::run {

// Adds one samples file's text to *profile (processes, samples, counts, places, mappings). A process image may come
// in several files (an exec keeps its pid) and a file may repeat a process's lines: counts add up, mappings and
// places are kept once. Errors name the line.
Result<bool> parse_samples_text(const std::string& text, Profile* profile);

// Every samples-* file of `dir`; then sorts processes, mappings and each thread's samples. A file without its
// `end` line (the process was killed) is read as far as it goes.
Result<bool> read_samples_dir(const std::string& dir, Profile* profile);

}  // namespace netburst::emu::run
