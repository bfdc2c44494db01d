// PMU feed speed: nanoseconds per Outcome for typical instructions (1-3 uops, two or three detector events and
// one cycles interval), with no counter; with three plain counters (instructions, cycles, branches: PAPI_TOT_INS,
// PAPI_TOT_CYC and one more); with four (plus uops); with four plus front-end and replay tagging; and with four
// plus a counter that compares against a threshold (per-cycle evaluation). `make bench` prints the figures; they are not asserted,
// because machines are noisy.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "emulator/pmu/pmu.h"
#include "table/metrics.h"
#include "table/registers.h"

using namespace netburst;
using namespace netburst::emu;

namespace {

// The core hands the PMU an Outcome it has just written, so the outcome is in the L1 cache: a small batch, moved
// forward in time after each pass (BM_RebaseOnly measures that part, which the other figures include; subtract it).
constexpr unsigned kBatch = 4;

std::uint32_t escr_msr(const char* name) { return kEscrs[escr_index(find_escr(name))].msr; }

std::uint64_t escr(EventId id, std::uint16_t mask, unsigned tag = 0) {
    EscrFields f;
    f.t0_usr = f.t0_os = true;
    f.event_select = event_def(id).event_select;
    f.event_mask = mask;
    f.tag_enable = tag != 0;
    f.tag_value = static_cast<std::uint8_t>(tag);
    return encode_escr(f);
}

std::uint64_t cccr(EventId id, bool compare = false, unsigned threshold = 0) {
    CccrFields f;
    f.enable = true;
    f.escr_select = event_def(id).cccr_select;
    f.compare = compare;
    f.threshold = static_cast<std::uint8_t>(threshold);
    return encode_cccr(f);
}

// A batch of instructions one after the other: 1, 2, 3, 2 uops; an ITLB hit and a uop-queue write each; a branch
// every fourth; the cycles between two retirements as a global_power_events interval.
std::vector<Outcome> make_batch() {
    std::vector<Outcome> batch(kBatch);
    Cycle cycle = 100;
    for (unsigned i = 0; i < kBatch; ++i) {
        Outcome& o = batch[i];
        o.clear();
        o.thread = 0;
        o.cpl = 3;
        o.pc = 0x400000 + 4 * i;
        o.fetch = cycle;
        const unsigned uops = 1 + (i % 4 == 2 ? 2 : i % 2);
        const Cycle retire = cycle + 2;
        for (unsigned u = 0; u < uops; ++u) {
            UopRecord* r = o.add_uop();
            r->retire = retire;
            r->kind = u == 0 && i % 3 == 0 ? UopKind::Load : UopKind::Other;
            r->last_of_instruction = u + 1 == uops;
            if (i % 5 == 0) r->replay_causes = kReplayL1LoadMiss;
        }
        o.add_event(cycle, EventId::ItlbReference, 0);
        o.add_event(cycle + 1, EventId::UopQueueWrites, 1, uops);
        if (i % 4 == 3) o.add_event(retire, EventId::BranchRetired, 0);
        o.add_interval(cycle, retire, EventId::GlobalPowerEvents, 0);
        o.retire = retire;
        o.frontier = cycle + 1;
        cycle = retire;
    }
    return batch;
}

void rebase(std::vector<Outcome>& batch, Cycle delta) {
    for (Outcome& o : batch) {
        o.fetch += delta;
        o.retire += delta;
        o.frontier += delta;
        for (unsigned u = 0; u < o.num_uops; ++u) o.uops[u].retire += delta;
        for (unsigned e = 0; e < o.num_events; ++e) o.events[e].cycle += delta;
        for (unsigned v = 0; v < o.num_intervals; ++v) {
            o.intervals[v].begin += delta;
            o.intervals[v].end += delta;
        }
    }
}

enum class Setup { None, ThreePlain, FourPlain, Tagging, Threshold };

void program(Pmu& pmu, Setup setup) {
    auto w = [&](std::uint32_t msr, std::uint64_t v) { pmu.write_msr(0, msr, v, 0); };
    if (setup == Setup::None) return;
    w(escr_msr("CRU_ESCR0"), escr(EventId::InstrRetired, 1));          // NBOGUSNTAG
    w(0x360 + 12, cccr(EventId::InstrRetired));
    if (setup != Setup::ThreePlain) {
        w(escr_msr("CRU_ESCR1"), escr(EventId::UopsRetired, 1));       // NBOGUS
        w(0x360 + 14, cccr(EventId::UopsRetired));
    }
    w(escr_msr("CRU_ESCR2"), escr(EventId::BranchRetired, 0xF));
    w(0x360 + 13, cccr(EventId::BranchRetired));
    w(escr_msr("FSB_ESCR0"), escr(EventId::GlobalPowerEvents, 1));     // RUNNING
    w(0x360 + 0, cccr(EventId::GlobalPowerEvents));
    if (setup == Setup::Tagging) {
        // memory_loads (front-end) and 1stL_cache_load_miss_retired (replay) on top.
        w(escr_msr("RAT_ESCR1"), escr(EventId::UopType, 1u << 1));
        w(0x360 + 15, cccr(EventId::UopType));
        w(escr_msr("CRU_ESCR3"), escr(EventId::ReplayEvent, 1));
        w(0x360 + 17, cccr(EventId::ReplayEvent));
        const MetricDef& m = metric_def(MetricId::L1LoadMissRetired);
        w(kMsrPebsEnable, m.pebs_enable);
        w(kMsrPebsMatrixVert, m.matrix_vert);
        w(escr_msr("ITLB_ESCR0"), escr(EventId::ItlbReference, 1));
        w(0x360 + 1, cccr(EventId::ItlbReference));
    }
    if (setup == Setup::Threshold) {
        // Cycles in which at least two uops are written to the uop queue: every cycle is evaluated.
        w(escr_msr("MS_ESCR0"), escr(EventId::UopQueueWrites, 0x7));
        w(0x360 + 4, cccr(EventId::UopQueueWrites, true, 1));
    }
}

void BM_Consume(benchmark::State& state, Setup setup) {
    auto pmu = std::make_unique<Pmu>();
    pmu->reset(PmuConfig{});
    program(*pmu, setup);
    std::vector<Outcome> batch = make_batch();
    const Cycle span = batch.back().retire - batch.front().fetch + 2;
    std::uint64_t outcomes = 0;
    for (auto _ : state) {
        for (const Outcome& o : batch) pmu->consume(o);
        outcomes += kBatch;
        rebase(batch, span);
    }
    std::uint64_t v = 0;
    pmu->read_msr(0, 0x300 + 12, &v, batch.back().retire);
    benchmark::DoNotOptimize(v);
    // Seconds per outcome, scaled so that the printed number is nanoseconds.
    state.counters["ns_per_outcome"] = benchmark::Counter(
        static_cast<double>(outcomes) / 1e9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_RebaseOnly(benchmark::State& state) {
    std::vector<Outcome> batch = make_batch();
    const Cycle span = batch.back().retire - batch.front().fetch + 2;
    std::uint64_t outcomes = 0;
    for (auto _ : state) {
        rebase(batch, span);
        benchmark::ClobberMemory();
        outcomes += kBatch;
    }
    state.counters["ns_per_outcome"] = benchmark::Counter(
        static_cast<double>(outcomes) / 1e9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_RebaseOnly);
BENCHMARK_CAPTURE(BM_Consume, no_counters, Setup::None);
BENCHMARK_CAPTURE(BM_Consume, three_plain_counters, Setup::ThreePlain);
BENCHMARK_CAPTURE(BM_Consume, four_plain_counters, Setup::FourPlain);
BENCHMARK_CAPTURE(BM_Consume, plain_plus_tagging, Setup::Tagging);
BENCHMARK_CAPTURE(BM_Consume, plain_plus_threshold, Setup::Threshold);

BENCHMARK_MAIN();
