// Branch prediction: static fallback on a BTB miss, the loop exit mispredicted once per loop (loops longer than
// the global history), short loops learned completely, the return stack, indirect branches, and the retired
// branch events by class.
#include <gtest/gtest.h>

#include "emulator/core/branch_predictor.h"
#include "tests/core/core_test_util.h"

namespace netburst::emu::test {
namespace {

struct Predictor {
    BranchPredictor bp;
    Predictor() { bp.reset(4096, 4, 16); }
    bool mispredicted(const Instruction& i) { return bp.predict_and_update(i.thread, i, i.pc).mispredicted; }
};

TEST(CorePredictor, StaticFallbackOnBtbMiss) {
    Predictor p;
    EXPECT_FALSE(p.mispredicted(branch(0x1000, 0x0F00, true)));    // backward taken: predicted
    EXPECT_FALSE(p.mispredicted(branch(0x2000, 0x2100, false)));   // forward not taken: predicted
    EXPECT_TRUE(p.mispredicted(branch(0x3000, 0x3100, true)));     // forward taken: mispredicted
    EXPECT_TRUE(p.mispredicted(branch(0x4000, 0x3F00, false)));    // backward not taken: mispredicted
    EXPECT_FALSE(p.mispredicted(branch(0x5000, 0x9000, true, InsnClass::DirectJump)));  // direct: decoder target
    EXPECT_FALSE(p.mispredicted(branch(0x6000, 0x9000, true, InsnClass::DirectCall)));
    EXPECT_TRUE(p.mispredicted(branch(0x7000, 0x9000, true, InsnClass::IndirectJump)));  // no target known
}

TEST(CorePredictor, LongLoopMispredictsOnceAtExit) {
    Predictor p;
    const unsigned trips = 50, loops = 20;
    unsigned mispredicts_after_warmup = 0;
    for (unsigned l = 0; l < loops; ++l) {
        for (unsigned i = 0; i < trips; ++i) {
            const bool m = p.mispredicted(branch(0x1000, 0x0F00, i + 1 != trips));
            if (l >= 2) mispredicts_after_warmup += m ? 1 : 0;
            if (l >= 2 && i + 1 == trips) {
                EXPECT_TRUE(m) << "the exit of loop " << l;
            }
        }
    }
    EXPECT_EQ(mispredicts_after_warmup, loops - 2);  // exactly one per loop, at the exit
}

TEST(CorePredictor, ShortLoopExitIsLearned) {
    // An eight-iteration loop is within the 16 branches of history: after warm-up nothing mispredicts.
    Predictor p;
    unsigned late = 0;
    for (unsigned l = 0; l < 40; ++l)
        for (unsigned i = 0; i < 8; ++i)
            if (p.mispredicted(branch(0x1000, 0x0F00, i != 7)) && l >= 20) ++late;
    EXPECT_EQ(late, 0u);
}

TEST(CorePredictor, AlternatingBranchIsLearned) {
    Predictor p;
    unsigned late = 0;
    for (unsigned i = 0; i < 200; ++i)
        if (p.mispredicted(branch(0x2000, 0x2100, i % 2 == 0)) && i >= 100) ++late;
    EXPECT_EQ(late, 0u);
}

TEST(CorePredictor, ReturnStackPredictsMatchedReturns) {
    Predictor p;
    // call f; f: call g; g: ret; ret
    EXPECT_FALSE(p.mispredicted(branch(0x1000, 0x5000, true, InsnClass::DirectCall)));
    EXPECT_FALSE(p.mispredicted(branch(0x5010, 0x6000, true, InsnClass::DirectCall)));
    EXPECT_FALSE(p.mispredicted(branch(0x6004, 0x5012, true, InsnClass::Return)));
    EXPECT_FALSE(p.mispredicted(branch(0x5020, 0x1002, true, InsnClass::Return)));
    EXPECT_TRUE(p.mispredicted(branch(0x5020, 0x1002, true, InsnClass::Return)));  // empty stack
    EXPECT_EQ(p.bp.rsb_depth(0), 0u);
}

TEST(CorePredictor, ReturnStackOverflowsAfterSixteen) {
    Predictor p;
    const unsigned depth = 20;
    for (unsigned d = 0; d < depth; ++d) p.mispredicted(branch(0x1000 + d * 0x100, 0x1000 + (d + 1) * 0x100, true,
                                                               InsnClass::DirectCall));
    unsigned wrong = 0;
    for (unsigned d = depth; d-- > 0;)
        if (p.mispredicted(branch(0x1000 + (d + 1) * 0x100 + 0x80, 0x1000 + d * 0x100 + 2, true, InsnClass::Return)))
            ++wrong;
    EXPECT_EQ(wrong, depth - 16);  // the 16 innermost are predicted, the 4 outermost were overwritten
}

TEST(CorePredictor, IndirectBranchUsesTheLastTarget) {
    Predictor p;
    EXPECT_TRUE(p.mispredicted(branch(0x1000, 0x8000, true, InsnClass::IndirectJump)));
    EXPECT_FALSE(p.mispredicted(branch(0x1000, 0x8000, true, InsnClass::IndirectJump)));
    EXPECT_TRUE(p.mispredicted(branch(0x1000, 0x9000, true, InsnClass::IndirectJump)));
}

TEST(CorePredictor, RetiredBranchEventsThroughTheCore) {
    Harness h;
    // A 50-iteration loop run 10 times: 500 conditional branches, 10 exits (9 mispredicted after the first loop
    // establishes the pattern; the first exit is mispredicted too).
    for (unsigned l = 0; l < 10; ++l)
        for (unsigned i = 0; i < 50; ++i) {
            h.run(alu(0x401000, reg_gpr(1), reg_gpr(1) | kRegFlags));
            h.run(branch(0x401003, 0x401000, i != 49));
        }
    h.run(branch(0x401010, 0x402000, true, InsnClass::DirectCall));
    h.run(branch(0x402000, 0x401012, true, InsnClass::Return));
    h.run(branch(0x401012, 0x403000, true, InsnClass::IndirectCall));
    h.run(branch(0x403000, 0x401014, true, InsnClass::Return));
    h.run(branch(0x401014, 0x401020, true, InsnClass::DirectJump));
    h.run(branch(0x401020, 0x401040, true, InsnClass::IndirectJump));
    const Totals& t = h.totals();
    EXPECT_TRUE(h.ok()) << h.problem();
    const std::uint64_t cond = t.count(EventId::RetiredBranchType, 1);
    EXPECT_EQ(cond, 500u);
    EXPECT_EQ(t.count(EventId::RetiredBranchType, 2), 2u);  // CALL: direct and indirect
    EXPECT_EQ(t.count(EventId::RetiredBranchType, 3), 2u);  // RETURN
    EXPECT_EQ(t.count(EventId::RetiredBranchType, 4), 4u);  // INDIRECT: 2 returns, indirect call, indirect jump
    EXPECT_EQ(t.count(EventId::RetiredBranchType, 0), 1u);  // UNCONDITIONAL: the direct jump
    const std::uint64_t all = t.count(EventId::BranchRetired, 0) + t.count(EventId::BranchRetired, 1) +
                              t.count(EventId::BranchRetired, 2) + t.count(EventId::BranchRetired, 3);
    EXPECT_EQ(all, 506u);
    EXPECT_EQ(t.count(EventId::BranchRetired, 1), 10u);  // MMNM: every exit
    const std::uint64_t mispredicted = t.count(EventId::BranchRetired, 1) + t.count(EventId::BranchRetired, 3);
    EXPECT_EQ(t.count(EventId::MispredBranchRetired, 0), mispredicted);
    // The indirect call and the indirect jump were new (no BTB target): mispredicted, so INDIRECT and CALL.
    EXPECT_EQ(t.count(EventId::RetiredMispredBranchType, 1), 10u);
    EXPECT_EQ(t.count(EventId::RetiredMispredBranchType, 2), 1u);
    EXPECT_EQ(t.count(EventId::RetiredMispredBranchType, 4), 2u);
    EXPECT_EQ(h.core().detail(0).mispredicts, mispredicted);
    // Every mispredicted branch uop carries the Tagged_mispred_branch replay cause.
    EXPECT_EQ(t.causes[cause_index(kReplayMispredBranch)], mispredicted);
}

}  // namespace
}  // namespace netburst::emu::test
