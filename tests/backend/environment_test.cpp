// The test hooks from the environment, and the clear errors for wrong values.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "backend/msr_environment.h"

using namespace netburst::component;

namespace {

std::map<std::string, std::string> g_vars;
const char* fake_getenv(const char* name) {
    auto it = g_vars.find(name);
    return it == g_vars.end() ? nullptr : it->second.c_str();
}

MsrEnvironment with(std::map<std::string, std::string> vars) {
    g_vars = std::move(vars);
    return read_msr_environment(fake_getenv);
}

}  // namespace

TEST(MsrEnvironment, DefaultsAreTheRealDevices) {
    const MsrEnvironment env = with({});
    EXPECT_EQ(env.device_root, "/dev/cpu");
    EXPECT_FALSE(env.fake_devices);
    EXPECT_FALSE(env.assume_cpu);
    EXPECT_TRUE(env.rdpmc_allowed);
    EXPECT_TRUE(env.error.empty());
}

TEST(MsrEnvironment, FakeDevicesAndAnAssumedCpu) {
    const MsrEnvironment env =
        with({{"PAPI_NETBURST_MSR_DEVICE_DIR", "/tmp/x"}, {"PAPI_NETBURST_ASSUME_CPU", "15:4:1"}});
    EXPECT_TRUE(env.error.empty()) << env.error;
    EXPECT_EQ(env.device_root, "/tmp/x");
    EXPECT_TRUE(env.fake_devices);
    EXPECT_FALSE(env.rdpmc_allowed) << "RDPMC would read the test machine's counters, not the files";
    EXPECT_TRUE(env.assume_cpu);
    EXPECT_EQ(env.family, 15u);
    EXPECT_EQ(env.model, 4u);
    EXPECT_EQ(env.stepping, 1u);
}

TEST(MsrEnvironment, AnAssumedCpuNeedsFakeDevices) {
    const MsrEnvironment env = with({{"PAPI_NETBURST_ASSUME_CPU", "15:2:9"}});
    EXPECT_FALSE(env.assume_cpu);
    EXPECT_NE(env.error.find("needs PAPI_NETBURST_MSR_DEVICE_DIR"), std::string::npos) << env.error;
}

TEST(MsrEnvironment, MalformedValuesAreExplained) {
    for (const char* bad : {"15:2", "15:2:9:1", "f:2:9", "15:2:16", "15:300:1", "", " 15:2:9", "15:2:9x"}) {
        const MsrEnvironment env = with({{"PAPI_NETBURST_MSR_DEVICE_DIR", "/tmp/x"}, {"PAPI_NETBURST_ASSUME_CPU", bad}});
        if (!*bad) {
            EXPECT_FALSE(env.assume_cpu);  // empty means unset
            continue;
        }
        EXPECT_FALSE(env.assume_cpu) << bad;
        EXPECT_NE(env.error.find("family:model:stepping"), std::string::npos) << bad << ": " << env.error;
    }
    EXPECT_NE(with({{"PAPI_NETBURST_RDPMC", "maybe"}}).error.find("PAPI_NETBURST_RDPMC"), std::string::npos);
    EXPECT_FALSE(with({{"PAPI_NETBURST_RDPMC", "0"}}).rdpmc_allowed);
}
