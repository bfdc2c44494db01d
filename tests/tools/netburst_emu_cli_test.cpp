// netburst-emu replay and convert as users run them: counts of known work on hand-written traces, determinism,
// both trace forms, Hyper-Threading, raw MSR programming, PEBS, "unsupported", and the error paths.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "run_tool.h"

namespace {

using netburst::testtools::ToolRun;
using netburst::testtools::json_of;
using netburst::testtools::write_temp_file;

std::string tool() {
    const char* path = std::getenv("NETBURST_EMU");
    return path ? path : "./netburst-emu";
}

ToolRun emu(const std::string& args) { return netburst::testtools::run_command(tool() + " " + args); }

// 1000 iterations of: a load (64-byte stride over 64 KB: every load a new line), an SSE2 double add, a store, an
// increment and a loop branch taken 999 times. Known work: 5000 instructions, 1000 loads, 1000 stores, 1000 scalar
// double uops, 1000 conditional branches (999 taken).
const char* kLoop =
    "netburst-trace 1\n"
    "repeat 1000 {\n"
    "  0x400100 4 IntAlu      ld=0x100000+64*i/8 rd=rsi wr=rax\n"
    "  0x400104 4 SseScalarDp rd=xmm0,xmm1 wr=xmm0\n"
    "  0x400108 4 IntAlu      st=0x200000+8*i/8 rd=rdi,rax\n"
    "  0x40010c 3 IntAlu      rd=rsi wr=rsi,flags\n"
    "  0x40010f 2 CondBranch  taken=i!=999 target=0x400100 rd=flags\n"
    "}\n";

std::uint64_t value_of(const nlohmann::json& j, const std::string& event, unsigned thread = 0) {
    for (const auto& e : j["events"])
        if (e["event"] == event && e["thread"] == thread) {
            EXPECT_TRUE(e["value"].is_number()) << event << " is " << e["value"];
            return e["value"].is_number() ? e["value"].get<std::uint64_t>() : ~0ull;
        }
    ADD_FAILURE() << "no " << event;
    return ~0ull;
}

}  // namespace

TEST(NetburstEmuReplay, CountsKnownWork) {
    const std::string trace = write_temp_file("loop.trace", kLoop);
    const ToolRun a = emu("replay " + trace +
                          " --json --events instr_retired:NBOGUSNTAG:NBOGUSTAG,retired_branch_type:CONDITIONAL,"
                          "memory_stores,BSQ_cache_reference:RD_2ndL_MISS,scalar_DP_retired");
    ASSERT_EQ(a.status, 0) << a.err;
    const auto j = json_of(a);
    EXPECT_EQ(j["threads"][0]["instructions"], 5000);
    EXPECT_EQ(value_of(j, "instr_retired:NBOGUSNTAG:NBOGUSTAG"), 5000u);
    EXPECT_EQ(value_of(j, "retired_branch_type:CONDITIONAL"), 1000u);
    EXPECT_EQ(value_of(j, "memory_stores:NBOGUS"), 1000u);
    EXPECT_EQ(value_of(j, "scalar_DP_retired:NBOGUS"), 1000u);
    // 64 KB at 64-byte stride touches 500 L2 lines of 128 bytes, none of them cached before, and the loop's code
    // is read once from memory into the trace cache.
    EXPECT_EQ(value_of(j, "BSQ_cache_reference:RD_2ndL_MISS"), 501u);

    const ToolRun b = emu("replay " + trace +
                          " --json --events branch_retired:MMTP:MMTM,branch_retired:MMNP:MMNM,"
                          "BSQ_cache_reference:WR_2ndL_MISS,global_power_events");
    ASSERT_EQ(b.status, 0) << b.err;
    const auto k = json_of(b);
    EXPECT_EQ(value_of(k, "branch_retired:MMTP:MMTM"), 999u);
    EXPECT_EQ(value_of(k, "branch_retired:MMNP:MMNM"), 1u);
    EXPECT_EQ(value_of(k, "BSQ_cache_reference:WR_2ndL_MISS"), 63u) << "8000 bytes of stores: 63 L2 lines";
    const auto m = json_of(emu("replay " + trace + " --json --events memory_loads,1stL_cache_load_miss_retired"));
    EXPECT_EQ(value_of(m, "memory_loads:NBOGUS"), 1000u);
    EXPECT_EQ(value_of(m, "1stL_cache_load_miss_retired:NBOGUS"), 1000u);
    const std::uint64_t running = value_of(k, "global_power_events:RUNNING");
    EXPECT_GE(running, k["cycles"].get<std::uint64_t>());
    EXPECT_LE(running, k["cycles"].get<std::uint64_t>() + 1);
}

// Counting only functional events, the emulator runs its functional tier: no cycles, the same counts as with
// --timing, and the report says how many instructions were timed.
TEST(NetburstEmuReplay, FunctionalEventsCountTheSameWithAndWithoutTiming) {
    const std::string trace = write_temp_file("tiers.trace", kLoop);
    const std::string events = " --json --events instr_retired:NBOGUSNTAG:NBOGUSTAG,1stL_cache_load_miss_retired,"
                               "BSQ_cache_reference:RD_2ndL_MISS,branch_retired:MMTP:MMTM";
    const ToolRun f = emu("replay " + trace + events), t = emu("replay " + trace + events + " --timing");
    ASSERT_EQ(f.status, 0) << f.err;
    ASSERT_EQ(t.status, 0) << t.err;
    const auto jf = json_of(f), jt = json_of(t);
    EXPECT_EQ(jf["events"], jt["events"]);
    EXPECT_EQ(jf["timed_instructions"], 0);
    EXPECT_EQ(jf["cycles"], 0);
    EXPECT_EQ(jt["timed_instructions"], 5000);
    EXPECT_GT(jt["cycles"].get<std::uint64_t>(), 5000u);
    EXPECT_NE(emu("replay " + trace + " --events instr_retired:NBOGUSNTAG").out.find("simulated for 0 of 5000"),
              std::string::npos);
}

TEST(NetburstEmuReplay, SameInputSameResultsAndBothFormsAgree) {
    const std::string trace = write_temp_file("det.trace", kLoop);
    const std::string bin = ::testing::TempDir() + "det.nbt";
    ASSERT_EQ(emu("convert " + trace + " " + bin).status, 0);
    const std::string args = " --json --events instr_retired:NBOGUSNTAG:NBOGUSTAG,mispred_branch_retired,"
                             "1stL_cache_load_miss_retired,global_power_events,x87_FP_retired";
    const ToolRun a = emu("replay " + trace + args), b = emu("replay " + trace + args), c = emu("replay " + bin + args);
    ASSERT_EQ(a.status, 0) << a.err;
    auto ja = json_of(a), jb = json_of(b), jc = json_of(c);
    EXPECT_EQ(ja, jb);
    jc["traces"] = ja["traces"];
    EXPECT_EQ(ja, jc);
    // And back to text: the round trip keeps every instruction.
    const std::string text_again = ::testing::TempDir() + "det2.trace";
    ASSERT_EQ(emu("convert " + bin + " " + text_again).status, 0);
    auto jd = json_of(emu("replay " + text_again + args));
    jd["traces"] = ja["traces"];
    EXPECT_EQ(ja, jd);
}

TEST(NetburstEmuReplay, TwoTracesRunOnTheTwoLogicalProcessors) {
    const std::string t0 = write_temp_file("ht0.trace", kLoop);
    const std::string t1 = write_temp_file("ht1.trace",
                                           "repeat 300 {\n  0x500000 3 IntAlu rd=rax wr=rax\n"
                                           "  0x500003 2 CondBranch taken=i!=299 target=0x500000\n}\n");
    const ToolRun r = emu("replay " + t0 + " " + t1 + " --json --events instr_retired:NBOGUSNTAG:NBOGUSTAG,global_power_events");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = json_of(r);
    EXPECT_EQ(j["logical_processors"], 2);
    EXPECT_EQ(value_of(j, "instr_retired:NBOGUSNTAG:NBOGUSTAG", 0), 5000u);
    EXPECT_EQ(value_of(j, "instr_retired:NBOGUSNTAG:NBOGUSTAG", 1), 600u);
    EXPECT_LT(value_of(j, "global_power_events:RUNNING", 1), value_of(j, "global_power_events:RUNNING", 0));
}

// Raw programming with --msr: the thesis' branch_retired example (ESCR 0x0C001804 on CRU_ESCR2, CCCR select 5 on
// counter 12), counting taken branches in user mode.
TEST(NetburstEmuReplay, RawMsrProgrammingCountsAsTheRegistersSay) {
    const std::string trace = write_temp_file("raw.trace", kLoop);
    const std::string msr = write_temp_file("raw.msr",
                                            "# taken branches, T0_USR\n"
                                            "wrmsr 0x3cc 0x0c001804\n"
                                            "wrmsr 0x36c 0x0003b000\n");
    const ToolRun r = emu("replay " + trace + " --json --msr " + msr);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = json_of(r);
    ASSERT_EQ(j["counters"].size(), 1u);
    EXPECT_EQ(j["counters"][0]["counter"], 12);
    EXPECT_EQ(j["counters"][0]["value"], 999);
    // The same ESCR with only T0_OS counts nothing: the trace runs at CPL 3.
    const std::string os = write_temp_file("os.msr", "wrmsr 0x3cc 0x0c001808\nwrmsr 0x36c 0x0003b000\n");
    EXPECT_EQ(json_of(emu("replay " + trace + " --json --msr " + os))["counters"][0]["value"], 0);
    // A reserved bit is a #GP: the line is named and nothing runs.
    const std::string bad = write_temp_file("bad.msr", "wrmsr 0x3cc 0x8c001804\n");
    const ToolRun e = emu("replay " + trace + " --msr " + bad);
    EXPECT_EQ(e.status, 2);
    EXPECT_NE(e.err.find("bad.msr:1"), std::string::npos) << e.err;
    EXPECT_NE(e.err.find("#GP"), std::string::npos) << e.err;
}

// PEBS: IQ_COUNTER4 counts replay-tagged L1 load misses from 2^40 - 100. The 100th overflows the counter; the next
// counted uop takes the PEBS assist, which writes a record into the DS buffer (set up with poke) and reloads the
// counter from the DS area's reset value. So a record every 101 misses: 9 of them in 1000.
TEST(NetburstEmuReplay, PebsRecordsAndTheBufferThresholdInterrupt) {
    const std::string trace = write_temp_file("pebs.trace", kLoop);
    const std::string msr = write_temp_file(
        "pebs.msr",
        "poke 0x10020 0x20000          # PEBS buffer base\n"
        "poke 0x10028 0x20000          # PEBS index\n"
        "poke 0x10030 0x205a0          # absolute maximum: room for 10 records of 144 bytes\n"
        "poke 0x10038 0x20480          # interrupt threshold: after 8 records\n"
        "poke 0x10040 0xffffffff9c     # counter reset: 2^40 - 100\n"
        "wrmsr 0x600 0x10000           # IA32_DS_AREA\n"
        "wrmsr 0x3f1 0x03000001        # 1stL select, UOP_TAG, ENABLE_PEBS\n"
        "wrmsr 0x3f2 0x1               # MATRIX_VERT: loads\n"
        "wrmsr 0x3cc 0x12000204        # CRU_ESCR2: replay_event NBOGUS, T0_USR\n"
        "wrmsr 0x310 0xffffffff9c      # IQ_COUNTER4 = 2^40 - 100\n"
        "wrmsr 0x370 0x0003b000        # IQ_CCCR4: enable, select 5\n");
    const ToolRun r = emu("replay " + trace + " --json --msr " + msr);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = json_of(r);
    EXPECT_EQ(j["pebs_records"].size(), 9u);
    bool threshold_pmi = false;
    for (const auto& p : j["pmis"]) threshold_pmi = threshold_pmi || p["pebs_threshold"] == true;
    EXPECT_TRUE(threshold_pmi);
    for (const auto& p : j["pebs_records"]) EXPECT_EQ(p["eip"], "0x400100") << "precise: the load itself";
}

TEST(NetburstEmuReplay, UnmodelledEventsAreUnsupportedNotZero) {
    const std::string trace = write_temp_file("unsup.trace", kLoop);
    const ToolRun r = emu("replay " + trace + " --json --events b2b_cycles:BIT1,instr_retired:NBOGUSNTAG");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = json_of(r);
    EXPECT_EQ(j["events"][0]["value"], "unsupported");
    EXPECT_EQ(j["events"][1]["value"], 5000);
    EXPECT_NE(emu("replay " + trace + " --events b2b_cycles:BIT1").out.find("unsupported"), std::string::npos);
}

TEST(NetburstEmuReplay, ErrorsAndExitCodes) {
    const std::string trace = write_temp_file("err.trace", kLoop);
    EXPECT_EQ(emu("replay " + trace + " --events 1stL_cache_load_miss_retired,2ndL_cache_load_miss_retired").status, 1);
    const ToolRun unknown = emu("replay " + trace + " --events brnach_retired:MMTM");
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("branch_retired"), std::string::npos);
    EXPECT_EQ(emu("replay /nonexistent.trace").status, 2);
    const std::string broken = write_temp_file("broken.trace", "0x1 3 IntAlu\n0x4 3 Bogus\n");
    const ToolRun b = emu("replay " + broken);
    EXPECT_EQ(b.status, 2);
    EXPECT_NE(b.err.find(":2:"), std::string::npos) << b.err;
    EXPECT_EQ(emu("replay " + trace + " --model 5").status, 2);
    EXPECT_EQ(emu("frobnicate").status, 2);
    EXPECT_EQ(emu("--help").status, 0);
    const std::string t1 = write_temp_file("thread1.trace", "0x1 3 IntAlu thread=1\n");
    EXPECT_EQ(emu("replay " + t1).status, 2) << "thread 1 without Hyper-Threading";
    EXPECT_EQ(emu("replay " + t1 + " --ht").status, 0);
}
