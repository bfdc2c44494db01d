// netburst-run record's event planning: the precise modifier, the counter and register values armed for IEBS and
// for PEBS (IQ_COUNTER4, ENABLE_PEBS, the DS area), the exact-count twin, several events in one recording, and the
// errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emulator/run/sample_plan.h"
#include "events/parser.h"
#include "table/msr_map.h"
#include "table/registers.h"

using namespace netburst;
using namespace netburst::emu;
using namespace netburst::emu::run;

namespace {

SampleOptions options(std::uint64_t period) {
    SampleOptions o;
    o.period = period;
    return o;
}

// `program` written to its file's text and read back (the text goes to *text for messages).
vg::EventProgram round_trip(const vg::EventProgram& program, std::string* text) {
    char buffer[1 << 14];
    const std::size_t n = vg::format_event_program(program, buffer, sizeof buffer);
    EXPECT_GT(n, 0u);
    text->assign(buffer, n);
    vg::EventProgram back;
    unsigned line = 0;
    EXPECT_EQ(vg::parse_event_program(buffer, n, &back, &line), nullptr) << *text;
    return back;
}

// The value PMU `pmu`'s program writes to `msr` (the last write), or false.
bool written(const vg::EventProgram& p, unsigned pmu, std::uint32_t msr, std::uint64_t* value, unsigned* index = nullptr) {
    bool found = false;
    for (unsigned i = 0; i < p.num_writes[0]; ++i)
        if (p.writes[0][i].pmu == pmu && p.writes[0][i].msr == msr) {
            *value = p.writes[0][i].value;
            if (index) *index = i;
            found = true;
        }
    return found;
}

TEST(SamplePlan, LibpfmAndPerfSpellingsOfThePreciseLevel) {
    struct Case {
        const char* text;
        bool pebs;
        unsigned level;
    };
    for (const Case& c : {Case{"1stL_cache_load_miss_retired:precise=2", true, 2},
                          Case{"memory_loads:u:pp", true, 2},
                          Case{"netburst::replay_event:L1_LD_MISS:NBOGUS:p", true, 1},
                          Case{"PAPI_L1_DCM:ppp", true, 3},
                          Case{"instr_retired:NBOGUSNTAG", false, 0},
                          Case{"1stL_cache_load_miss_retired:precise=0", false, 0}}) {
        auto plan = plan_sampling(c.text, options(1000));
        ASSERT_TRUE(plan.ok()) << c.text << ": " << plan.error().message;
        EXPECT_EQ(plan->program.sample.events[0].pebs, c.pebs) << c.text;
        EXPECT_EQ(plan->events[0].precise_level, c.level) << c.text;
        if (c.pebs) {
            EXPECT_EQ(plan->counters[0], 16u) << c.text;
        }
    }
    EXPECT_FALSE(plan_sampling("1stL_cache_load_miss_retired:precise=4", options(1000)).ok());
    EXPECT_FALSE(plan_sampling("1stL_cache_load_miss_retired:precise=", options(1000)).ok());
    EXPECT_FALSE(plan_sampling("1stL_cache_load_miss_retired:p:precise=1", options(1000)).ok());
    EXPECT_FALSE(plan_sampling("1stL_cache_load_miss_retired:p=1", options(1000)).ok());
}

// -F: samples a second of the emulated clock (the model's nominal frequency: 2.80 GHz on model 2, 3.20 GHz on
// model 4), turned into a fixed period for the one event that counts every cycle, in any privilege mode.
TEST(SamplePlan, FrequencyIsAPeriodOfTheEmulatedClockForCyclesOnly) {
    SampleOptions o;
    o.frequency = 1000;
    auto plan = plan_sampling("PAPI_TOT_CYC", o);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->program.sample.events[0].period, 2800000u);
    EXPECT_EQ(plan->events[0].period, 2800000u);
    EXPECT_EQ(plan->events[0].frequency, 1000u);
    std::uint64_t value = 0;
    ASSERT_TRUE(written(plan->program, 0, kCounters[plan->counters[0]].counter_msr, &value));
    EXPECT_EQ(value, (std::uint64_t{1} << 40) - 2800000u);

    o.machine.model = 4;
    o.frequency = 3;  // rounded to the nearest cycle
    plan = plan_sampling("global_power_events:RUNNING:u", o);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->program.sample.events[0].period, 1066666667u);

    // Neither -c nor -F: cycles at perf record's 4000 a second, anything else every 100000 events.
    plan = plan_sampling("PAPI_TOT_CYC", SampleOptions{});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->program.sample.events[0].period, 700000u);
    EXPECT_EQ(plan->events[0].frequency, kDefaultFrequency);
    plan = plan_sampling("instr_retired:NBOGUSNTAG", SampleOptions{});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->program.sample.events[0].period, kDefaultPeriod);
    EXPECT_EQ(plan->events[0].frequency, 0u);
    // -c on cycles is a period, not a frequency.
    plan = plan_sampling("PAPI_TOT_CYC", options(5000));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->program.sample.events[0].period, 5000u);
    EXPECT_EQ(plan->events[0].frequency, 0u);
}

TEST(SamplePlan, FrequencyErrorsSayWhatToDo) {
    SampleOptions o;
    o.frequency = 100;
    auto plan = plan_sampling("instr_retired:NBOGUSNTAG", o);
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.error().message.find("give a period with -c"), std::string::npos) << plan.error().message;
    o.period = 1000;
    plan = plan_sampling("PAPI_TOT_CYC", o);
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.error().message.find("-c or -F"), std::string::npos) << plan.error().message;
    o.period = 0;
    o.frequency = 2000000000;
    plan = plan_sampling("PAPI_TOT_CYC", o);
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.error().message.find("2800 MHz"), std::string::npos) << plan.error().message;
}

TEST(SamplePlan, IebsArmsTheOverflowInterrupt) {
    const std::uint64_t period = 12345;
    auto plan = plan_sampling("1stL_cache_load_miss_retired", options(period));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    const vg::EventProgram& p = plan->program;
    EXPECT_TRUE(p.sample.enabled);
    EXPECT_FALSE(p.sample.events[0].pebs);
    EXPECT_EQ(p.sample.events[0].period, period);
    EXPECT_EQ(p.sample.events[0].counter, plan->counters[0]);
    std::uint64_t value = 0, cccr = 0;
    ASSERT_TRUE(written(p, 0, kCounters[plan->counters[0]].counter_msr, &value));
    EXPECT_EQ(value, (std::uint64_t{1} << 40) - period);  // the PERIOD-th event wraps the 40-bit counter
    ASSERT_TRUE(written(p, 0, kCounters[plan->counters[0]].cccr_msr, &cccr));
    const CccrFields f = decode_cccr(cccr);
    EXPECT_TRUE(f.enable);
    EXPECT_TRUE(f.ovf_pmi_t0);
    EXPECT_FALSE(f.ovf_pmi_t1);
    EXPECT_FALSE(written(p, 0, kMsrDsArea, &value));  // no PEBS
    // The exact twin: PMU 1, the event of the results file, plain (no interrupt).
    EXPECT_EQ(p.num_pmus, 2u);
    EXPECT_EQ(p.sample.exact_pmu, 1u);
    ASSERT_EQ(p.num_events, 1u);
    EXPECT_EQ(p.events[0].pmu, 1u);
    EXPECT_EQ(p.events[0].counter, p.sample.events[0].exact_counter);
    ASSERT_TRUE(written(p, 1, kCounters[p.sample.events[0].exact_counter].cccr_msr, &cccr));
    EXPECT_FALSE(decode_cccr(cccr).ovf_pmi_t0);
    // User mode unless the event says otherwise; perf's raw config packs the ESCR above the CCCR.
    EXPECT_TRUE(plan->events[0].user_only);
    const EscrFields escr = decode_escr(plan->events[0].raw_config >> 32);
    EXPECT_TRUE(escr.t0_usr);
    EXPECT_FALSE(escr.t0_os);
    EXPECT_TRUE(decode_cccr(plan->events[0].raw_config & 0xFFFFFFFFu).ovf_pmi_t0);
    EXPECT_FALSE(plan->events[0].precise);
    EXPECT_TRUE(plan->events[0].data_source.load);
}

TEST(SamplePlan, ExplicitPrivilegeIsKept) {
    auto plan = plan_sampling("1stL_cache_load_miss_retired:u:k", options(1000));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_FALSE(plan->events[0].user_only);
    const EscrFields escr = decode_escr(plan->events[0].raw_config >> 32);
    EXPECT_TRUE(escr.t0_usr && escr.t0_os);
}

TEST(SamplePlan, PebsGoesOnIqCounter4WithTheDsArea) {
    const std::uint64_t period = 1000;
    auto plan = plan_sampling("1stL_cache_load_miss_retired:precise=2", options(period));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    const vg::EventProgram& p = plan->program;
    EXPECT_TRUE(p.sample.events[0].pebs);
    EXPECT_EQ(plan->counters[0], 16u);
    std::uint64_t value = 0, pebs_enable = 0, cccr = 0;
    unsigned ds_at = 0, cccr_at = 0;
    ASSERT_TRUE(written(p, 0, kMsrDsArea, &value, &ds_at));
    EXPECT_EQ(value, vg::kSampleDsArea);
    ASSERT_TRUE(written(p, 0, kCounters[16].cccr_msr, &cccr, &cccr_at));
    EXPECT_LT(ds_at, cccr_at);  // the DS area is set up before the counter starts
    EXPECT_FALSE(decode_cccr(cccr).ovf_pmi_t0);  // PEBS interrupts only at the buffer's threshold
    ASSERT_TRUE(written(p, 0, kMsrPebsEnable, &pebs_enable));
    EXPECT_TRUE(pebs_enable & (1u << kPebsEnableMyThreadBit));
    EXPECT_TRUE(pebs_enable & (1u << kPebsEnableUopTagBit));
    EXPECT_TRUE(pebs_enable & 1u);  // the metric's replay select: L1 load miss
    ASSERT_TRUE(written(p, 0, kCounters[16].counter_msr, &value));
    EXPECT_EQ(value, (std::uint64_t{1} << 40) - (period - 1));  // overflow one event before the sampled one
    EXPECT_TRUE(plan->events[0].precise);
    EXPECT_EQ(plan->events[0].precise_level, 2u);
    // The exact twin counts without PEBS.
    ASSERT_TRUE(written(p, 1, kMsrPebsEnable, &pebs_enable));
    EXPECT_FALSE(pebs_enable & (1u << kPebsEnableMyThreadBit));
}

TEST(SamplePlan, EveryAtRetirementMetricCanDrivePebs) {
    const std::vector<std::string> names = pebs_metric_names();
    EXPECT_EQ(names.size(), static_cast<std::size_t>(kNumMetrics));
    for (const std::string& name : names) {
        auto plan = plan_sampling(name + ":precise=1", options(100));
        ASSERT_TRUE(plan.ok()) << name << ": " << plan.error().message;
        EXPECT_EQ(plan->counters[0], 16u) << name;
        std::uint64_t pebs_enable = 0;
        ASSERT_TRUE(written(plan->program, 0, kMsrPebsEnable, &pebs_enable)) << name;
        EXPECT_TRUE(pebs_enable & (1u << kPebsEnableMyThreadBit)) << name;
    }
}

TEST(SamplePlan, AnEventThatCannotDrivePebsNamesThoseThatCan) {
    auto plan = plan_sampling("mispred_branch_retired:NBOGUS:precise=1", options(1000));
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.error().message.find("cannot drive PEBS"), std::string::npos) << plan.error().message;
    EXPECT_NE(plan.error().message.find("1stL_cache_load_miss_retired"), std::string::npos);
    EXPECT_NE(plan.error().message.find("Tagged_mispred_branch"), std::string::npos);
    // The same event samples by its overflow interrupt.
    EXPECT_TRUE(plan_sampling("mispred_branch_retired:NBOGUS", options(1000)).ok());
}

TEST(SamplePlan, UnknownNamesGetSuggestions) {
    auto plan = plan_sampling("1stL_cache_load_mis_retired:precise=1", options(1000));
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.error().message.find("1stL_cache_load_miss_retired"), std::string::npos) << plan.error().message;
    auto preset = plan_sampling("PAPI_L1_DCN", options(1000));
    ASSERT_FALSE(preset.ok());
    EXPECT_NE(preset.error().message.find("PAPI_L1_DCM"), std::string::npos) << preset.error().message;
}

TEST(SamplePlan, DerivedPresetsAndBadPeriodsAreRefused) {
    std::string derived;
    for (const PresetDef& p : presets_for(false, FpVariant::Sse))
        if (p.terms.size() > 1) derived = p.name;
    ASSERT_FALSE(derived.empty());
    auto plan = plan_sampling(derived, options(1000));
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.error().message.find("sample one of them"), std::string::npos) << plan.error().message;
    auto unset = plan_sampling("1stL_cache_load_miss_retired", options(0));  // 0: no -c, the default period
    ASSERT_TRUE(unset.ok()) << unset.error().message;
    EXPECT_EQ(unset->program.sample.events[0].period, kDefaultPeriod);
    EXPECT_FALSE(plan_sampling("1stL_cache_load_miss_retired:p", options(1)).ok());
    EXPECT_TRUE(plan_sampling("1stL_cache_load_miss_retired:p", options(2)).ok());
    EXPECT_FALSE(plan_sampling("1stL_cache_load_miss_retired", options(vg::kMaxSamplePeriod + 1)).ok());
    EXPECT_FALSE(plan_sampling("1stL_cache_load_miss_retired:thr=1:precise=1", options(100)).ok());
}

TEST(SamplePlan, TheProgramRoundTripsThroughItsFile) {
    auto plan = plan_sampling("memory_loads:precise=1", options(777));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    std::string text;
    vg::EventProgram back = round_trip(plan->program, &text);
    unsigned line = 0;
    EXPECT_TRUE(back.sample.enabled);
    ASSERT_EQ(back.sample.num_events, 1u);
    EXPECT_TRUE(back.sample.events[0].pebs);
    EXPECT_EQ(back.sample.events[0].counter, 16u);
    EXPECT_EQ(back.sample.events[0].period, 777u);
    EXPECT_EQ(back.sample.exact_pmu, 1u);
    EXPECT_EQ(back.sample.events[0].exact_counter, plan->program.sample.events[0].exact_counter);
    EXPECT_EQ(back.num_writes[0], plan->program.num_writes[0]);
    const char bad[] = "netburst-program 1\nsample pebs 16 1 1 12\n";  // PEBS needs a period of 2 or more
    EXPECT_NE(vg::parse_event_program(bad, sizeof bad - 1, &back, &line), nullptr);
    const char kind[] = "netburst-program 1\nsample precise 16 100 1 12\n";
    EXPECT_NE(vg::parse_event_program(kind, sizeof kind - 1, &back, &line), nullptr);
}

TEST(SamplePlan, CallChainsReachTheToolOnlyWhenAskedFor) {
    for (const bool g : {false, true}) {
        SampleOptions o = options(1000);
        o.callchain = g;
        auto plan = plan_sampling("1stL_cache_load_miss_retired", o);
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        EXPECT_EQ(plan->events[0].callchain, g);
        std::string text;
        EXPECT_EQ(round_trip(plan->program, &text).sample.callchain, g) << text;
    }
    vg::EventProgram back;
    unsigned line = 0;
    const char unknown[] = "netburst-program 1\nsample iebs 12 100 1 13 callgraph\n";
    EXPECT_NE(vg::parse_event_program(unknown, sizeof unknown - 1, &back, &line), nullptr);
    const char trailing[] = "netburst-program 1\nsample iebs 12 100 1 13 callchain 1\n";
    EXPECT_NE(vg::parse_event_program(trailing, sizeof trailing - 1, &back, &line), nullptr);
}

TEST(SamplePlan, CallEdgesReachTheToolOnlyWhenAskedFor) {
    for (const bool g : {false, true})
        for (const bool edges : {false, true}) {
            SampleOptions o = options(1000);
            o.callchain = g;
            o.call_edges = edges;
            auto plan = plan_sampling("1stL_cache_load_miss_retired", o);
            ASSERT_TRUE(plan.ok()) << plan.error().message;
            std::string text;
            const vg::EventProgram back = round_trip(plan->program, &text);
            EXPECT_EQ(back.sample.call_edges, edges) << text;
            EXPECT_EQ(back.sample.callchain, g) << text;
        }
    vg::EventProgram back;
    unsigned line = 0;
    const char either_order[] = "netburst-program 1\nsample iebs 12 100 1 13 calledges callchain\n";
    ASSERT_EQ(vg::parse_event_program(either_order, sizeof either_order - 1, &back, &line), nullptr);
    EXPECT_TRUE(back.sample.call_edges);
    EXPECT_TRUE(back.sample.callchain);
}

// Several -e: one PMU, a counter each, each armed on its own (IEBS: its start value and OVF_PMI_T0; PEBS on
// IQ_COUNTER4), the exact twins on PMU 1 on the same counters, and the program's sample lines in -e order.
TEST(SamplePlan, SeveralEventsEachGetTheirOwnArmedCounter) {
    auto plan = plan_sampling(std::vector<std::string>{"PAPI_TOT_CYC", "1stL_cache_load_miss_retired:precise=1",
                                                       "branch_retired:MMTP"},
                              options(5003));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->events.size(), 3u);
    ASSERT_EQ(plan->counters.size(), 3u);
    EXPECT_EQ(plan->counters[1], 16u);
    EXPECT_NE(plan->counters[0], plan->counters[2]);
    const vg::EventProgram& p = plan->program;
    ASSERT_EQ(p.sample.num_events, 3u);
    EXPECT_EQ(p.sample.pebs_event(), 1);
    ASSERT_EQ(p.num_events, 3u);
    for (unsigned i = 0; i < 3; ++i) {
        const unsigned counter = plan->counters[i];
        EXPECT_EQ(p.sample.events[i].counter, counter);
        EXPECT_EQ(p.sample.events[i].exact_counter, counter);
        EXPECT_EQ(p.sample.events[i].period, 5003u);
        EXPECT_EQ(p.events[i].index, i);
        EXPECT_EQ(p.events[i].pmu, 1u);
        EXPECT_EQ(p.events[i].counter, counter);
        std::uint64_t value = 0, cccr = 0, plain = 0;
        ASSERT_TRUE(written(p, 0, kCounters[counter].counter_msr, &value)) << i;
        ASSERT_TRUE(written(p, 0, kCounters[counter].cccr_msr, &cccr)) << i;
        ASSERT_TRUE(written(p, 1, kCounters[counter].cccr_msr, &plain)) << i;
        EXPECT_FALSE(decode_cccr(plain).ovf_pmi_t0) << "the exact twin raises no interrupt";
        EXPECT_EQ(plan->events[i].raw_config & 0xFFFFFFFFu, cccr);
        if (i == 1) {
            EXPECT_EQ(value, vg::sample_start_value(5003, true));
            EXPECT_FALSE(decode_cccr(cccr).ovf_pmi_t0);
        } else {
            EXPECT_EQ(value, vg::sample_start_value(5003, false));
            EXPECT_TRUE(decode_cccr(cccr).ovf_pmi_t0);
        }
    }
    EXPECT_EQ(plan->events[0].name, "PAPI_TOT_CYC");
    EXPECT_TRUE(plan->events[1].precise);
    std::string text;
    const vg::EventProgram back = round_trip(p, &text);
    ASSERT_EQ(back.sample.num_events, 3u) << text;
    for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(back.sample.events[i].counter, plan->counters[i]) << text;
    EXPECT_EQ(back.sample.pebs_event(), 1) << text;
}

// The default period is each event's own: cycles at perf's frequency, the others every kDefaultPeriod events; -F
// is the cycle event's alone and is refused as soon as another event would have to take it.
TEST(SamplePlan, PeriodsOfSeveralEvents) {
    auto plan = plan_sampling(std::vector<std::string>{"PAPI_TOT_CYC", "PAPI_TOT_INS"}, SampleOptions{});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->events[0].period, 700000u);
    EXPECT_EQ(plan->events[0].frequency, kDefaultFrequency);
    EXPECT_EQ(plan->events[1].period, kDefaultPeriod);
    EXPECT_EQ(plan->events[1].frequency, 0u);
    SampleOptions f;
    f.frequency = 1000;
    auto refused = plan_sampling(std::vector<std::string>{"PAPI_TOT_CYC", "PAPI_TOT_INS"}, f);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("-F needs an event that counts cycles"), std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("instr_retired"), std::string::npos) << refused.error().message;
}

TEST(SamplePlan, ASecondPreciseEventIsRefusedNamingThePebsHardware) {
    for (const char* second : {"2ndL_cache_load_miss_retired:precise=1", "memory_loads:pp"}) {
        auto plan = plan_sampling(std::vector<std::string>{"1stL_cache_load_miss_retired:precise=1", second},
                                  options(1001));
        ASSERT_FALSE(plan.ok()) << second;
        const std::string& m = plan.error().message;
        EXPECT_NE(m.find("a second event with :precise"), std::string::npos) << m;
        EXPECT_NE(m.find("MSR_IQ_COUNTER4"), std::string::npos) << m;
        EXPECT_NE(m.find("IA32_PEBS_ENABLE"), std::string::npos) << m;
        EXPECT_NE(m.find("MSR_PEBS_MATRIX_VERT"), std::string::npos) << m;
    }
}

// Events that cannot share the PMU get the allocator's explanation, which names the resource.
TEST(SamplePlan, EventsThatDoNotFitTogetherNameTheResource) {
    auto replay = plan_sampling(
        std::vector<std::string>{"1stL_cache_load_miss_retired", "2ndL_cache_load_miss_retired"}, options(1001));
    ASSERT_FALSE(replay.ok());
    EXPECT_NE(replay.error().message.find("MSR_PEBS_MATRIX_VERT"), std::string::npos) << replay.error().message;
    EXPECT_NE(replay.error().message.find("separate runs"), std::string::npos) << replay.error().message;
    auto escr = plan_sampling(std::vector<std::string>{"branch_retired:MMTP", "branch_retired:MMNP",
                                                       "branch_retired:MMTM"},
                              options(1001));
    ASSERT_FALSE(escr.ok());
    EXPECT_NE(escr.error().message.find("MSR_CRU_ESCR2"), std::string::npos) << escr.error().message;
    std::vector<std::string> many(vg::kMaxSampledEvents + 1, "PAPI_TOT_INS");
    auto too_many = plan_sampling(many, options(1001));
    ASSERT_FALSE(too_many.ok());
    EXPECT_NE(too_many.error().message.find("at most"), std::string::npos) << too_many.error().message;
}

TEST(SamplePlan, TheProgramFileRefusesSampleLinesThatCannotBeTogether) {
    vg::EventProgram back;
    unsigned line = 0;
    const char two_pebs[] = "netburst-program 1\nsample pebs 16 100 1 16\nsample pebs 16 100 1 17\n";
    EXPECT_NE(vg::parse_event_program(two_pebs, sizeof two_pebs - 1, &back, &line), nullptr);
    const char one_counter[] = "netburst-program 1\nsample iebs 12 100 1 12\nsample iebs 12 200 1 13\n";
    EXPECT_NE(vg::parse_event_program(one_counter, sizeof one_counter - 1, &back, &line), nullptr);
    const char two_pmus[] = "netburst-program 1\nsample iebs 12 100 1 12\nsample iebs 13 100 2 13\n";
    EXPECT_NE(vg::parse_event_program(two_pmus, sizeof two_pmus - 1, &back, &line), nullptr);
    const char fine[] = "netburst-program 1\nsample iebs 12 100 1 12 callchain\nsample pebs 16 100 1 16\n";
    ASSERT_EQ(vg::parse_event_program(fine, sizeof fine - 1, &back, &line), nullptr);
    EXPECT_EQ(back.sample.num_events, 2u);
    EXPECT_TRUE(back.sample.callchain);
    EXPECT_EQ(back.sample.pebs_event(), 1);
}

}  // namespace
