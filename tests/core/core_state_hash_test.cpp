// Core::timing_state, the timing memo's key (emulator/memo_probe.h): a mechanism test. The key must
// repeat when the machine is in the same state at another time, and differ while something the next instructions
// would wait for is still pending.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "emulator/core/state_hash.h"
#include "tests/core/core_test_util.h"

namespace netburst::emu {
namespace {

using test::alu;
using test::branch;
using test::Harness;
using test::load;
using test::of_class;

constexpr RegMask kRax = reg_gpr(0), kRcx = reg_gpr(1), kRdx = reg_gpr(2);

// A loop body: a dependent add chain, an independent load that hits, the counter and the branch back.
std::vector<Instruction> loop_body() {
    return {alu(0x1000, kRax, kRax), alu(0x1003, kRax, kRax), load(0x1006, 0x50000, 8, kRdx, kRcx),
            alu(0x100a, kRdx, kRdx | kRegFlags), branch(0x100d, 0x1000, true)};
}

// The state keys at the start of each of the last `keep` of `iterations` loop iterations.
std::set<std::uint64_t> steady_keys(Harness& h, unsigned iterations, unsigned keep) {
    std::set<std::uint64_t> keys;
    for (unsigned i = 0; i < iterations; ++i) {
        if (i >= iterations - keep) keys.insert(h.core().timing_state(0).hash);
        h.run_all(loop_body());
    }
    return keys;
}

TEST(TimingStateHash, ALoopInSteadyStateRepeatsItsKeys) {
    Harness h;
    const std::set<std::uint64_t> keys = steady_keys(h, 3000, 960);
    ASSERT_TRUE(h.ok()) << h.problem();
    // 960 iterations at different cycles. The loop takes 5 cycles per 3 iterations (15 uops at the trace cache's 3
    // a cycle), and global_power_events:RUNNING goes out in 32-cycle intervals of absolute time, which the state
    // holds: the state repeats every lcm(5, 32) = 160 cycles, 96 iterations.
    EXPECT_EQ(keys.size(), 96u);
}

TEST(TimingStateHash, TheSameStateLaterInTimeHasTheSameKey) {
    Harness early, late;
    // `late` first runs a chain of divides: thousands of cycles, then the same loop.
    for (unsigned i = 0; i < 40; ++i) late.run(of_class(0x2000 + 4 * i, InsnClass::IntDiv, kRcx, kRcx));
    const std::set<std::uint64_t> a = steady_keys(early, 3000, 960), b = steady_keys(late, 3000, 960);
    ASSERT_TRUE(early.ok() && late.ok());
    EXPECT_GT(late.core().now(), early.core().now() + 1000) << "the divides should have taken time";
    EXPECT_EQ(a, b);
}

TEST(TimingStateHash, APendingLongOperationChangesTheKey) {
    Harness h;
    const std::set<std::uint64_t> steady = steady_keys(h, 3000, 960);
    // A load that misses every cache writes rcx long after the loop's instructions: the next reader would wait.
    h.run(load(0x3000, 0x7000000, 8, kRdx, kRcx));
    EXPECT_EQ(steady.count(h.core().timing_state(0).hash), 0u);
}

TEST(StateHash, PoolsHashTheirTimesWhateverEntryHoldsWhich) {
    const Tick a[4] = {100, 250, 90, 400}, b[4] = {400, 95, 100, 250};
    StateHash x(100), y(100), z(100);
    x.add_pool(a, 4);
    y.add_pool(b, 4);  // 90 and 95 are both past the reference: the same
    const Tick c[4] = {100, 250, 90, 401};
    z.add_pool(c, 4);
    EXPECT_EQ(x.value(), y.value());
    EXPECT_NE(x.value(), z.value());
}

}  // namespace
}  // namespace netburst::emu
