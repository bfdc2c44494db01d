// PAPI's own tools on a fake Pentium 4 (the kernel MSR backend's test hooks, doc/real-pentium4.md): what
// papi_component_avail says, a count through papi_command_line, and the registers as they were after the program
// ends. The fake device files do not count, so counts are what the test wrote into them: zero.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sched.h>
#include <string>
#include <sys/wait.h>

#include "fake_machine.h"

using namespace netburst::component::test;

namespace {

struct ToolRun {
    int status = -1;
    std::string out;
};

// Runs a PAPI tool with `env` (NAME=VALUE ...) added, output and errors together.
ToolRun papi_tool(const std::string& env, const std::string& tool_and_args) {
    const char* utils = std::getenv("NB_PAPI_UTILS");
    ToolRun r;
    if (!utils) {
        ADD_FAILURE() << "NB_PAPI_UTILS is not set (run through make check)";
        return r;
    }
    const std::string cmd = "env " + env + " " + utils + "/" + tool_and_args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string hooks(const FakeMachine& m) {
    return "PAPI_NETBURST_MSR_DEVICE_DIR=" + m.root() + " PAPI_NETBURST_ASSUME_CPU=15:2:9 HWLOC_XMLFILE=" +
           m.topology_path();
}

class MsrPapi : public ::testing::Test {
protected:
    void SetUp() override {
        // The tools pin themselves to the CPU they run on, which must be one the synthetic topology lists.
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(0, &one);
        sched_getaffinity(0, sizeof saved_, &saved_);
        ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    }
    void TearDown() override { sched_setaffinity(0, sizeof saved_, &saved_); }
    cpu_set_t saved_;
};

}  // namespace

TEST_F(MsrPapi, ComponentAvailDescribesTheFakeXeon) {
    FakeMachine m;
    const ToolRun r = papi_tool(hooks(m), "papi_component_avail");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("Pentium 4 model 2 stepping 9, 2 packages with HT, per logical CPU via fake msr files"),
              std::string::npos)
        << r.out;
    const std::size_t active = r.out.find("Active components:");
    ASSERT_NE(active, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Name:   netburst", active), std::string::npos) << "netburst is active: " << r.out;
}

TEST_F(MsrPapi, ComponentAvailExplainsWhyItIsDisabled) {
    FakeMachine m;
    ToolRun r = papi_tool("PAPI_NETBURST_ASSUME_CPU=15:2:9", "papi_component_avail");
    EXPECT_NE(r.out.find("needs PAPI_NETBURST_MSR_DEVICE_DIR"), std::string::npos) << r.out;
    m.set(0, 0x1A0, 0);  // IA32_MISC_ENABLE bit 7 clear
    r = papi_tool(hooks(m), "papi_component_avail");
    EXPECT_NE(r.out.find("IA32_MISC_ENABLE bit 7 is clear"), std::string::npos) << r.out;
}

TEST_F(MsrPapi, CommandLineCountsAndTheMachineIsRestored) {
    FakeMachine m;
    m.set(0, 0x3B8, 0x0600000C);  // left behind by some earlier tool
    const std::vector<std::uint64_t> before = m.registers();
    const ToolRun r = papi_tool(hooks(m), "papi_command_line PAPI_TOT_INS netburst:::branch_retired:MMTP:MMTM");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("PAPI_TOT_INS : \t0"), std::string::npos) << r.out;
    EXPECT_EQ(m.registers(), before) << "PAPI_shutdown or exit restores every register the tool wrote";
}

TEST_F(MsrPapi, AWatchdogCounterIsLeftAloneAndNamed) {
    FakeMachine m;
    const std::uint64_t watchdog = (1ull << 12) | (6ull << 13) | (3ull << 16);
    m.set(0, 0x360, watchdog);
    m.set(0, 0x362, watchdog);
    const ToolRun avail = papi_tool(hooks(m), "papi_component_avail");
    EXPECT_NE(avail.out.find("counters 0,2 held by others"), std::string::npos) << avail.out;
    const ToolRun r = papi_tool("PAPI_VERBOSE=1 " + hooks(m), "papi_command_line netburst:::global_power_events:RUNNING");
    EXPECT_NE(r.out.find("Failed adding: netburst:::global_power_events:RUNNING"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("counters 0, 2 are enabled by other software"), std::string::npos) << r.out;
    EXPECT_EQ(m.get(0, 0x360), watchdog);
    EXPECT_EQ(m.get(0, 0x362), watchdog);
}
