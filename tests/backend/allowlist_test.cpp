// The allow-list: what the kernel MSR backend may touch on each model, derived from the hardware table, and the
// shipped msr-safe files that must stay equal to what the table generates.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "backend/msr_allowlist.h"
#include "table/cpu_model.h"
#include "table/registers.h"

using namespace netburst;
using namespace netburst::component;

TEST(AllowList, EveryPmuRegisterOfTheModelAndNothingElse) {
    const MsrAllowList m2(2), m3(3);
    // 18 counters, 18 CCCRs, the ESCRs of the model, IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT, IA32_MISC_ENABLE.
    EXPECT_EQ(m2.size(), 18u + 18u + 45u + 3u);
    EXPECT_EQ(m3.size(), 18u + 18u + 43u + 3u) << "IQ_ESCR0/1 exist only up to model 2";
    EXPECT_TRUE(m2.find(0x3BA) && m2.find(0x3BB));
    EXPECT_FALSE(m3.find(0x3BA) || m3.find(0x3BB));
    for (unsigned c = 0; c < kNumCounters; ++c) {
        EXPECT_TRUE(m3.find(0x300 + c)) << c;
        EXPECT_TRUE(m3.find(0x360 + c)) << c;
    }
    // Not PMU registers, or PMU registers the component never needs.
    for (std::uint32_t msr : {0x10u, 0x1Bu, 0xC1u, 0x186u, 0x2FFu, 0x312u, 0x35Fu, 0x372u, 0x3BFu, 0x3C6u, 0x3E2u,
                              kMsrTcPreciseEvent, kMsrDsArea, 0x1D9u})
        EXPECT_FALSE(m2.find(msr)) << std::hex << msr;
    // Sorted, no duplicates (msr-safe rejects a list with duplicates).
    for (unsigned i = 1; i < m2.size(); ++i) EXPECT_LT(m2[i - 1].msr, m2[i].msr);
}

TEST(AllowList, WriteMasksAreTheBitsTheComponentProgramsOnly) {
    const MsrAllowList m2(2), m1(1);
    EXPECT_EQ(m2.find(0x300)->write_mask, 0xFFFFFFFFFFull) << "40-bit counters";
    EXPECT_EQ(m2.find(0x3A0)->write_mask, 0x7FFFFFFFull) << "ESCR bits 30:0";
    EXPECT_EQ(m2.find(kMsrMiscEnable)->write_mask, 0u) << "read-only";
    const std::uint64_t cccr = m2.find(0x360)->write_mask;
    EXPECT_TRUE(cccr & (1ull << kCccrEnableBit));
    EXPECT_TRUE(cccr & (1ull << kCccrOvfBit)) << "OVF is written back as 0 to acknowledge a wrap";
    for (unsigned bit : {25u, 26u, 27u, 30u, 11u})  // FORCE_OVF, OVF_PMI_T0/T1, cascade, extended cascade
        EXPECT_FALSE(cccr & (1ull << bit)) << bit;
    EXPECT_EQ(m2.find(0x36C)->write_mask, cccr) << "no extended cascading either";
    EXPECT_EQ(m1.find(0x36C)->write_mask, cccr);
    // No PEBS sampling: ENABLE_PEBS and ENABLE_PEBS_OTH_THR stay out; the replay-tagging bits are in.
    const std::uint64_t pebs = m2.find(kMsrPebsEnable)->write_mask;
    EXPECT_FALSE(pebs & (1ull << kPebsEnableMyThreadBit));
    EXPECT_FALSE(pebs & (1ull << kPebsEnableOtherThreadBit));
    EXPECT_TRUE(pebs & (1ull << kPebsEnableUopTagBit));
    EXPECT_EQ(pebs, 0x01018607u);
    EXPECT_EQ(m2.find(kMsrPebsMatrixVert)->write_mask, 0x13u);
}

TEST(AllowList, MayWriteChecksAddressAndMask) {
    const MsrAllowList m(2);
    EXPECT_TRUE(m.may_write(0x3B8, 0x0C000204));
    EXPECT_FALSE(m.may_write(0x3B8, 0x80000000)) << "ESCR bit 31 is reserved";
    EXPECT_FALSE(m.may_write(0x364, 1ull << 26)) << "OVF_PMI_T0";
    EXPECT_FALSE(m.may_write(0x300, 1ull << 40));
    EXPECT_FALSE(m.may_write(kMsrMiscEnable, 0));
    EXPECT_FALSE(m.may_write(0x10, 0));
    EXPECT_FALSE(m.may_write(kMsrPebsEnable, 1ull << kPebsEnableMyThreadBit));
}

TEST(AllowList, FileFormatIsMsrSafes) {
    const std::string text = format_msr_safe_allowlist(MsrAllowList(3));
    std::istringstream in(text);
    std::string line;
    unsigned entries = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        // "0xADDRESS 0xWRITEMASK # name": 10 + 1 + 18 characters before the comment.
        ASSERT_GT(line.size(), 32u) << line;
        EXPECT_EQ(line.substr(0, 2), "0x");
        EXPECT_EQ(line[10], ' ');
        EXPECT_EQ(line.substr(11, 2), "0x");
        EXPECT_EQ(line.substr(29, 3), " # ");
        ++entries;
    }
    EXPECT_EQ(entries, MsrAllowList(3).size());
    EXPECT_NE(text.find("0x000003A0 0x000000007FFFFFFF # MSR_BSU_ESCR0"), std::string::npos);
    EXPECT_EQ(msr_safe_allowlist_name(6), "al_0F_06");
}

// data/msr-safe/al_0F_* are generated (make msr-allowlists); this keeps the committed copies current.
TEST(AllowList, ShippedFilesAreCurrent) {
    const char* srcdir = std::getenv("srcdir");
    for (unsigned model : {0u, 1u, 2u, 3u, 4u, 6u}) {
        const std::string path =
            std::string(srcdir ? srcdir : ".") + "/data/msr-safe/" + msr_safe_allowlist_name(model);
        std::ifstream f(path);
        ASSERT_TRUE(f) << path;
        std::stringstream ss;
        ss << f.rdbuf();
        EXPECT_EQ(ss.str(), format_msr_safe_allowlist(MsrAllowList(model)))
            << "run `make msr-allowlists` and commit " << path;
    }
}
