// The emulator's tiers as software sees them (only through MSRs): counters of functional events read the same
// whether the emulator ran its functional tier (nothing needed cycles) or was made to run its timing tier by one
// more counter that counts cycles, on every trace of the corpus, and when the timing counter is switched on and
// off in the middle of a run. Events are programmed the way the PAPI component programs them (the table's parser,
// allocator and encoder).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "alloc/allocator.h"
#include "emulator/emulator.h"
#include "encode/program.h"
#include "events/parser.h"
#include "table/msr_map.h"
#include "tests/emulator/tier_corpus.h"

namespace netburst::emu::test {
namespace {

struct Programmed {
    std::vector<std::vector<unsigned>> counters;  // per logical processor, per event: the counter to read
    std::vector<std::vector<MsrWrite>> writes;    // per logical processor
};

// Schedules `events` on logical processor `only` (or on every logical processor of the trace's machine); false
// when they do not fit together. Counters of a logical processor not programmed read as 0.
bool schedule(const CorpusTrace& trace, const std::vector<std::string>& events, Programmed* out, int only = -1) {
    Occupancy sibling;
    for (unsigned t = 0; t < trace.machine.logical_processors(); ++t) {
        if (only >= 0 && static_cast<unsigned>(only) != t) {
            out->writes.emplace_back();
            out->counters.emplace_back();
            continue;
        }
        std::vector<EventRequest> requests;
        for (const std::string& text : events) {
            auto r = parse_event(text, trace.machine.model);
            if (!r) return false;
            requests.push_back(*r);
        }
        AllocContext ctx;
        ctx.model = trace.machine.model;
        ctx.hyper_threading = trace.machine.hyper_threading;
        ctx.thread = t;
        ctx.sibling = sibling;
        auto s = schedule_events(requests, ctx);
        if (!s) return false;
        sibling = s->as_occupancy();
        out->writes.push_back(start_writes(*s));
        std::vector<unsigned> counters;
        for (const ScheduledRequest& r : s->requests) counters.push_back(static_cast<unsigned>(r.result_counter));
        out->counters.push_back(counters);
    }
    return true;
}

struct RunResult {
    std::vector<std::uint64_t> values;  // per logical processor, per event, in order
    std::uint64_t timed = 0;            // instructions the timing tier ran
    std::uint64_t instructions = 0;
};

std::unique_ptr<Emulator> make_emulator(const CorpusTrace& trace, bool force_timing) {
    std::unique_ptr<Emulator> emu(new Emulator);
    EmulatorConfig c;
    c.machine = trace.machine;
    c.force_timing = force_timing;
    emu->reset(c);
    return emu;
}

RunResult run(const CorpusTrace& trace, const Programmed& p, bool force_timing) {
    auto emu = make_emulator(trace, force_timing);
    for (unsigned t = 0; t < p.writes.size(); ++t)
        for (const MsrWrite& w : p.writes[t]) EXPECT_EQ(emu->write_msr(t, w.msr, w.value), MsrResult::Ok);
    for (const Instruction& insn : trace.insns) emu->execute(insn);
    emu->finish();
    RunResult r;
    for (unsigned t = 0; t < p.counters.size(); ++t) {
        for (unsigned c : p.counters[t]) {
            std::uint64_t v = 0;
            EXPECT_EQ(emu->read_pmc(t, c, &v), MsrResult::Ok);
            EXPECT_FALSE(emu->counter_unsupported(c));
            r.values.push_back(v);
        }
    }
    r.timed = emu->timed_instructions();
    r.instructions = trace.insns.size();
    return r;
}

// Groups of functional events that fit on the PMU together, between them every functional event kind the core
// emits and every replay-tagging cause the functional tier knows, at both privilege levels.
const std::vector<std::vector<std::string>>& functional_groups() {
    static const std::vector<std::vector<std::string>> groups = {
        {"instr_retired:NBOGUSNTAG:NBOGUSTAG", "mispred_branch_retired:BOGUS", "1stL_cache_load_miss_retired",
         "BSQ_cache_reference:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS:WR_2ndL_HIT:WR_2ndL_MISS",
         "uop_queue_writes:FROM_TC_BUILD:FROM_ROM"},
        {"uops_retired:NBOGUS", "branch_retired:MMTP:MMTM:MMNP:MMNM", "2ndL_cache_load_miss_retired",
         "page_walk_type:DTMISS:ITMISS", "tc_ms_xfer:CISC"},
        {"ITLB_reference:HIT:MISS", "memory_loads", "DTLB_load_miss_retired",
         "IOQ_allocation:ALL_READ:ALL_WRITE:PREFETCH"},
        {"TC_misc:FLUSH", "memory_stores", "split_load_retired", "BSQ_allocation:REQ_DEM_TYPE:REQ_TYPE0:REQ_TYPE1",
         "memory_complete:LSC:SSC"},
        {"retired_branch_type:CONDITIONAL:CALL:RETURN:INDIRECT:UNCONDITIONAL", "split_store_retired",
         "load_port_replay:SPLIT_LD", "BPU_fetch_request:TCMISS"},
        {"retired_mispred_branch_type:CONDITIONAL:INDIRECT", "machine_clear:SMCLEAR", "DTLB_store_miss_retired",
         "store_port_replay:SPLIT_ST"},
        {"instr_retired:NBOGUSNTAG:NBOGUSTAG:k", "branch_retired:MMTP:MMNP:u", "BSQ_cache_reference:RD_2ndL_HITE:k",
         "DTLB_all_miss_retired"},
    };
    return groups;
}

// One more event that counts cycles: with it the emulator must run its timing tier.
const char* const kTimingEvents[] = {"global_power_events:RUNNING", "TC_deliver_mode:DD:DI:BD:BI:ID:IB",
                                     "resource_stall:SBFULL", "x87_FP_uop:ALL"};

TEST(EmulatorTier, FunctionalCountersReadTheSameInEitherTier) {
    for (const CorpusTrace& trace : tier_corpus()) {
        // With two logical processors a group does not fit on both at once: it is counted on each in turn.
        const int first = trace.machine.hyper_threading ? 0 : -1, last = trace.machine.hyper_threading ? 1 : -1;
        for (int lp = first; lp <= last; ++lp) {
            for (const std::vector<std::string>& group : functional_groups()) {
                SCOPED_TRACE(trace.name + ": " + group[0] + " LP " + std::to_string(lp));
                Programmed functional;
                ASSERT_TRUE(schedule(trace, group, &functional, lp)) << "the group does not fit";
                Programmed timed;
                bool placed = false;
                for (const char* extra : kTimingEvents) {
                    std::vector<std::string> with = group;
                    with.push_back(extra);
                    timed = Programmed{};
                    if (schedule(trace, with, &timed, lp)) {
                        placed = true;
                        break;
                    }
                }
                ASSERT_TRUE(placed) << "no timing event fits beside the group";
                const RunResult f = run(trace, functional, false);
                const RunResult t = run(trace, timed, false);
                EXPECT_EQ(f.timed, 0u) << "the functional events alone should need no timing";
                EXPECT_EQ(t.timed, t.instructions) << "a cycle counter should need the timing tier";
                // The timed run's values include the extra event's, last on each programmed logical processor.
                ASSERT_EQ(t.values.size(), f.values.size() + f.values.size() / group.size());
                std::size_t k = 0;
                for (std::size_t i = 0; i < f.values.size(); ++i) {
                    EXPECT_EQ(f.values[i], t.values[k++]) << group[i % group.size()];
                    if (i % group.size() + 1 == group.size()) ++k;
                }
                bool nonzero = false;
                for (std::uint64_t v : f.values) nonzero = nonzero || v != 0;
                EXPECT_TRUE(nonzero) << "the group counted nothing on this trace";
            }
        }
    }
}

// A cycle counter enabled in the middle of a run and disabled later: functional counts are exact across the
// switches, and the cycle counter covers exactly the cycles simulated while it counted (time advances only in
// the timing tier).
TEST(EmulatorTier, SwitchingTiersMidRunKeepsCountsExact) {
    for (const CorpusTrace& trace : tier_corpus()) {
        if (trace.machine.hyper_threading) continue;  // one logical processor is enough here
        SCOPED_TRACE(trace.name);
        const std::vector<std::string>& group = functional_groups()[0];
        std::vector<std::string> with = group;
        with.push_back("global_power_events:RUNNING");
        Programmed p;
        ASSERT_TRUE(schedule(trace, with, &p));
        const unsigned cycles_counter = p.counters[0].back();
        const std::uint32_t cccr = kCounters[cycles_counter].cccr_msr;
        std::uint64_t cccr_on = 0;
        for (const MsrWrite& w : p.writes[0])
            if (w.msr == cccr) cccr_on = w.value;
        ASSERT_NE(cccr_on, 0u);
        const std::uint64_t cccr_off = cccr_on & ~(std::uint64_t{1} << kCccrEnableBit);

        auto emu = make_emulator(trace, false);
        for (const MsrWrite& w : p.writes[0]) ASSERT_EQ(emu->write_msr(0, w.msr, w.value), MsrResult::Ok);
        ASSERT_EQ(emu->write_msr(0, cccr, cccr_off), MsrResult::Ok);
        EXPECT_FALSE(emu->timing());
        const std::size_t n = trace.insns.size();
        Cycle on = 0, off = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i == n / 3) {
                ASSERT_EQ(emu->write_msr(0, cccr, cccr_on), MsrResult::Ok);
                EXPECT_TRUE(emu->timing());
                on = emu->now();
            }
            if (i == 2 * n / 3) {
                ASSERT_EQ(emu->write_msr(0, cccr, cccr_off), MsrResult::Ok);
                EXPECT_FALSE(emu->timing());
                off = emu->now();
            }
            emu->execute(trace.insns[i]);
        }
        emu->finish();
        std::uint64_t cycles = 0;
        ASSERT_EQ(emu->read_pmc(0, cycles_counter, &cycles), MsrResult::Ok);
        EXPECT_GT(off, on);
        // (Cycle 0 itself is counted when the timing tier starts from the very beginning.)
        EXPECT_GE(cycles, off - on) << "RUNNING counts the cycles simulated while it was enabled";
        EXPECT_LE(cycles, off - on + 1) << "RUNNING counts the cycles simulated while it was enabled";
        EXPECT_EQ(emu->now(), off) << "no cycle passes in the functional tier";

        // The same events in the timing tier throughout.
        const RunResult all = run(trace, p, true);
        for (std::size_t e = 0; e < group.size(); ++e) {
            std::uint64_t v = 0;
            ASSERT_EQ(emu->read_pmc(0, p.counters[0][e], &v), MsrResult::Ok);
            EXPECT_EQ(v, all.values[e]) << group[e];
        }
    }
}

// Two instruction streams whose order the emulator chooses by their timing: that order is timing, so the
// emulator runs its timing tier from the first such choice.
TEST(EmulatorTier, ChoosingBetweenTwoStreamsNeedsTiming) {
    CorpusTrace trace;
    trace.machine.hyper_threading = true;
    auto emu = make_emulator(trace, false);
    EXPECT_FALSE(emu->timing());
    (void)emu->next_thread(true, false);
    EXPECT_FALSE(emu->timing());
    (void)emu->next_thread(true, true);
    EXPECT_TRUE(emu->timing());
}

}  // namespace
}  // namespace netburst::emu::test
