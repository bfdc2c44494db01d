// MemoProbe (emulator/memo_probe.h): a mechanism test of the probed memo's bound. A memo of N states
// that forgets the least recently used hits every repeat of a cycle of at most N blocks that share a set, and none
// of a cycle of N + 1 (each block is forgotten just before it comes back); the hit rates it prints for a workload
// depend on that.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "emulator/memo_probe.h"

namespace netburst::emu {
namespace {

// Runs `rounds` passes over `blocks` one-instruction blocks (pc 1, 2, ...; each ends with its branch) through a
// probe of 2^log2_slots states. The timing state is the same at every block, so the keys differ only by pc.
MemoProbe run_cycle(std::vector<std::uint64_t>& table, unsigned log2_slots, unsigned blocks, unsigned rounds) {
    table.assign(std::size_t{1} << log2_slots, 0);
    MemoProbe probe(table.data(), log2_slots);
    auto outcome = std::make_unique<Outcome>();
    for (unsigned r = 0; r < rounds; ++r) {
        for (unsigned b = 1; b <= blocks; ++b) {
            probe.before(b, [] { return Core::TimingState{42, 0}; });
            probe.after(*outcome, true);
        }
    }
    probe.before(0, [] { return Core::TimingState{42, 0}; });  // closes the last block
    return probe;
}

TEST(MemoProbe, ACycleThatFitsHitsOnEveryRepeat) {
    std::vector<std::uint64_t> table;
    const MemoProbe p = run_cycle(table, MemoProbe::kLog2Ways, 8, 5);  // one set of eight
    EXPECT_EQ(p.blocks(), 40u);
    EXPECT_EQ(p.stored(), 8u);
    EXPECT_EQ(p.hits(), 32u);
    EXPECT_EQ(p.evicted(), 0u);
}

TEST(MemoProbe, ACycleOneLongerThanTheMemoForgetsEachBlockBeforeItReturns) {
    std::vector<std::uint64_t> table;
    const MemoProbe p = run_cycle(table, MemoProbe::kLog2Ways, 9, 5);
    EXPECT_EQ(p.blocks(), 45u);
    EXPECT_EQ(p.hits(), 0u);
    EXPECT_EQ(p.stored(), 45u);
    EXPECT_EQ(p.evicted(), 37u);
}

TEST(MemoProbe, ALargerMemoKeepsWhatASmallerOneForgets) {
    std::vector<std::uint64_t> table;
    // 64 sets of eight: 9 blocks spread over the sets (the key is a hash) and all fit.
    const MemoProbe p = run_cycle(table, MemoProbe::kLog2Ways + 6, 9, 5);
    EXPECT_EQ(p.stored(), 9u);
    EXPECT_EQ(p.hits(), 36u);
}

}  // namespace
}  // namespace netburst::emu
