// The merged view of per-rank reports: for each event, its value on every rank and the statistics a load-balance
// question starts from (minimum, median, maximum, sum, and imbalance as maximum over mean).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "emulator/run/merge_input.h"

namespace netburst::emu::run {

struct Stats {
    std::size_t count = 0;     // ranks with a value
    std::int64_t min = 0, max = 0, sum = 0;
    double median = 0;         // with an even count, the mean of the two middle values
    double mean = 0;
    double imbalance = 0;      // max / mean; 1 when every rank did the same; 0 when the mean is 0
};

// The statistics of `values` (not empty).
Stats compute_stats(std::vector<std::int64_t> values);

struct MergedEvent {
    std::string region;                            // empty: a whole-program count from netburst-run
    std::string event;
    std::vector<std::optional<std::int64_t>> per_rank;  // in MergedTable::ranks order; empty: no count there
    std::vector<std::string> notes;                // per rank: why there is no count ("unsupported"), or ""
    Stats stats;                                   // over the ranks that have a count
};

struct MergedTable {
    std::vector<long> ranks;            // ascending
    std::vector<std::string> files;     // as given
    std::vector<MergedEvent> events;    // in the order they first appear
};

// Joins the reports by rank: a rank may have several files (netburst-run's report and PAPI's), each event at most
// once per rank. Errors: a file without a rank, or an event twice on one rank (naming both files).
Result<MergedTable> merge_reports(const std::vector<RankReport>& reports);

}  // namespace netburst::emu::run
