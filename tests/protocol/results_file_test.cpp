// The results file the tool writes for netburst-run (emulator/protocol/results_file.h): it round-trips, the
// missing-instruction and estimate lines included.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "emulator/protocol/results_file.h"

using namespace netburst::emu;
using namespace netburst::emu::vg;

TEST(ResultsFile, RoundTrips) {
    ProcessResults r;
    r.pid = 4242;
    r.final_run = true;
    r.threads = 8;
    r.instructions = 123456789012ull;
    r.syscalls = 17;
    r.pmu_taken = true;
    r.events[r.num_events++] = EventResult{0, 1000000, false};
    r.events[r.num_events++] = EventResult{1, 0, true};
    char text[1024];
    const std::size_t n = format_results(r, text, sizeof text);
    ASSERT_GT(n, 0u);
    ProcessResults q;
    unsigned line = 0;
    ASSERT_EQ(parse_results(text, n, &q, &line), nullptr) << text;
    EXPECT_EQ(q.pid, 4242u);
    EXPECT_TRUE(q.final_run);
    EXPECT_EQ(q.threads, 8u);
    EXPECT_EQ(q.instructions, 123456789012ull);
    EXPECT_EQ(q.syscalls, 17u);
    EXPECT_TRUE(q.pmu_taken);
    ASSERT_EQ(q.num_events, 2u);
    EXPECT_EQ(q.events[0].value, 1000000u);
    EXPECT_FALSE(q.events[0].unsupported);
    EXPECT_TRUE(q.events[1].unsupported);
    // Files without the pmu_taken line (it is optional) read as not taken.
    const std::string old_file = "netburst-results 1\npid 7\nfinal 1\n";
    ASSERT_EQ(parse_results(old_file.data(), old_file.size(), &q, &line), nullptr);
    EXPECT_FALSE(q.pmu_taken);
    const std::string bad = "netburst-results 1\nevent 0 12\n";
    EXPECT_NE(parse_results(bad.data(), bad.size(), &q, &line), nullptr);
    EXPECT_EQ(line, 2u);
}

TEST(ResultsFile, MissingInstructionsRoundTripWithAFunctionNameOfSeveralWords) {
    ProcessResults r;
    r.missing.count = 1000;
    r.missing.first_pc = 0x10948b;
    std::snprintf(r.missing.first_extension, sizeof r.missing.first_extension, "SSSE3");
    std::snprintf(r.missing.first_symbol, sizeof r.missing.first_symbol, "scale(double*, unsigned long)");
    char text[1024];
    const std::size_t n = format_results(r, text, sizeof text);
    ASSERT_GT(n, 0u);
    ProcessResults q;
    unsigned line = 0;
    ASSERT_EQ(parse_results(text, n, &q, &line), nullptr) << text;
    EXPECT_EQ(q.missing.count, 1000u);
    EXPECT_EQ(q.missing.first_pc, 0x10948bu);
    EXPECT_STREQ(q.missing.first_extension, "SSSE3");
    EXPECT_STREQ(q.missing.first_symbol, "scale(double*, unsigned long)");
    // None ran: one line, no "first".
    const std::size_t m = format_results(ProcessResults{}, text, sizeof text);
    EXPECT_NE(std::string(text, m).find("missing 0\n"), std::string::npos);
    EXPECT_EQ(std::string(text, m).find("missing_first"), std::string::npos);
}

TEST(ResultsFile, EstimatesRoundTripOnTheirEventsOnly) {
    ProcessResults r;
    r.events[r.num_events++] = EventResult{0, 14658128, false};
    r.events[r.num_events] = EventResult{3, 98765, false};
    r.events[r.num_events].estimated = true;
    r.events[r.num_events++].half_width = 21050;
    char text[1024];
    const std::size_t n = format_results(r, text, sizeof text);
    ASSERT_GT(n, 0u);
    EXPECT_NE(std::string(text, n).find("event 3 98765 0\nestimate 3 21050\n"), std::string::npos) << text;
    EXPECT_EQ(std::string(text, n).find("estimate 0"), std::string::npos) << text;
    ProcessResults q;
    unsigned line = 0;
    ASSERT_EQ(parse_results(text, n, &q, &line), nullptr) << text;
    ASSERT_EQ(q.num_events, 2u);
    EXPECT_FALSE(q.events[0].estimated);
    EXPECT_EQ(q.events[0].half_width, 0u);
    EXPECT_TRUE(q.events[1].estimated);
    EXPECT_EQ(q.events[1].value, 98765u);
    EXPECT_EQ(q.events[1].half_width, 21050u);
}

TEST(ResultsFile, AnEstimateNeedsItsEventLineBeforeIt) {
    ProcessResults q;
    unsigned line = 0;
    const std::string unknown = "netburst-results 1\nevent 0 12 0\nestimate 1 3\n";
    EXPECT_NE(parse_results(unknown.data(), unknown.size(), &q, &line), nullptr);
    EXPECT_EQ(line, 3u);
    const std::string before = "netburst-results 1\nestimate 0 3\nevent 0 12 0\n";
    EXPECT_NE(parse_results(before.data(), before.size(), &q, &line), nullptr);
    EXPECT_EQ(line, 2u);
    const std::string short_line = "netburst-results 1\nevent 0 12 0\nestimate 0\n";
    EXPECT_NE(parse_results(short_line.data(), short_line.size(), &q, &line), nullptr);
    EXPECT_EQ(line, 3u);
}
