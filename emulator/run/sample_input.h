// Reading the tool's samples files (emulator/protocol/sample_file.h) into a Profile.
#pragma once

#include <string>

#include "emulator/run/profile.h"
#include "events/status.h"

namespace netburst::emu::run {

// Adds one samples file's text to *profile: one process image (its samples, counts, places and mappings). A file may
// repeat lines after its `end` (an exec that failed, and the image went on): counts add up, mappings and places are
// kept once. Errors name the line.
Result<bool> parse_samples_text(const std::string& text, Profile* profile);

// Every samples-PID-K file of `dir`, by pid and then K (the images of a pid, in exec order); then each image's
// mappings by address, each image's times after the previous image's of its pid (every image's emulator counts
// cycles from 0), and the samples by time. A file without its `end` line (the process was killed) is read as far
// as it goes.
Result<bool> read_samples_dir(const std::string& dir, Profile* profile);

}  // namespace netburst::emu::run
