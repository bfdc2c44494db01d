// The counter's overflow arithmetic (table/msr_map.h): where a counter starts so that its threshold-th event wraps
// it, and the "period minus overrun" reload that both the component's interrupt handler and the tool's sampler use.
#include <gtest/gtest.h>

#include "table/msr_map.h"

using namespace netburst;

namespace {

constexpr std::uint64_t kWrap = std::uint64_t{1} << 40;

// The events from `start` until the counter wraps.
std::uint64_t events_to_wrap(std::uint64_t start) { return kWrap - start; }

}  // namespace

TEST(Overflow, TheCounterIsFortyBitsWide) {
    EXPECT_EQ(kCounterValueMask, kWrap - 1);
    EXPECT_EQ(overflow_start_value(1), kWrap - 1);
    EXPECT_EQ(overflow_start_value(1000) + 1000, kWrap);
    EXPECT_EQ(pebs_start_value(1001), overflow_start_value(1000));
}

TEST(Overflow, AValueInTheLowerHalfHasWrapped) {
    EXPECT_TRUE(wrapped_since_start(0));
    EXPECT_TRUE(wrapped_since_start((kWrap >> 1) - 1));
    EXPECT_FALSE(wrapped_since_start(kWrap >> 1));
    EXPECT_FALSE(wrapped_since_start(overflow_start_value(1000)));
    EXPECT_TRUE(wrapped_since_start(kWrap + 5)) << "only the counter's 40 bits count";
}

TEST(Overflow, TheReloadCountsTheOverrunTowardTheNextPeriod) {
    const std::uint64_t period = 1000;
    // Taken at the wrap: a whole period to the next one.
    EXPECT_EQ(events_to_wrap(overflow_reload_value(period, 0)), period);
    // 7 events came while the interrupt was on its way: the next wrap is period - 7 events on.
    EXPECT_EQ(events_to_wrap(overflow_reload_value(period, 7)), period - 7);
    EXPECT_EQ(events_to_wrap(overflow_reload_value(period, period - 1)), 1u);
}

TEST(Overflow, AnOverrunOfAPeriodOrMoreSkipsAhead) {
    const std::uint64_t period = 1000;
    // Exactly a period late: the period after the missed one, a whole period on.
    EXPECT_EQ(events_to_wrap(overflow_reload_value(period, period)), period);
    // A period and 3 events late: what is left of the period after.
    EXPECT_EQ(events_to_wrap(overflow_reload_value(period, period + 3)), period - 3);
    // Two periods or more: a fresh period.
    EXPECT_EQ(events_to_wrap(overflow_reload_value(period, 2 * period)), period);
    EXPECT_EQ(events_to_wrap(overflow_reload_value(period, 5 * period + 1)), period);
}

TEST(Overflow, ACounterThatHasNotWrappedGetsAWholePeriod) {
    // A value in the upper half is still short of the wrap: no overrun.
    EXPECT_EQ(events_to_wrap(overflow_reload_value(1000, overflow_start_value(10))), 1000u);
    EXPECT_EQ(events_to_wrap(overflow_reload_value(1000, kWrap - 1)), 1000u);
}
