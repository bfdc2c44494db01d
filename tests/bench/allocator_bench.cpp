// Allocator speed (the target: scheduling 18 events has a median below 100 microseconds). Run with
// `make bench`; the figures are printed, not asserted, because machines are noisy.
#include <benchmark/benchmark.h>

#include "alloc/allocator.h"
#include "events/parser.h"

using namespace netburst;

namespace {

std::vector<EventRequest> parse_all(const std::vector<const char*>& names) {
    std::vector<EventRequest> out;
    for (const char* n : names) out.push_back(*parse_event(n, kDefaultModel));
    return out;
}

// One event per counter: the full PMU.
const std::vector<const char*> kEighteen = {
    "BPU_fetch_request", "ITLB_reference:MISS", "page_walk_type:DTMISS", "MOB_load_replay:NO_STA",
    "tc_ms_xfer", "TC_misc", "retired_branch_type:CONDITIONAL", "retired_mispred_branch_type:CONDITIONAL",
    "x87_FP_uop", "packed_DP_uop", "memory_cancel:64K_CONF", "load_port_replay",
    "instr_retired:NBOGUSNTAG", "uops_retired:NBOGUS", "branch_retired:MMTM", "branch_retired:MMNM",
    "resource_stall", "instr_retired:NBOGUSNTAG:thr=1"};

// Eighteen requests with tagging metrics, some of which cannot fit: measures the refusal and its explanation.
const std::vector<const char*> kEighteenConflicting = {
    "x87_FP_retired", "packed_SP_retired", "scalar_DP_retired", "1stL_cache_load_miss_retired", "memory_loads",
    "branch_retired:MMTM", "instr_retired:NBOGUSNTAG", "uops_retired:NBOGUS", "mispred_branch_retired",
    "BPU_fetch_request", "ITLB_reference:MISS", "page_walk_type:DTMISS", "tc_ms_xfer", "TC_misc",
    "BSQ_cache_reference:RD_2ndL_MISS", "IOQ_allocation:ALL_READ", "global_power_events", "resource_stall"};

void BM_ScheduleEighteenEvents(benchmark::State& state) {
    const auto requests = parse_all(kEighteen);
    const AllocContext ctx;
    for (auto _ : state) {
        auto s = schedule_events(requests, ctx);
        benchmark::DoNotOptimize(s);
        if (!s.ok()) state.SkipWithError("the eighteen-event set must schedule");
    }
}
BENCHMARK(BM_ScheduleEighteenEvents)->Repetitions(10)->ReportAggregatesOnly(true);

void BM_RefuseEighteenWithExplanation(benchmark::State& state) {
    const auto requests = parse_all(kEighteenConflicting);
    const AllocContext ctx;
    for (auto _ : state) {
        auto s = schedule_events(requests, ctx);
        benchmark::DoNotOptimize(s);
        if (s.ok()) state.SkipWithError("the conflicting set must be refused");
    }
}
BENCHMARK(BM_RefuseEighteenWithExplanation)->Repetitions(10)->ReportAggregatesOnly(true);

void BM_ParseEventString(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(parse_event("execution_event:NBOGUS0:BOGUS3:cmpl:thr=3:e", 2));
}
BENCHMARK(BM_ParseEventString);

}  // namespace

BENCHMARK_MAIN();
