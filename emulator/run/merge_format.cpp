#include "emulator/run/merge_format.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "emulator/run/report.h"

namespace netburst::emu::run {

namespace {

std::string title(const MergedEvent& e) {
    return e.region.empty() ? e.event : "[" + e.region + "] " + e.event;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// A median of two middle values can end in .5; a whole one prints as a count.
std::string median_text(double m) {
    const auto whole = static_cast<std::int64_t>(m);
    return static_cast<double>(whole) == m ? with_commas(whole) : fixed(m, 1);
}

}  // namespace

std::string format_merged_text(const MergedTable& t) {
    std::ostringstream o;
    o << "\n netburst-run merge: " << t.ranks.size() << (t.ranks.size() == 1 ? " rank, " : " ranks, ")
      << t.files.size() << (t.files.size() == 1 ? " file\n" : " files\n");
    constexpr std::size_t kPerLine = 4;  // rank values per line, so that 64 ranks still read as a column
    for (const MergedEvent& e : t.events) {
        o << "\n  " << title(e) << "\n";
        std::size_t on_line = 0;
        for (std::size_t i = 0; i < t.ranks.size(); ++i) {
            char cell[64];
            const std::string value = e.per_rank[i]        ? with_commas(*e.per_rank[i])
                                      : e.notes[i].empty() ? "-"
                                                           : e.notes[i];
            std::snprintf(cell, sizeof cell, "%s%6ld: %15s", on_line == 0 ? "    rank" : "  ", t.ranks[i],
                          value.c_str());
            o << cell;
            if (++on_line == kPerLine || i + 1 == t.ranks.size()) {
                o << "\n";
                on_line = 0;
            }
        }
        const Stats& s = e.stats;
        if (s.count == 0) {
            o << "    no rank has a count\n";
            continue;
        }
        o << "    min " << with_commas(s.min) << "   median " << median_text(s.median) << "   max "
          << with_commas(s.max) << "   sum " << with_commas(s.sum) << "   imbalance (max/mean) "
          << fixed(s.imbalance, 3);
        if (s.count != t.ranks.size()) o << "   (over " << s.count << " of " << t.ranks.size() << " ranks)";
        o << "\n";
    }
    o << "\n";
    return o.str();
}

std::string format_merged_json(const MergedTable& t) {
    using json = nlohmann::ordered_json;
    json j;
    j["ranks"] = t.ranks;
    j["files"] = t.files;
    json events = json::array();
    for (const MergedEvent& e : t.events) {
        json v;
        v["region"] = e.region.empty() ? json(nullptr) : json(e.region);
        v["event"] = e.event;
        json values = json::array();
        for (std::size_t i = 0; i < e.per_rank.size(); ++i) {
            if (e.per_rank[i])
                values.push_back(*e.per_rank[i]);
            else if (!e.notes[i].empty())
                values.push_back(e.notes[i]);
            else
                values.push_back(nullptr);
        }
        v["values"] = values;
        v["count"] = e.stats.count;
        if (e.stats.count > 0) {
            v["min"] = e.stats.min;
            v["median"] = e.stats.median;
            v["max"] = e.stats.max;
            v["sum"] = e.stats.sum;
            v["mean"] = e.stats.mean;
            v["imbalance"] = e.stats.imbalance;
        }
        events.push_back(v);
    }
    j["events"] = events;
    return j.dump(2) + "\n";
}

}  // namespace netburst::emu::run
