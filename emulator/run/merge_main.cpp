#include "emulator/run/merge_main.h"

#include <getopt.h>

#include <cstdlib>
#include <fstream>
#include <iostream>

#include "emulator/run/merge_format.h"
#include "emulator/run/merge_input.h"
#include "emulator/run/merge_stats.h"
#include "emulator/run/run_options.h"

namespace netburst::emu::run {

namespace {

const char* kUsage =
    "Usage: netburst-run merge [--json] [-o FILE] [--] REPORT...\n"
    "Read the per-rank reports of a parallel run (netburst-run's --json reports and PAPI's\n"
    "papi_hl_output/rank_NNNNNN.json) and print, per event, each rank's value, the minimum, median, maximum, sum and\n"
    "imbalance (maximum over mean). 'netburst-run --merge REPORT...' is the same.\n"
    "\n"
    "      --json           print the table as JSON\n"
    "  -o, --output FILE    write the table to FILE instead of standard output\n"
    "  -h, --help           this help\n";

constexpr const char* kName = "netburst-run merge";

}  // namespace

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

int merge_files(const std::vector<std::string>& files, bool json, const std::string& output) {
    auto merged = merge_reports_text(files, json);
    if (!merged) return failed(kName, merged.error().message);
    // The merged table is the command's own output (a run's report goes to standard error, beside the program's).
    if (output.empty()) {
        std::cout << *merged;
        return 0;
    }
    std::ofstream out(output);
    if (!(out << *merged) || !out.flush()) return failed(kName, output + ": cannot be written");
    return 0;
}

int merge_main(int argc, char** argv) {
    enum { kJson = 256 };
    static const option kLong[] = {{"json", no_argument, nullptr, kJson},
                                   {"output", required_argument, nullptr, 'o'},
                                   {"help", no_argument, nullptr, 'h'},
                                   {nullptr, 0, nullptr, 0}};
    bool json = false;
    std::string output;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", kLong, nullptr)) != -1) {
        switch (c) {
        case kJson: json = true; break;
        case 'o': output = optarg; break;
        case 'h': std::cout << kUsage; return 0;
        default: usage_error(kName, "unknown option");
        }
    }
    const std::vector<std::string> files(argv + optind, argv + argc);
    if (files.empty()) usage_error(kName, "no reports to merge");
    return merge_files(files, json, output);
}

}  // namespace netburst::emu::run
