// netburst-run's report (emulator/run/report.h) of a --timing=sampled run: estimates summed over processes, terms
// and logical processors with their intervals, and printed as text and JSON beside exact counts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "emulator/protocol/results_file.h"
#include "emulator/run/report.h"

using namespace netburst;
using namespace netburst::emu;
using namespace netburst::emu::run;

namespace {

const std::string kPlusMinus = "\u00b1";

TEST(ReportIntervals, IndependentHalfWidthsAddInQuadratureRoundedUp) {
    EXPECT_EQ(combine_in_quadrature({}), 0u);
    EXPECT_EQ(combine_in_quadrature({21050}), 21050u);
    EXPECT_EQ(combine_in_quadrature({3, 4}), 5u);
    EXPECT_EQ(combine_in_quadrature({30000, 0, 40000}), 50000u);
    EXPECT_EQ(combine_in_quadrature({1, 1}), 2u);  // sqrt(2) = 1.41...
    EXPECT_EQ(combine_in_quadrature({4000000000u}), 4000000000u);
}

TEST(ReportIntervals, TextHasTheHalfWidthAndTheRelativeWidth) {
    EXPECT_EQ(format_interval(14658128, 21050), kPlusMinus + " 21,050 (0.1 %, 99.7 %)");
    EXPECT_EQ(format_interval(1000, 125), kPlusMinus + " 125 (12.5 %, 99.7 %)");
    EXPECT_EQ(format_interval(-1000, 10), kPlusMinus + " 10 (1.0 %, 99.7 %)");  // a derived event's difference
    EXPECT_EQ(format_interval(0, 5), kPlusMinus + " 5 (99.7 %)");             // no relative width of nothing
}

TEST(ReportIntervals, AnEstimateTheSampleCannotBoundSaysSoAndStaysUnbounded) {
    EXPECT_EQ(format_interval(327, vg::kUnboundedHalfWidth),
              kPlusMinus + " ? (too rare in the sampled units to bound: --timing=exact)");
    EXPECT_EQ(combine_in_quadrature({10, vg::kUnboundedHalfWidth, 20}), vg::kUnboundedHalfWidth);
}

// Writes one process image's results file into dir, as the tool does.
void write_results(const std::string& dir, const vg::ProcessResults& r, const std::string& name) {
    char text[4096];
    const std::size_t n = vg::format_results(r, text, sizeof text);
    ASSERT_GT(n, 0u);
    std::ofstream(dir + "/" + name) << std::string(text, n);
}

vg::EventResult estimate(std::uint32_t index, std::uint64_t value, std::uint64_t half_width) {
    vg::EventResult e{index, value, false};
    e.estimated = true;
    e.half_width = half_width;
    return e;
}

// Each process samples units of its own, so the processes' estimates are independent.
TEST(ReportTotals, ProcessesEstimatesAddWithTheirHalfWidthsInQuadrature) {
    std::string dir = ::testing::TempDir() + "report.XXXXXX";
    ASSERT_NE(mkdtemp(dir.data()), nullptr);
    vg::ProcessResults a;
    a.pid = 100;
    a.events[a.num_events++] = vg::EventResult{0, 1000, false};
    a.events[a.num_events++] = estimate(1, 5000, 300);
    a.events[a.num_events++] = estimate(2, 700, 70);
    vg::ProcessResults b = a;
    b.pid = 101;
    b.events[0] = vg::EventResult{0, 2000, false};
    b.events[1] = estimate(1, 6000, 400);
    b.events[2] = vg::EventResult{2, 800, false};  // no cycle-driven counter here: exact
    write_results(dir, a, "nb-100-0");
    write_results(dir, b, "nb-101-0");
    auto totals = read_results(dir, 3);
    std::system(("rm -rf '" + dir + "'").c_str());
    ASSERT_TRUE(totals) << totals.error().message;
    EXPECT_EQ(totals->processes, 2u);
    EXPECT_EQ(totals->values, (std::vector<std::uint64_t>{3000, 11000, 1500}));
    EXPECT_EQ(totals->estimated, (std::vector<bool>{false, true, true}));  // estimated if any part was
    EXPECT_EQ(totals->half_widths, (std::vector<std::uint64_t>{0, 500, 70}));
}

// A plan of `names`, and totals in which every program event counts `value` with the given half-width.
struct Planned {
    EventPlan plan;
    RunTotals totals;
};
Planned planned(const std::vector<std::string>& names, bool ht, std::uint64_t value, std::uint64_t half_width) {
    PlanOptions options;
    options.machine = EmulatedMachine{}.with_ht(ht);
    auto plan = plan_events(names, options);
    EXPECT_TRUE(plan) << plan.error().message;
    Planned p{plan.value(), {}};
    const std::size_t n = p.plan.program.num_events;
    p.totals.values.assign(n, value);
    p.totals.unsupported.assign(n, false);
    p.totals.estimated.assign(n, half_width != 0);
    p.totals.half_widths.assign(n, half_width);
    return p;
}

// Terms, and logical processors, are measured in the same units: their errors may be correlated, so their
// half-widths add (a bound for any correlation) instead of adding in quadrature.
TEST(ReportTotals, TermsAndLogicalProcessorsAddTheirHalfWidths) {
    const Planned cycles = planned({"PAPI_TOT_CYC"}, true, 1000, 30);
    const std::vector<EventValue> ht = event_values(cycles.plan, cycles.totals, 2);
    ASSERT_EQ(ht.size(), 1u);
    EXPECT_EQ(ht[0].value, 2000);
    EXPECT_TRUE(ht[0].estimated);
    EXPECT_EQ(ht[0].half_width, 60u);

    const Planned sum = planned({"PAPI_L1_TCM"}, false, 1000, 30);  // DERIVED_ADD of two terms
    const std::vector<EventValue> add = event_values(sum.plan, sum.totals, 1);
    EXPECT_EQ(add[0].value, 2000);
    EXPECT_EQ(add[0].half_width, 60u);

    // DERIVED_CMPD's value is its first term's: the others only set up tagging, and their error is not in it.
    const Planned tagged = planned({"PAPI_LST_INS"}, false, 1000, 30);
    const std::vector<EventValue> cmpd = event_values(tagged.plan, tagged.totals, 1);
    EXPECT_EQ(cmpd[0].value, 1000);
    EXPECT_EQ(cmpd[0].half_width, 30u);

    const Planned exact = planned({"PAPI_TOT_INS"}, false, 1000, 0);
    const std::vector<EventValue> instructions = event_values(exact.plan, exact.totals, 1);
    EXPECT_FALSE(instructions[0].estimated);
    EXPECT_EQ(instructions[0].half_width, 0u);
}

EventValue counted(const std::string& name, const std::string& native, std::int64_t value) {
    EventValue e;
    e.name = name;
    e.natives = {native};
    e.value = value;
    e.per_processor = {value};
    return e;
}

std::vector<EventValue> an_exact_and_an_estimated_event() {
    std::vector<EventValue> events = {counted("PAPI_TOT_INS", "instr_retired:NBOGUSNTAG:NBOGUSTAG", 451989620),
                                      counted("PAPI_TOT_CYC", "global_power_events:RUNNING", 14658128)};
    events[1].estimated = true;
    events[1].half_width = 21050;
    return events;
}

RunTotals one_process() {
    RunTotals t;
    t.processes = 1;
    t.threads = 1;
    t.instructions = 451981940;
    return t;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The line that names `event`, or "".
std::string line_of(const std::string& text, const std::string& event) {
    for (const std::string& line : lines_of(text))
        if (line.find(" " + event + " ") != std::string::npos) return line;
    return "";
}

// Columns on a terminal: the plus-minus sign is two bytes and one column.
std::size_t column_of(const std::string& line, const std::string& what) {
    const std::size_t at = line.find(what);
    if (at == std::string::npos) return at;
    std::size_t column = 0;
    for (std::size_t i = 0; i < at; ++i) column += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
    return column;
}

TEST(ReportText, AnEstimateShowsItsIntervalAndTheColumnsStayAligned) {
    RunDescription run;
    run.command = {"./matmul"};
    run.sampled_timing = true;
    const std::string text = format_text(run, an_exact_and_an_estimated_event(), one_process());
    const std::string cycles = line_of(text, "PAPI_TOT_CYC");
    const std::string instructions = line_of(text, "PAPI_TOT_INS");
    EXPECT_NE(cycles.find("14,658,128 " + kPlusMinus + " 21,050 (0.1 %, 99.7 %)   PAPI_TOT_CYC"), std::string::npos)
        << text;
    EXPECT_EQ(instructions.find(kPlusMinus), std::string::npos) << text;
    // Counts end in one column, and names start in one.
    EXPECT_EQ(column_of(cycles, "14,658,128") + 10, column_of(instructions, "451,989,620") + 11) << text;
    EXPECT_EQ(column_of(cycles, "PAPI_TOT_CYC"), column_of(instructions, "PAPI_TOT_INS")) << text;
    EXPECT_EQ(column_of(cycles, "global_power_events"), column_of(instructions, "instr_retired")) << text;
    // Said once, in the footer.
    EXPECT_NE(text.find("--timing=sampled: architectural events are exact"), std::string::npos) << text;
    EXPECT_EQ(text.find("--timing=sampled"), text.rfind("--timing=sampled")) << text;
}

// An exact run's report is what it was before sampled timing existed.
TEST(ReportText, AnExactRunHasNoIntervalsAndNoTimingLine) {
    RunDescription run;
    run.command = {"./matmul"};
    std::vector<EventValue> events = an_exact_and_an_estimated_event();
    events[1].estimated = false;
    events[1].half_width = 0;
    const std::string text = format_text(run, events, one_process());
    // "  %20s   %-22s %s"
    EXPECT_EQ(line_of(text, "PAPI_TOT_CYC"),
              "  " + std::string(10, ' ') + "14,658,128   PAPI_TOT_CYC" + std::string(11, ' ') +
                  "global_power_events:RUNNING");
    EXPECT_EQ(text.find(kPlusMinus), std::string::npos) << text;
    EXPECT_EQ(text.find("--timing"), std::string::npos) << text;
}

TEST(ReportText, UnsupportedEventsShowNoInterval) {
    RunDescription run;
    run.sampled_timing = true;
    std::vector<EventValue> events = an_exact_and_an_estimated_event();
    events[1].unsupported = true;
    const std::string text = format_text(run, events, one_process());
    EXPECT_EQ(text.find(kPlusMinus + " 21,050"), std::string::npos) << text;
    EXPECT_NE(line_of(text, "PAPI_TOT_CYC").find("unsupported"), std::string::npos) << text;
}

TEST(ReportJson, AnEstimateCarriesItsHalfWidthAndExactEventsDoNot) {
    RunDescription run;
    run.command = {"./matmul"};
    run.sampled_timing = true;
    const nlohmann::json j = nlohmann::json::parse(format_json(run, an_exact_and_an_estimated_event(), one_process()));
    EXPECT_EQ(j.at("emulator").at("timing"), "sampled");
    const nlohmann::json& events = j.at("events");
    ASSERT_EQ(events.size(), 2u);
    EXPECT_FALSE(events[0].contains("estimated"));
    EXPECT_FALSE(events[0].contains("ci_half_width"));
    EXPECT_EQ(events[1].at("value"), 14658128);
    EXPECT_EQ(events[1].at("estimated"), true);
    EXPECT_EQ(events[1].at("ci_half_width"), 21050);
    run.sampled_timing = false;
    EXPECT_EQ(nlohmann::json::parse(format_json(run, {}, one_process())).at("emulator").at("timing"), "exact");
}

}  // namespace
