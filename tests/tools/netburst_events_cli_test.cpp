// netburst-events as users run it: output formats (doc/netburst-events.md) and exit codes.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run_tool.h"

namespace {

using netburst::testtools::ToolRun;
using netburst::testtools::json_of;

std::string tool() {
    const char* path = std::getenv("NETBURST_EVENTS");
    return path ? path : "./netburst-events";
}

ToolRun run(const std::string& args) { return netburst::testtools::run_command(tool() + " " + args); }

std::string write_value(const nlohmann::json& writes, const std::string& msr) {
    for (const auto& w : writes)
        if (w["msr"] == msr) return w["value"];
    return "missing";
}

}  // namespace

TEST(NetburstEventsCli, JsonExportsTheWholeTable) {
    const ToolRun r = run("--json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = json_of(r);
    EXPECT_EQ(j["format"], "netburst-events/1");
    EXPECT_EQ(j["msrs"]["counters"].size(), 18u);
    EXPECT_EQ(j["msrs"]["escrs"].size(), 45u);
    EXPECT_EQ(j["events"].size(), 47u);
    EXPECT_EQ(j["metrics"].size(), 19u);
    EXPECT_EQ(j["msrs"]["counters"][17]["cccr_msr"], "0x371");
    bool found = false;
    for (const auto& e : j["events"]) {
        if (e["name"] != "branch_retired") continue;
        found = true;
        EXPECT_EQ(e["event_select"], "0x6");
        EXPECT_EQ(e["cccr_select"], 5);
        EXPECT_EQ(e["escrs"], nlohmann::json({"MSR_CRU_ESCR2", "MSR_CRU_ESCR3"}));
        EXPECT_EQ(e["masks"].size(), 4u);
        EXPECT_EQ(e["scope"], "TS");
    }
    EXPECT_TRUE(found);
    for (const auto& m : j["metrics"])
        if (m["name"] == "1stL_cache_load_miss_retired") {
            EXPECT_EQ(m["pebs_enable"], "0x1000001");
            EXPECT_EQ(m["pebs_matrix_vert"], "0x1");
        }
}

TEST(NetburstEventsCli, EncodePrintsEveryMsrWrite) {
    const ToolRun r = run("--encode x87_FP_retired:u");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = json_of(r);
    EXPECT_EQ(j["event"], "x87_FP_retired:NBOGUS:u");
    EXPECT_EQ(write_value(j["writes"], "0x3a4"), "0x9000034");   // FIRM_ESCR0: x87_FP_uop ALL, tag 1, T0_USR
    EXPECT_EQ(write_value(j["writes"], "0x3cc"), "0x18000204");  // CRU_ESCR2: execution_event NBOGUS0
    EXPECT_EQ(write_value(j["writes"], "0x36c"), "0x3b000");
}

TEST(NetburstEventsCli, EncodeForThreadOneUsesT1Bits) {
    const ToolRun r = run("--encode branch_retired:MMTP:MMTM:u:thr=2 --thread 1");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = json_of(r);
    EXPECT_EQ(j["thread"], 1);
    EXPECT_EQ(write_value(j["writes"], "0x3cc"), "0xc001801");
}

TEST(NetburstEventsCli, ScheduleReportsTheAssignment) {
    const ToolRun r = run("--schedule x87_FP_retired 1stL_cache_load_miss_retired instr_retired:NBOGUSNTAG --model 3");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = json_of(r);
    EXPECT_EQ(j["scheduled"], true);
    EXPECT_EQ(j["model"], 3);
    EXPECT_EQ(j["events"].size(), 3u);
    EXPECT_EQ(j["events"][0]["execution_tag_bit"], 0);
    EXPECT_EQ(j["replay"]["pebs_enable"], "0x1000001");
    EXPECT_FALSE(j["start"].empty());
    EXPECT_FALSE(j["stop"].empty());
}

TEST(NetburstEventsCli, ConflictExitsOneWithTheExplanation) {
    const ToolRun r = run("--schedule 1stL_cache_load_miss_retired 2ndL_cache_load_miss_retired");
    EXPECT_EQ(r.status, 1);
    const auto j = json_of(r);
    EXPECT_EQ(j["scheduled"], false);
    EXPECT_EQ(j["conflict"]["events"].size(), 2u);
    EXPECT_NE(r.err.find("IA32_PEBS_ENABLE"), std::string::npos) << r.err;
}

TEST(NetburstEventsCli, BadInputExitsTwo) {
    EXPECT_EQ(run("--encode brnach_retired:MMTM").status, 2);
    EXPECT_NE(run("--encode brnach_retired:MMTM").err.find("branch_retired"), std::string::npos);
    EXPECT_EQ(run("--encode instr_completed:NBOGUS --model 2").status, 2);
    EXPECT_EQ(run("--schedule").status, 2);
    EXPECT_EQ(run("--model 5").status, 2);
    EXPECT_EQ(run("--encode branch_retired:MMTM --thread 2").status, 2);
    EXPECT_EQ(run("--frobnicate").status, 2);
    EXPECT_EQ(run("--json --markdown").status, 2);
    EXPECT_EQ(run("--encode branch_retired:MMTM:thr=16").status, 2);
}

TEST(NetburstEventsCli, ListingNamesEveryEventAndMetric) {
    const ToolRun all = run("");
    ASSERT_EQ(all.status, 0);
    const auto j = json_of(run("--json"));
    for (const auto& e : j["events"]) EXPECT_NE(all.out.find(std::string(e["name"])), std::string::npos) << e["name"];
    for (const auto& m : j["metrics"]) EXPECT_NE(all.out.find(std::string(m["name"])), std::string::npos) << m["name"];
    const ToolRun model2 = run("--model 2");
    EXPECT_EQ(model2.out.find("instr_completed"), std::string::npos);
    EXPECT_NE(run("--model 3").out.find("instr_completed"), std::string::npos);
}

TEST(NetburstEventsCli, HelpDescribesTheExitCodes) {
    const ToolRun r = run("--help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("Exit status"), std::string::npos);
}

// doc/reference/*.md are generated; this keeps the committed copies from going stale.
TEST(NetburstEventsCli, CommittedReferencesAreCurrent) {
    const char* srcdir = std::getenv("srcdir");
    for (const auto& [file, flag] : {std::pair<std::string, std::string>{"events.md", "--markdown"},
                                     {"presets.md", "--presets-markdown"}}) {
        const std::string path = std::string(srcdir ? srcdir : ".") + "/doc/reference/" + file;
        std::ifstream f(path);
        ASSERT_TRUE(f) << path;
        std::stringstream ss;
        ss << f.rdbuf();
        EXPECT_EQ(ss.str(), run(flag).out) << "run `make doc-reference` and commit " << file;
    }
}

TEST(NetburstEventsCli, PapiCsvHasOneSectionPerConfiguration) {
    const ToolRun r = run("--papi-csv");
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("CPU,papi-netburst sse\n"), std::string::npos);
    EXPECT_NE(r.out.find("CPU,papi-netburst x87_sse_dp L3\n"), std::string::npos);
    EXPECT_NE(r.out.find("PRESET,PAPI_BR_MSP,NOT_DERIVED,mispred_branch_retired:BOGUS\n"), std::string::npos);
    EXPECT_NE(run("--presets").out.find("PAPI_L1_DCM"), std::string::npos);
}
