// The progress line's reading of the tool's count files and its wording.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "emulator/run/progress.h"

using namespace netburst::emu::run;

namespace {

TEST(Progress, AddsTheWholeLinesOfEveryProcess) {
    std::string dir = ::testing::TempDir() + "progress.XXXXXX";
    ASSERT_NE(mkdtemp(dir.data()), nullptr);
    std::ofstream(dir + "/progress-100") << "00000000000000001000\n";
    std::ofstream(dir + "/progress-101") << "00000000000000000234\n";
    std::ofstream(dir + "/progress-102") << "0000000005";      // caught half-written: skipped until the next poll
    std::ofstream(dir + "/nb-100-0") << "00000000000000009999\n";  // a results file, not a count
    EXPECT_EQ(read_progress(dir), 1234u);
    EXPECT_EQ(read_progress(dir + "/missing"), 0u);
    std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(Progress, Text) { EXPECT_EQ(progress_text(12345678, 3.2e6), "12,345,678 guest instructions, 3.2 M/s"); }

}  // namespace
