// The event-program file netburst-run hands the tool (emulator/protocol/program_file.h): it round-trips, keeps
// each write's and event's PMU, and names the line of an error.
#include <gtest/gtest.h>

#include <string>

#include "emulator/protocol/program_file.h"

using namespace netburst::emu;
using namespace netburst::emu::vg;

TEST(EventProgramFile, RoundTrips) {
    EventProgram p;
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x3b8, 0x0400020c};
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x36c, 0x3d000};
    p.writes[1][p.num_writes[1]++] = ProgramWrite{0x3f1, 0x01000001};
    p.events[p.num_events++] = ProgramEvent{0, 0, 12, 0x1000};
    p.events[p.num_events++] = ProgramEvent{7, 1, 17, 0x24000};
    char text[4096];
    const std::size_t n = format_event_program(p, text, sizeof text);
    ASSERT_GT(n, 0u);
    EventProgram q;
    unsigned line = 0;
    ASSERT_EQ(parse_event_program(text, n, &q, &line), nullptr) << text;
    ASSERT_EQ(q.num_writes[0], 2u);
    ASSERT_EQ(q.num_writes[1], 1u);
    EXPECT_EQ(q.writes[0][1].msr, 0x36cu);
    EXPECT_EQ(q.writes[0][1].value, 0x3d000u);
    EXPECT_EQ(q.writes[1][0].value, 0x01000001u);
    ASSERT_EQ(q.num_events, 2u);
    EXPECT_EQ(q.events[1].index, 7u);
    EXPECT_EQ(q.events[1].lp, 1);
    EXPECT_EQ(q.events[1].counter, 17);
    EXPECT_EQ(q.events[1].check_mask, 0x24000u);
    // Too small a buffer is reported, not truncated silently.
    EXPECT_EQ(format_event_program(p, text, 20), 0u);
}

// Events that need more than one PMU: each write and event keeps its PMU through a `pmu N` line.
TEST(EventProgramFile, SeveralPmusRoundTrip) {
    EventProgram p;
    p.num_pmus = 3;
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x3b8, 1, 0};
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x3b8, 2, 2};
    p.writes[0][p.num_writes[0]++] = ProgramWrite{0x3b9, 3, 1};
    p.events[p.num_events++] = ProgramEvent{0, 0, 12, 0, 2};
    p.events[p.num_events++] = ProgramEvent{1, 0, 12, 0, 0};
    char text[4096];
    const std::size_t n = format_event_program(p, text, sizeof text);
    ASSERT_GT(n, 0u);
    EXPECT_NE(std::string(text).find("pmu 2\n"), std::string::npos) << text;
    EventProgram q;
    unsigned line = 0;
    ASSERT_EQ(parse_event_program(text, n, &q, &line), nullptr) << text;
    EXPECT_EQ(q.num_pmus, 3u);
    ASSERT_EQ(q.num_writes[0], 3u);
    for (unsigned i = 0; i < 3; ++i)  // written PMU by PMU: the values 1, 3, 2 belong to PMUs 0, 1, 2
        EXPECT_EQ(q.writes[0][i].pmu, q.writes[0][i].value == 1 ? 0 : q.writes[0][i].value == 3 ? 1 : 2);
    ASSERT_EQ(q.num_events, 2u);
    EXPECT_EQ(q.events[0].pmu + q.events[1].pmu, 2);  // one on PMU 0, one on PMU 2, in either order
    const std::string too_many = "netburst-program 1\npmu 32\n";
    EXPECT_NE(parse_event_program(too_many.data(), too_many.size(), &q, &line), nullptr);
}

TEST(EventProgramFile, ErrorsNameTheLine) {
    EventProgram q;
    unsigned line = 0;
    const std::string bad_counter = "netburst-program 1\nwrmsr 0 0x3b8 1\nevent 0 0 18 0\n";
    EXPECT_NE(parse_event_program(bad_counter.data(), bad_counter.size(), &q, &line), nullptr);
    EXPECT_EQ(line, 3u);
    const std::string bad_lp = "netburst-program 1\nwrmsr 2 0x3b8 1\n";
    EXPECT_NE(parse_event_program(bad_lp.data(), bad_lp.size(), &q, &line), nullptr);
    const std::string junk = "netburst-program 1\nwrmsr 0 0x3b8 12x\n";
    EXPECT_NE(parse_event_program(junk.data(), junk.size(), &q, &line), nullptr);
    const std::string version = "netburst-program 2\n";
    EXPECT_NE(parse_event_program(version.data(), version.size(), &q, &line), nullptr);
    const std::string overflow = "netburst-program 1\nwrmsr 0 0x3b8 0x10000000000000000\n";
    EXPECT_NE(parse_event_program(overflow.data(), overflow.size(), &q, &line), nullptr);
}
