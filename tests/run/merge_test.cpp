// netburst-run merge: reading both kinds of per-rank file, joining them by rank, and the statistics.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "emulator/run/event_plan.h"
#include "emulator/run/merge_format.h"
#include "emulator/run/merge_input.h"
#include "emulator/run/merge_stats.h"

using namespace netburst;
using namespace netburst::emu::run;

namespace {

TEST(MergeStats, OddCount) {
    const Stats s = compute_stats({30, 10, 20});
    EXPECT_EQ(s.count, 3u);
    EXPECT_EQ(s.min, 10);
    EXPECT_EQ(s.max, 30);
    EXPECT_EQ(s.sum, 60);
    EXPECT_DOUBLE_EQ(s.median, 20.0);
    EXPECT_DOUBLE_EQ(s.mean, 20.0);
    EXPECT_DOUBLE_EQ(s.imbalance, 1.5);
}

TEST(MergeStats, EvenCountTakesTheMeanOfTheMiddleTwo) {
    const Stats s = compute_stats({4, 1, 3, 2});
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.imbalance, 4 / 2.5);
}

TEST(MergeStats, BalancedAndDegenerate) {
    EXPECT_DOUBLE_EQ(compute_stats({7, 7, 7, 7}).imbalance, 1.0);
    EXPECT_DOUBLE_EQ(compute_stats({0, 0}).imbalance, 0.0);  // no work anywhere: no ratio
    const Stats one = compute_stats({42});
    EXPECT_EQ(one.min, 42);
    EXPECT_DOUBLE_EQ(one.median, 42.0);
    EXPECT_EQ(compute_stats({}).count, 0u);
}

// What netburst-run -o counts.%r.json --json writes (trimmed to what merge reads).
std::string netburst_report(int rank, long long instructions) {
    nlohmann::json j;
    j["command"] = {"./stencil"};
    j["rank"] = rank;
    j["events"] = {
        {{"event", "PAPI_TOT_INS"}, {"native", {"instr_retired:NBOGUSNTAG:NBOGUSTAG"}}, {"value", instructions}},
        {{"event", "x87_FP_uop:ALL"}, {"native", {"x87_FP_uop:ALL"}}, {"value", "unsupported"}}};
    return j.dump();
}

// PAPI 7.0.0's high-level output (papi_hl.c, _internal_hl_write_json_file): every value a string, a region's
// event an object when PAPI_hl_read was called in it.
std::string papi_report(long long compute0, long long compute1) {
    return R"({"papi_version":"7.0.0.0","cpu_info":"Intel Pentium 4","max_cpu_rate_mhz":"2400","min_cpu_rate_mhz":"2400",
      "event_definitions":{"PAPI_TOT_INS":{"component":"netburst","type":"delta"}},
      "threads":{
        "0":{"regions":{"0":{"name":"compute","parent_region_id":"-1","cycles":"100","real_time_nsec":"5",
                             "PAPI_TOT_INS":")" +
           std::to_string(compute0) + R"("}}},
        "1":{"regions":{"0":{"name":"compute","parent_region_id":"-1","cycles":"50","real_time_nsec":"5",
                             "PAPI_TOT_INS":{"region_value":")" +
           std::to_string(compute1) + R"(","read_1":"3"}}}}}})";
}

TEST(MergeInput, NetburstRunReport) {
    auto r = parse_rank_report(netburst_report(2, 1000), "counts.2.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->rank, 2);
    ASSERT_EQ(r->readings.size(), 2u);
    EXPECT_EQ(r->readings[0].event, "PAPI_TOT_INS");
    EXPECT_EQ(r->readings[0].region, "");
    EXPECT_EQ(r->readings[0].value, 1000);
    EXPECT_FALSE(r->readings[1].counted);
    EXPECT_EQ(r->readings[1].note, "unsupported");
}

TEST(MergeInput, PapiHighLevelOutputAddsThreadsAndTakesTheRankFromTheName) {
    auto r = parse_rank_report(papi_report(700, 300), "out/papi_hl_output/rank_000003.json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->rank, 3);
    ASSERT_EQ(r->readings.size(), 3u);  // cycles, real_time_nsec, PAPI_TOT_INS of region compute
    EXPECT_EQ(r->readings[0].event, "cycles");
    EXPECT_EQ(r->readings[0].value, 150);
    EXPECT_EQ(r->readings[2].region, "compute");
    EXPECT_EQ(r->readings[2].event, "PAPI_TOT_INS");
    EXPECT_EQ(r->readings[2].value, 1000);
    EXPECT_EQ(parse_rank_report(papi_report(1, 1), "elsewhere.json")->rank, -1);
}

TEST(MergeInput, Rejects) {
    EXPECT_FALSE(parse_rank_report("not json", "a").ok());
    EXPECT_FALSE(parse_rank_report(R"({"x":1})", "a").ok());
    EXPECT_FALSE(parse_rank_report(R"({"events":[{"event":"A","value":true}]})", "a").ok());
    EXPECT_FALSE(parse_rank_report(R"({"events":[{"value":1}]})", "a").ok());
    EXPECT_FALSE(
        parse_rank_report(R"({"threads":{"0":{"regions":{"0":{"name":"r","E":"12z"}}}}})", "rank_000000.json").ok());
}

TEST(Merge, BothKindsJoinByRank) {
    std::vector<RankReport> reports;
    for (int rank = 0; rank < 3; ++rank) {
        reports.push_back(*parse_rank_report(netburst_report(rank, 1000 * (rank + 1)), "c." + std::to_string(rank)));
        reports.push_back(
            *parse_rank_report(papi_report(10 * (rank + 1), 0), "rank_00000" + std::to_string(rank) + ".json"));
    }
    auto t = merge_reports(reports);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->ranks, (std::vector<long>{0, 1, 2}));
    ASSERT_EQ(t->events.size(), 5u);
    const MergedEvent& ins = t->events[0];
    EXPECT_EQ(ins.event, "PAPI_TOT_INS");
    EXPECT_EQ(ins.region, "");
    EXPECT_EQ(*ins.per_rank[2], 3000);
    EXPECT_EQ(ins.stats.sum, 6000);
    EXPECT_DOUBLE_EQ(ins.stats.imbalance, 1.5);
    const MergedEvent& unsupported = t->events[1];
    EXPECT_EQ(unsupported.stats.count, 0u);
    EXPECT_EQ(unsupported.notes[0], "unsupported");
    const MergedEvent& region = t->events[4];
    EXPECT_EQ(region.region, "compute");
    EXPECT_EQ(region.stats.min, 10);
    EXPECT_EQ(region.stats.max, 30);

    const std::string text = format_merged_text(*t);
    EXPECT_NE(text.find("3 ranks, 6 files"), std::string::npos) << text;
    EXPECT_NE(text.find("[compute] PAPI_TOT_INS"), std::string::npos) << text;
    EXPECT_NE(text.find("sum 6,000   imbalance (max/mean) 1.500"), std::string::npos) << text;
    const auto j = nlohmann::json::parse(format_merged_json(*t));
    EXPECT_EQ(j["ranks"].size(), 3u);
    EXPECT_EQ(j["events"][0]["values"][1], 2000);
    EXPECT_EQ(j["events"][0]["median"], 2000.0);
    EXPECT_EQ(j["events"][1]["values"][0], "unsupported");
    EXPECT_TRUE(j["events"][0]["region"].is_null());
    EXPECT_EQ(j["events"][4]["region"], "compute");
}

TEST(Merge, AMissingRankValueIsLeftOutOfTheStatistics) {
    std::vector<RankReport> reports = {*parse_rank_report(netburst_report(0, 10), "a"),
                                       *parse_rank_report(papi_report(5, 5), "rank_000001.json")};
    auto t = merge_reports(reports);
    ASSERT_TRUE(t.ok());
    EXPECT_FALSE(t->events[0].per_rank[1].has_value());
    EXPECT_EQ(t->events[0].stats.count, 1u);
    EXPECT_NE(format_merged_text(*t).find("(over 1 of 2 ranks)"), std::string::npos);
}

TEST(Merge, Errors) {
    RankReport no_rank = *parse_rank_report(papi_report(1, 1), "x.json");
    EXPECT_FALSE(merge_reports({no_rank}).ok());
    auto twice =
        merge_reports({*parse_rank_report(netburst_report(0, 1), "a"), *parse_rank_report(netburst_report(0, 2), "b")});
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.error().message.find("rank 0 has it in both a and b"), std::string::npos) << twice.error().message;
}

// One rule for every unknown name: a preset gets the nearest names, as native events and masks do.
TEST(PresetSuggestions, NearestNames) {
    auto plan = plan_events({"PAPI_L1_DCN"}, PlanOptions{});
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.error().message.find("did you mean PAPI_L1_DCM"), std::string::npos) << plan.error().message;
    auto far = plan_events({"PAPI_QQQQQQQQQQQQQ"}, PlanOptions{});
    ASSERT_FALSE(far.ok());
    EXPECT_EQ(far.error().message.find("did you mean"), std::string::npos) << far.error().message;
}

}  // namespace
