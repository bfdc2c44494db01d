// Event coverage: every event and mask bit of the hardware table is classified, with a note, and the
// classification agrees with what the model emits.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "emulator/core/doc/coverage_markdown.h"
#include "emulator/model/coverage.h"
#include "tests/core/core_test_util.h"

namespace netburst::emu::test {
namespace {

TEST(CoreCoverage, EveryEventHasANoteAndEveryBitAClass) {
    unsigned modelled = 0, approximate = 0, not_modelled = 0;
    for (unsigned e = 0; e < kNumEvents; ++e) {
        const EventId id = static_cast<EventId>(e);
        const char* note = coverage_note(id);
        ASSERT_NE(note, nullptr);
        EXPECT_GT(std::strlen(note), 10u) << event_def(id).name;
        const std::uint16_t valid = valid_mask_bits(event_def(id));
        for (unsigned bit = 0; bit < 16; ++bit) {
            const Coverage c = coverage(id, bit);
            if ((valid >> bit & 1) == 0) {
                EXPECT_EQ(c, Coverage::NotModelled) << event_def(id).name << " bit " << bit;
                continue;
            }
            if (c == Coverage::Modelled) ++modelled;
            if (c == Coverage::Approximate) ++approximate;
            if (c == Coverage::NotModelled) ++not_modelled;
        }
    }
    EXPECT_GT(modelled, 20u);
    EXPECT_GT(approximate, 20u);
    EXPECT_GT(not_modelled, 10u);
    EXPECT_EQ(coverage(EventId::Count_, 0), Coverage::NotModelled);
}

TEST(CoreCoverage, UndocumentedBusEventsAreNotModelled) {
    for (EventId id : {EventId::B2bCycles, EventId::Bnr, EventId::Snoop, EventId::Response})
        for (unsigned bit = 0; bit < 16; ++bit) EXPECT_EQ(coverage(id, bit), Coverage::NotModelled);
    EXPECT_EQ(coverage(EventId::IoqAllocation, 14), Coverage::NotModelled);     // OTHER
    EXPECT_EQ(coverage(EventId::FsbDataActivity, 2), Coverage::NotModelled);    // DRDY_OTHER
    // HITS counts zero by construction (no other caching agent, so nothing is ever Shared), which makes it
    // countable: PAPI_L2_TCH and PAPI_L2_TCA OR it in.
    EXPECT_EQ(coverage(EventId::BsqCacheReference, 0), Coverage::Approximate);
    EXPECT_EQ(coverage(EventId::MachineClear, 2), Coverage::NotModelled);       // MOCLEAR
    EXPECT_EQ(coverage(EventId::X87Assist, 0), Coverage::NotModelled);
    EXPECT_EQ(coverage(EventId::GlobalPowerEvents, 0), Coverage::Modelled);
    EXPECT_EQ(coverage(EventId::BranchRetired, 3), Coverage::Modelled);
}

// Everything the model emits on a varied run is classified Modelled or Approximate, never NotModelled.
TEST(CoreCoverage, EmittedEventsAreCovered) {
    Harness h(EmulatedMachine{}.with_ht().with_l3());
    std::vector<Instruction> a, b;
    std::uint64_t x = 5;
    for (unsigned i = 0; i < 4000; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint64_t pc = 0x401000 + (i % 200) * 4;
        switch ((x >> 40) % 9) {
        case 0: a.push_back(load(pc, 0x10000000 + (x >> 16) % (1 << 24), 8, 0, reg_gpr(0))); break;
        case 1: a.push_back(store(pc, 0x20000000 + (x >> 16) % (1 << 24), 8, reg_gpr(0))); break;
        case 2: a.push_back(branch(pc, pc + 64, (x >> 30) & 1)); break;
        case 3: a.push_back(of_class(pc, InsnClass::X87Complex, kRegX87, kRegX87)); break;
        case 4: a.push_back(of_class(pc, InsnClass::SsePackedDp, reg_xmm(1), reg_xmm(1))); break;
        case 5: a.push_back(load(pc, 0x30000000 + (x >> 20) % 4096 + 61, 8, 0, reg_gpr(1))); break;
        case 6: a.push_back(branch(pc, 0x500000, true, InsnClass::IndirectCall)); break;
        case 7: a.push_back(branch(pc, pc + 4, true, InsnClass::Return)); break;
        default: a.push_back(alu(pc, reg_gpr(2), reg_gpr(2) | kRegFlags)); break;
        }
        b.push_back(load(0x601000 + (i % 50) * 4, 0x40000000 + i * 64, 4, 0, reg_gpr(3), 1));
    }
    a.push_back(store(0x401100, 0x401004, 4, 0));  // self-modifying
    h.run_smt(a, b);
    EXPECT_TRUE(h.ok()) << h.problem();
    for (unsigned t = 0; t < 2; ++t)
        for (unsigned e = 0; e < kNumEvents; ++e)
            for (unsigned bit = 0; bit < 16; ++bit)
                if (h.totals(t).events[e][bit] != 0) {
                    EXPECT_NE(coverage(static_cast<EventId>(e), bit), Coverage::NotModelled)
                        << event_def(static_cast<EventId>(e)).name << " bit " << bit;
                }
}

TEST(CoreCoverage, CommittedDocumentIsCurrent) {
    const char* srcdir = std::getenv("srcdir");
    if (srcdir == nullptr) GTEST_SKIP() << "srcdir not set (run through make check)";
    std::ifstream in(std::string(srcdir) + "/doc/emulator-coverage.md");
    ASSERT_TRUE(in.good()) << "doc/emulator-coverage.md missing";
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_TRUE(text.str() == coverage_markdown()) << "doc/emulator-coverage.md is stale: run make doc-coverage";
}

}  // namespace
}  // namespace netburst::emu::test
