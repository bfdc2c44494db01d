#include "emulator/run/merge_main.h"

#include "emulator/run/merge_format.h"
#include "emulator/run/merge_input.h"
#include "emulator/run/merge_stats.h"

namespace netburst::emu::run {

Result<std::string> merge_reports_text(const std::vector<std::string>& files, bool json) {
    std::vector<RankReport> reports;
    for (const std::string& f : files) {
        auto r = read_rank_report(f);
        if (!r) return r.error();
        reports.push_back(std::move(r.value()));
    }
    auto table = merge_reports(reports);
    if (!table) return table.error();
    return json ? format_merged_json(*table) : format_merged_text(*table);
}

}  // namespace netburst::emu::run
