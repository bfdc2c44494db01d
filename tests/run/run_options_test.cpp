// The options counting runs and `record` share (emulator/run/run_options.h): --timing and its conflict with the
// emulated clock, --valgrind-option's pass-through, and where the options end.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emulator/run/run_options.h"

using namespace netburst::emu::run;

namespace {

struct Parsed {
    ToolOptions tool;
    std::vector<std::string> command;
    std::vector<std::string> own;  // the subcommand's own options, as "NAME=VALUE"
};

// parse_run_options over `args` (after the command's name), with one option of the subcommand's own, --own=VALUE.
Parsed parse(const std::vector<std::string>& args) {
    std::vector<std::string> storage = {"netburst-run"};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : storage) argv.push_back(a.data());
    argv.push_back(nullptr);
    Parsed p;
    constexpr int kOwn = 256;
    auto take = [&p](int c, const char* arg) {
        if (c != kOwn) return false;
        p.own.push_back(std::string("own=") + arg);
        return true;
    };
    p.command = parse_run_options(static_cast<int>(storage.size()), argv.data(), "netburst-run", "usage\n", "",
                                  {{"own", required_argument, nullptr, kOwn}}, take, &p.tool);
    return p;
}

TEST(RunOptions, TimingIsExactUnlessSampledIsAsked) {
    EXPECT_EQ(parse({"prog"}).tool.timing, Timing::kExact);
    EXPECT_EQ(parse({"--timing=sampled", "prog"}).tool.timing, Timing::kSampled);
    EXPECT_EQ(parse({"--timing", "sampled", "prog"}).tool.timing, Timing::kSampled);
    EXPECT_EQ(parse({"--timing=sampled", "--timing=exact", "prog"}).tool.timing, Timing::kExact);  // the last wins
    EXPECT_STREQ(timing_name(Timing::kExact), "exact");
    EXPECT_STREQ(timing_name(Timing::kSampled), "sampled");
}

TEST(RunOptions, TimingMixesWithTheSubcommandsOwnOptions) {
    const Parsed p = parse({"--own=x", "--timing=sampled", "--model", "3", "prog", "arg"});
    EXPECT_EQ(p.tool.timing, Timing::kSampled);
    EXPECT_EQ(p.tool.model, 3u);
    EXPECT_EQ(p.own, std::vector<std::string>{"own=x"});
    EXPECT_EQ(p.command, (std::vector<std::string>{"prog", "arg"}));
}

// The program's own arguments are left alone, a --timing among them too.
TEST(RunOptions, OptionsEndAtTheProgram) {
    const Parsed p = parse({"prog", "--timing=sampled"});
    EXPECT_EQ(p.tool.timing, Timing::kExact);
    EXPECT_EQ(p.command, (std::vector<std::string>{"prog", "--timing=sampled"}));
}

TEST(RunOptions, UnknownTimingIsAUsageErrorThatListsTheValidOnes) {
    EXPECT_EXIT(parse({"--timing=fast", "prog"}), ::testing::ExitedWithCode(kExitOwnError),
                "--timing fast: the timing is 'exact' or 'sampled'");
    EXPECT_EXIT(parse({"--timing=", "prog"}), ::testing::ExitedWithCode(kExitOwnError), "'exact' or 'sampled'");
}

// The schedule's options have no launcher flags: they reach the tool through --valgrind-option, in order.
TEST(RunOptions, SampleScheduleGoesThroughValgrindOption) {
    const Parsed p = parse({"--timing=sampled", "--valgrind-option=--sample-period=50000",
                            "--valgrind-option", "--sample-unit=500", "prog"});
    EXPECT_EQ(p.tool.valgrind_options, (std::vector<std::string>{"--sample-period=50000", "--sample-unit=500"}));
    EXPECT_EXIT(parse({"--sample-period=50000", "prog"}), ::testing::ExitedWithCode(kExitOwnError),
                "unknown option");
}

}  // namespace
