// The per-rank files `netburst-run merge` reads: netburst-run's own JSON reports (-o counts.%r.json --json) and
// the JSON PAPI's high-level API writes for each rank (papi_hl_output/rank_NNNNNN.json). Both become a list of
// readings (region, event, value) for one rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "events/status.h"

namespace netburst::emu::run {

struct Reading {
    std::string region;         // the PAPI high-level region; empty: netburst-run's whole-program count
    std::string event;
    bool counted = true;        // false: the report says why not (`note`: "unsupported", "not counted")
    std::int64_t value = 0;
    std::string note;
};

struct RankReport {
    long rank = -1;             // -1: the file does not say
    std::string file;
    std::vector<Reading> readings;
};

// Parses one file's text; `file` names it in errors and gives PAPI's rank (rank_NNNNNN.json).
// The kind is recognised by its keys: netburst-run's has "events", PAPI's has "threads".
Result<RankReport> parse_rank_report(const std::string& text, const std::string& file);

Result<RankReport> read_rank_report(const std::string& file);

}  // namespace netburst::emu::run
