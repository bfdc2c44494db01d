// Writing a sampled run in the callgrind format (Valgrind's callgrind/docs/cl-format.xml), which callgrind_annotate
// and KCachegrind read: per instruction and per source line, the event's exact count beside what the samples say
// (samples x period at each sample's instruction), so that the skid of imprecise sampling, or the exactness of PEBS,
// shows line by line; and the calls the tool's shadow stacks saw (Process::calls), each call site's calls to each
// callee with their inclusive costs, so that the readers show a call graph and inclusive costs.
#pragma once

#include <string>

#include "emulator/run/profile.h"
#include "events/status.h"

namespace netburst::emu::run {

// The file's text. Instruction positions are the objects' own addresses (file offset turned into the ELF segment's
// address), as KCachegrind's disassembly needs them for shared objects and position-independent executables.
std::string callgrind_text(const Profile& profile);

Result<bool> write_callgrind(const std::string& path, const Profile& profile);

}  // namespace netburst::emu::run
