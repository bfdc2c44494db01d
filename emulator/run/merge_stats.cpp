#include "emulator/run/merge_stats.h"

#include <algorithm>
#include <map>

namespace netburst::emu::run {

Stats compute_stats(std::vector<std::int64_t> v) {
    Stats s;
    s.count = v.size();
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    for (std::int64_t x : v) s.sum += x;
    const std::size_t mid = v.size() / 2;
    s.median = v.size() % 2 ? static_cast<double>(v[mid]) : (static_cast<double>(v[mid - 1]) + v[mid]) / 2.0;
    s.mean = static_cast<double>(s.sum) / static_cast<double>(v.size());
    s.imbalance = s.mean != 0 ? static_cast<double>(s.max) / s.mean : 0.0;
    return s;
}

Result<MergedTable> merge_reports(const std::vector<RankReport>& reports) {
    MergedTable t;
    for (const RankReport& r : reports) {
        if (r.rank < 0)
            return make_error(ErrorCode::BadInput,
                              r.file +
                                  ": the file does not say which rank wrote it (netburst-run writes \"rank\" when "
                                  "it runs under mpirun or srun; PAPI names its files rank_NNNNNN.json)");
        t.files.push_back(r.file);
        if (std::find(t.ranks.begin(), t.ranks.end(), r.rank) == t.ranks.end()) t.ranks.push_back(r.rank);
    }
    std::sort(t.ranks.begin(), t.ranks.end());
    std::map<long, std::size_t> column;
    for (std::size_t i = 0; i < t.ranks.size(); ++i) column[t.ranks[i]] = i;

    std::map<std::pair<std::string, std::string>, std::size_t> row;            // (region, event) -> index in t.events
    std::map<std::tuple<std::string, std::string, long>, std::string> source;  // which file gave the value
    for (const RankReport& r : reports) {
        for (const Reading& reading : r.readings) {
            const auto key = std::make_pair(reading.region, reading.event);
            auto at = row.find(key);
            if (at == row.end()) {
                MergedEvent e;
                e.region = reading.region;
                e.event = reading.event;
                e.per_rank.resize(t.ranks.size());
                e.notes.resize(t.ranks.size());
                at = row.emplace(key, t.events.size()).first;
                t.events.push_back(std::move(e));
            }
            std::string& from = source[{reading.region, reading.event, r.rank}];
            if (!from.empty())
                return make_error(ErrorCode::BadInput,
                                  (reading.region.empty() ? "" : "region " + reading.region + ", ") + reading.event +
                                      ": rank " + std::to_string(r.rank) + " has it in both " + from + " and " +
                                      r.file);
            from = r.file;
            MergedEvent& e = t.events[at->second];
            const std::size_t c = column[r.rank];
            if (reading.counted)
                e.per_rank[c] = reading.value;
            else
                e.notes[c] = reading.note;
        }
    }
    for (MergedEvent& e : t.events) {
        std::vector<std::int64_t> values;
        for (const auto& v : e.per_rank)
            if (v) values.push_back(*v);
        e.stats = compute_stats(std::move(values));
    }
    return t;
}

}  // namespace netburst::emu::run
