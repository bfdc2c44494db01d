// The shadow call stack behind `netburst-run record -g` (emulator/sampling/shadow_stack.h): calls push their return
// address, returns pop to their target when the stack holds it and leave it alone when it does not, the capacity is
// kept and what goes past it is counted, and the kernel's own calls are not the program's.
#include <gtest/gtest.h>

#include <vector>

#include "emulator/sampling/shadow_stack.h"
#include "tests/sampling/guest_instructions.h"

using namespace netburst::emu;
using namespace netburst::emu::test;
using netburst::emu::vg::ShadowStack;

namespace {



std::vector<std::uint64_t> chain(const ShadowStack& s) {
    std::vector<std::uint64_t> out;
    for (unsigned i = 0; i < s.depth(); ++i) out.push_back(s.from_top(i));
    return out;
}

using Chain = std::vector<std::uint64_t>;

TEST(ShadowStack, CallsPushTheirReturnAddressAndReturnsPopIt) {
    ShadowStack s;
    s.update(call(0x1000));                 // main calls outer
    s.update(call(0x2000, 0, 2, true));        // outer calls inner through a register: a 2-byte call
    EXPECT_EQ(chain(s), (Chain{0x2002, 0x1005}));
    Instruction alu;
    alu.pc = 0x3000;
    s.update(alu);                          // other instructions leave it alone
    EXPECT_EQ(chain(s), (Chain{0x2002, 0x1005}));
    s.update(ret(0x3010, 0x2002));
    EXPECT_EQ(chain(s), (Chain{0x1005}));
    s.update(ret(0x2010, 0x1005));
    EXPECT_EQ(s.depth(), 0u);
}

TEST(ShadowStack, AReturnDeeperInTheStackPopsDownToIt) {
    // longjmp out of two frames, then the frame that called setjmp returns to its caller: the stale entries go.
    ShadowStack s;
    s.update(call(0x1000));
    s.update(call(0x2000));
    s.update(call(0x3000));
    s.update(call(0x4000));
    s.update(ret(0x5000, 0x2005));
    EXPECT_EQ(chain(s), (Chain{0x1005}));
}

TEST(ShadowStack, AReturnToAnAddressItDoesNotHoldLeavesItAlone) {
    // A signal handler returns to its restorer, which no call pushed; the interrupted code's chain stays.
    ShadowStack s;
    s.update(call(0x1000));
    s.update(call(0x2000));
    s.update(ret(0x9000, 0x7000));
    EXPECT_EQ(chain(s), (Chain{0x2005, 0x1005}));
    ShadowStack empty;
    empty.update(ret(0x9000, 0x7000));  // returns out of the frame the thread started in
    EXPECT_EQ(empty.depth(), 0u);
}

TEST(ShadowStack, RecursionReturnsToTheInnermostMatch) {
    ShadowStack s;
    s.update(call(0x1000));
    for (int i = 0; i < 3; ++i) s.update(call(0x2000));  // recursion: the same return address three times
    s.update(ret(0x2100, 0x2005));
    EXPECT_EQ(chain(s), (Chain{0x2005, 0x2005, 0x1005}));
}

TEST(ShadowStack, KeepsItsCapacityAndCountsWhatDoesNotFit) {
    ShadowStack s;
    const unsigned extra = 10;
    for (unsigned i = 0; i < ShadowStack::kCapacity + extra; ++i) s.update(call(0x1000 + 0x10 * i));
    EXPECT_EQ(s.depth(), ShadowStack::kCapacity);
    EXPECT_EQ(s.overflowed(), extra);
    // The outermost calls are kept; the returns of the calls that did not fit take nothing from them.
    EXPECT_EQ(s.from_top(0), 0x1000 + 0x10 * (ShadowStack::kCapacity - 1) + 5);
    for (unsigned i = 0; i < extra; ++i) s.update(ret(0x9000, 0x1234));
    EXPECT_EQ(s.depth(), ShadowStack::kCapacity);
    s.update(ret(0x9000, 0x1000 + 0x10 * (ShadowStack::kCapacity - 1) + 5));
    EXPECT_EQ(s.depth(), ShadowStack::kCapacity - 1);
    EXPECT_EQ(s.overflowed(), extra);  // a count over the thread's life
    s.clear();
    EXPECT_EQ(s.depth(), 0u);
}

TEST(ShadowStack, TheKernelsCallsAreNotTheProgramsOnes) {
    ShadowStack s;
    s.update(call(0x1000));
    Instruction k = call(0xffffffff81000000ull);
    k.cpl = 0;
    s.update(k);
    Instruction kr = ret(0xffffffff81000100ull, 0x1005);
    kr.cpl = 0;
    s.update(kr);
    EXPECT_EQ(chain(s), (Chain{0x1005}));
}

}  // namespace
