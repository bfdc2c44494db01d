// The 32-bit libpapi inside an i386 program: examples/papi_matmul.c built -m32 against it
// (examples/papi_matmul32), run on the emulated Pentium 4 by netburst-run, counts exactly, the way the 64-bit build
// of the same program does. Skipped when configure did not build the 32-bit libpapi ($NB_PAPI_MATMUL32 empty).
//
// What "exact" means for a matrix multiply: the counts between PAPI_start and PAPI_stop are a polynomial of degree
// 3 in n (the loop nests; n a multiple of the block size for the blocked kernel) plus the constant cost of PAPI's
// own start and stop, so over five sizes in equal steps h their fourth difference is 0. For the plain i-j-k kernel
// only the innermost loop runs n^3 times, so the third difference is 6 h^3 times what one of its iterations retires.
// A count that drifts, is sampled or loses events breaks both.
#include <gtest/gtest.h>

#include "tests/tools/run_tool.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using json = nlohmann::json;
using Counts = std::map<std::string, long long>;

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

// A directory of its own for each run's high-level output, removed afterwards.
class TempDir {
public:
    TempDir() {
        char name[] = "/tmp/papi32_test.XXXXXX";
        if (mkdtemp(name)) path_ = name;
    }
    ~TempDir() {
        if (!path_.empty()) std::system(("rm -rf '" + path_ + "'").c_str());
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// What papi_matmul reports: the low-level event set around each kernel, and the high-level region (the blocked
// kernel again) with the events of $PAPI_EVENTS, from the JSON PAPI writes at exit.
struct Matmul {
    int status = -1;
    std::string output;
    Counts plain, blocked, region;
};

constexpr int kBlock = 16;
constexpr const char* kRegionEvents = "PAPI_TOT_INS,PAPI_BR_INS,PAPI_FP_OPS";

Counts region_counts(const std::string& dir) {
    Counts out;
    const std::string hl = dir + "/papi_hl_output";
    DIR* d = opendir(hl.c_str());
    if (!d) return out;
    std::string file;
    while (dirent* e = readdir(d))
        if (std::string(e->d_name).find(".json") != std::string::npos) file = hl + "/" + e->d_name;
    closedir(d);
    std::ifstream in(file);
    if (!in) return out;
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded()) return out;
    const json& region = j["threads"]["0"]["regions"]["0"];
    for (auto it = region.begin(); it != region.end(); ++it)
        if (it.key().rfind("PAPI_", 0) == 0) out[it.key()] = std::stoll(it.value().get<std::string>());
    return out;
}

Matmul run_matmul(const std::string& program, int n, const std::string& environment = "") {
    Matmul m;
    TempDir dir;
    const std::string command = "PAPI_EVENTS=" + std::string(kRegionEvents) + " PAPI_OUTPUT_DIRECTORY=" + dir.path() +
                                " " + environment + " " + env("NETBURST_RUN") + " --no-64-bit-note -- " + program +
                                " " + std::to_string(n) + " " + std::to_string(kBlock);
    const netburst::testtools::ToolRun r = netburst::testtools::run_command(command);
    m.status = r.status;
    m.output = r.out + r.err;
    std::istringstream in(m.output);
    std::string line;
    Counts* into = nullptr;
    while (std::getline(in, line)) {
        if (line.rfind("plain", 0) == 0) into = &m.plain;
        if (line.rfind("blocked", 0) == 0) into = &m.blocked;
        std::istringstream words(line);
        std::string name;
        long long value;
        if (into && words >> name >> value && name.rfind("PAPI_", 0) == 0) (*into)[name] = value;
    }
    m.region = region_counts(dir.path());
    return m;
}

std::string matmul32() { return env("NB_PAPI_MATMUL32"); }

// Five sizes in steps of the block size, and the kernel counts of each.
constexpr std::array<int, 5> kSizes = {16, 32, 48, 64, 80};
constexpr long long kStep = 16;

struct Series {
    std::array<long long, 5> v{};
    long long fourth_difference() const { return v[4] - 4 * v[3] + 6 * v[2] - 4 * v[1] + v[0]; }
    long long third_difference() const { return v[3] - 3 * v[2] + 3 * v[1] - v[0]; }
};

// Runs the program at the five sizes; series["plain PAPI_TOT_INS"], ["region PAPI_BR_INS"], ...
std::map<std::string, Series> series_of(const std::string& program) {
    std::map<std::string, Series> out;
    for (std::size_t i = 0; i < kSizes.size(); ++i) {
        const Matmul m = run_matmul(program, kSizes[i]);
        EXPECT_EQ(m.status, 0) << program << " " << kSizes[i] << "\n" << m.output;
        const std::pair<const char*, const Counts*> parts[] = {{"plain", &m.plain}, {"blocked", &m.blocked},
                                                               {"region", &m.region}};
        for (const auto& [part, counts] : parts)
            for (const auto& [event, value] : *counts) out[std::string(part) + " " + event].v[i] = value;
    }
    return out;
}

}  // namespace

// The i386 libpapi counts x87 floating point by default (component/preset_choice.h): gcc -m32 computes on the
// x87 stack, and every one of the 2 n^3 operations is an x87 uop. $PAPI_NETBURST_FP=sse counts SSE instead, of
// which this program has none: the default is what makes the count.
TEST(Papi32, FloatingPointIsX87ByDefault) {
    if (matmul32().empty()) GTEST_SKIP() << "configure did not build the 32-bit libpapi";
    constexpr int n = 32;
    constexpr long long kOperations = 2LL * n * n * n;
    Matmul m = run_matmul(matmul32(), n);
    ASSERT_EQ(m.status, 0) << m.output;
    EXPECT_NE(m.output.find("PAPI component 0: emulated Pentium 4"), std::string::npos) << m.output;
    EXPECT_EQ(m.plain["PAPI_FP_INS"], kOperations) << m.output;
    EXPECT_EQ(m.blocked["PAPI_FP_INS"], kOperations) << m.output;
    EXPECT_EQ(m.region["PAPI_FP_OPS"], kOperations) << m.output;
    EXPECT_GT(m.plain["PAPI_TOT_CYC"], m.plain["PAPI_TOT_INS"] / 4) << m.output;
    EXPECT_GT(m.region["PAPI_BR_INS"], n * n * n / 2) << m.output;

    Matmul sse = run_matmul(matmul32(), n, "PAPI_NETBURST_FP=sse");
    ASSERT_EQ(sse.status, 0) << sse.output;
    EXPECT_EQ(sse.plain["PAPI_FP_INS"], 0) << sse.output;
    EXPECT_EQ(sse.region["PAPI_FP_OPS"], 0) << sse.output;
}

// Instructions and branches through the low-level and the high-level API are exact polynomials in n, and the
// plain kernel's innermost loop retires as many instructions per iteration as the x86-64 build's: gcc -O2 makes
// both 7 (a load, a multiply from memory and an add: fldl, fmull, faddp or movsd, mulsd, addsd; two pointer steps,
// the compare and the branch).
TEST(Papi32, InstructionAndBranchCountsAreExact) {
    if (matmul32().empty()) GTEST_SKIP() << "configure did not build the 32-bit libpapi";
    const auto s32 = series_of(matmul32());
    const auto s64 = series_of(env("NB_PAPI_MATMUL"));
    constexpr long long kSixStepsCubed = 6 * kStep * kStep * kStep;
    for (const char* name : {"plain PAPI_TOT_INS", "blocked PAPI_TOT_INS", "region PAPI_TOT_INS",
                             "region PAPI_BR_INS", "plain PAPI_FP_INS", "region PAPI_FP_OPS"}) {
        ASSERT_TRUE(s32.count(name)) << name;
        const Series& s = s32.at(name);
        EXPECT_GT(s.v[0], 0) << name;
        EXPECT_EQ(s.fourth_difference(), 0) << name << ": " << s.v[0] << " " << s.v[1] << " " << s.v[2] << " "
                                            << s.v[3] << " " << s.v[4];
    }
    // 2 floating-point operations per innermost iteration, and 7 instructions in the plain kernel's, as in x86-64.
    EXPECT_EQ(s32.at("plain PAPI_FP_INS").third_difference(), 2 * kSixStepsCubed);
    EXPECT_EQ(s32.at("region PAPI_FP_OPS").third_difference(), 2 * kSixStepsCubed);
    ASSERT_TRUE(s64.count("plain PAPI_TOT_INS"));
    EXPECT_EQ(s64.at("plain PAPI_TOT_INS").fourth_difference(), 0);
    EXPECT_EQ(s32.at("plain PAPI_TOT_INS").third_difference(), 7 * kSixStepsCubed);
    EXPECT_EQ(s32.at("plain PAPI_TOT_INS").third_difference(), s64.at("plain PAPI_TOT_INS").third_difference());
}
