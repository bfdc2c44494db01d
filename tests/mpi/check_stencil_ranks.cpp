// Holds the ranks of examples/stencil.c to the work they were given (scripts/mpi-check.sh runs it).
//
//   check_stencil_ranks NX NY SWEEPS TOLERANCE DIR...
//
// Each DIR is the papi_hl_output directory of one run (rank_NNNNNN.json for every rank, PAPI_EVENTS=PAPI_TOT_INS).
// A rank owns NY/P rows, plus one for the first NY mod P ranks, of NX points each. Its "sweep" region minus its
// "calls" region (PAPI's own region calls) is the update of its points, which has no data-dependent branch: the
// instructions per owned point must be the same on every rank of every run, within TOLERANCE (a fraction), which
// covers the few instructions per sweep that do not scale with the rows (the call of the update and its loop
// set-up) and the variation of PAPI's own memory allocations.
#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "emulator/run/merge_input.h"
#include "emulator/run/merge_stats.h"

using namespace netburst::emu::run;

namespace {

std::vector<std::string> rank_files(const std::string& dir) {
    std::vector<std::string> files;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (std::string(e->d_name).rfind("rank_", 0) == 0) files.push_back(dir + "/" + e->d_name);
        closedir(d);
    }
    std::sort(files.begin(), files.end());
    return files;
}

const MergedEvent* find(const MergedTable& t, const std::string& region, const std::string& event) {
    for (const MergedEvent& e : t.events)
        if (e.region == region && e.event == event) return &e;
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: check_stencil_ranks NX NY SWEEPS TOLERANCE DIR...\n");
        return 2;
    }
    const long nx = std::atol(argv[1]), ny = std::atol(argv[2]), sweeps = std::atol(argv[3]);
    const double tolerance = std::atof(argv[4]);
    double reference = 0, lowest = 0, highest = 0;
    bool failed = false;
    for (int a = 5; a < argc; ++a) {
        std::vector<RankReport> reports;
        for (const std::string& f : rank_files(argv[a])) {
            auto r = read_rank_report(f);
            if (!r) {
                std::fprintf(stderr, "check_stencil_ranks: %s\n", r.error().message.c_str());
                return 1;
            }
            reports.push_back(*r);
        }
        auto table = merge_reports(reports);
        if (!table || table->ranks.empty()) {
            std::fprintf(stderr, "check_stencil_ranks: %s: %s\n", argv[a],
                         table ? "no rank files" : table.error().message.c_str());
            return 1;
        }
        const MergedEvent* sweep = find(*table, "sweep", "PAPI_TOT_INS");
        const MergedEvent* calls = find(*table, "calls", "PAPI_TOT_INS");
        if (!sweep || !calls) {
            std::fprintf(stderr, "check_stencil_ranks: %s: no PAPI_TOT_INS of the sweep and calls regions\n", argv[a]);
            return 1;
        }
        const long ranks = static_cast<long>(table->ranks.size());
        for (long i = 0; i < ranks; ++i) {
            const long rank = table->ranks[static_cast<std::size_t>(i)];
            if (rank != i) {
                std::fprintf(stderr, "check_stencil_ranks: %s: ranks are not 0 to %ld\n", argv[a], ranks - 1);
                return 1;
            }
            const auto& s = sweep->per_rank[static_cast<std::size_t>(i)];
            const auto& c = calls->per_rank[static_cast<std::size_t>(i)];
            if (!s || !c) {
                std::fprintf(stderr, "check_stencil_ranks: %s: rank %ld has no count\n", argv[a], rank);
                return 1;
            }
            const long rows = ny / ranks + (rank < ny % ranks ? 1 : 0);
            const double points = static_cast<double>(rows * nx * sweeps);
            const double per_point = static_cast<double>(*s - *c) / points;
            if (reference == 0) reference = lowest = highest = per_point;
            lowest = std::min(lowest, per_point);
            highest = std::max(highest, per_point);
            const double off = per_point / reference - 1;
            const bool ok = off <= tolerance && off >= -tolerance;
            failed = failed || !ok;
            std::printf("%s  %ld ranks, rank %ld: %ld rows, sweep %lld - calls %lld = %lld instructions, %.4f per "
                        "owned point and sweep (%+.4f%%)%s\n",
                        ok ? "ok  " : "FAIL", ranks, rank, rows, static_cast<long long>(*s),
                        static_cast<long long>(*c), static_cast<long long>(*s - *c), per_point, off * 100,
                        ok ? "" : "  <- outside the tolerance");
        }
    }
    std::printf("instructions per owned point and sweep: %.4f to %.4f, a spread of %.4f%% (tolerance %.4f%%)\n",
                lowest, highest, (highest / lowest - 1) * 100, tolerance * 100);
    return failed ? 1 : 0;
}
