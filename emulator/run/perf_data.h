// Writing a sampled run as a perf.data file that Linux's perf tools (report, script, annotate, mem report) read as
// they read their own: the file header, one perf_event_attr per sampled event (each with its sample id), COMM and
// MMAP2 records for every process and mapping, a SAMPLE record per sample and the feature sections perf expects
// (tools/perf/Documentation/perf.data-file-format.txt describes the layout; the record layouts are those of the
// kernel's uapi <linux/perf_event.h>, whose structures and constants this file uses).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emulator/run/profile.h"
#include "events/status.h"

namespace netburst::emu::run {

// What the header's feature sections say about the machine and the run.
struct PerfHeaderInfo {
    std::string hostname;
    std::string os_release;
    std::string cpu_description;  // HEADER_CPUDESC
    std::string cpuid;            // HEADER_CPUID, perf's x86 spelling: vendor,family,model,stepping
    std::vector<std::string> cmdline;
};

// The header info of this machine and an emulated NetBurst of `model` (stepping as CPUID reports it).
PerfHeaderInfo perf_header_info(unsigned model, const std::vector<std::string>& cmdline);

// sample_type of an event's attr: IDENTIFIER (which event a record belongs to), IP, TID, TIME and PERIOD always;
// ADDR and DATA_SRC for PEBS samples; CALLCHAIN with -g.
std::uint64_t perf_sample_type(const SampledEvent& event);

// The file's bytes.
std::vector<std::uint8_t> perf_data_bytes(const Profile& profile, const PerfHeaderInfo& info);

// Writes path: a regular file through a temporary name, renamed when complete, the one it replaces kept as
// PATH.old (as perf record does); a device or a pipe (/dev/null, a FIFO) in place, never moved or replaced.
Result<bool> write_perf_data(const std::string& path, const Profile& profile, const PerfHeaderInfo& info);

}  // namespace netburst::emu::run
