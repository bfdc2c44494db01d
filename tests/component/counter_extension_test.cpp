// 64-bit counts from 40-bit counters: the arithmetic, and the read path against a scripted counter that wraps
// (including a wrap between reading the CCCR and reading the counter).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>

#include "component/counter_extension.h"
#include "component/event_set.h"
#include "table/msr_map.h"

using namespace netburst;
using namespace netburst::component;

namespace {

constexpr std::uint64_t kWrap = std::uint64_t{1} << 40;

// One counter whose value and OVF flag the test moves; CCCR writes clear OVF as on hardware (OVF is written 0).
class ScriptedCounter final : public Backend {
public:
    explicit ScriptedCounter(unsigned counter) : counter_(counter) {}

    void advance(std::uint64_t events) {
        const std::uint64_t before = raw_;
        raw_ = (raw_ + events) & kCounterValueMask;
        if (events >= kWrap || raw_ < before) ovf_ = true;
    }
    // Events that arrive after the CCCR is read and before the counter is.
    std::uint64_t between_reads = 0;
    // Each runs once, as a signal handler would, right after the next counter read or counter write returns to
    // the component (PAPI's software overflow reads the set from its timer's handler).
    std::function<void()> interrupt_after_read, interrupt_after_write;
    unsigned cccr_writes = 0;
    std::uint64_t raw() const { return raw_; }

    IoStatus write_msr(std::uint32_t msr, std::uint64_t value) override {
        if (msr == kCounters[counter_].cccr_msr) {
            ++cccr_writes;
            ovf_ = (value >> 31) & 1;
        } else if (msr == kCounters[counter_].counter_msr) {
            raw_ = value;
            interrupt_now(&interrupt_after_write);
        }
        return IoStatus::Ok;
    }
    IoStatus read_msr(std::uint32_t msr, std::uint64_t* value) override {
        *value = msr == kCounters[counter_].cccr_msr ? (0x3000ull | (ovf_ ? 1ull << 31 : 0)) : 0;
        return IoStatus::Ok;
    }
    IoStatus read_counter(unsigned, std::uint64_t* value) override {
        advance(between_reads);
        between_reads = 0;
        *value = raw_;
        interrupt_now(&interrupt_after_read);
        return IoStatus::Ok;
    }
    IoStatus counter_status(unsigned) override { return IoStatus::Ok; }
    unsigned logical_processor() override { return 0; }

private:
    static void interrupt_now(std::function<void()>* interrupt) {
        if (!*interrupt) return;
        const std::function<void()> handler = std::move(*interrupt);
        *interrupt = nullptr;
        handler();
    }

    unsigned counter_;
    std::uint64_t raw_ = 0;
    bool ovf_ = false;
};

nb_event_set running_set(unsigned counter) {
    nb_event_set set;
    std::memset(&set, 0, sizeof set);
    set.num_events = 1;
    set.counter_of[0] = static_cast<std::int8_t>(counter);
    set.read_counters = counter_bit(counter);
    set.programmed_counters = counter_bit(counter);
    set.cccr[counter] = 0x3000;
    set.running = 1;
    return set;
}

}  // namespace

TEST(CounterDelta, Arithmetic) {
    EXPECT_EQ(counter_delta(0, 0, false), 0u);
    EXPECT_EQ(counter_delta(100, 250, false), 150u);
    EXPECT_EQ(counter_delta(kWrap - 10, 5, true), 15u);          // wrapped once, ended below the old value
    EXPECT_EQ(counter_delta(kWrap - 10, 5, false), 15u);         // flag lost: a counter never runs backwards
    EXPECT_EQ(counter_delta(100, 100, true), kWrap);             // exactly 2^40 events
    EXPECT_EQ(counter_delta(100, 300, true), kWrap + 200);       // wrapped and passed the old value
    EXPECT_TRUE(cccr_overflowed(0x80003000ull));
    EXPECT_FALSE(cccr_overflowed(0x3000ull));
}

TEST(CounterExtension, CountsPastTheFortyBitWrap) {
    ScriptedCounter hw(12);
    nb_event_set set = running_set(12);
    hw.advance(kWrap - 5);
    ASSERT_EQ(read_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], static_cast<long long>(kWrap - 5));
    hw.advance(12);  // wraps to 7
    ASSERT_EQ(read_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], static_cast<long long>(kWrap + 7));
    EXPECT_EQ(hw.cccr_writes, 1u) << "the OVF flag is acknowledged once";
    hw.advance(3);
    ASSERT_EQ(read_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], static_cast<long long>(kWrap + 10)) << "an acknowledged wrap is not counted again";
}

TEST(CounterExtension, AWrapThatPassesThePreviousValueNeedsTheFlag) {
    ScriptedCounter hw(4);
    nb_event_set set = running_set(4);
    hw.advance(1000);
    read_event_set(hw, &set);
    hw.advance(kWrap + 500);  // more than 2^40 events between two reads
    ASSERT_EQ(read_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], static_cast<long long>(1000 + kWrap + 500));
    hw.advance(1);
    read_event_set(hw, &set);
    EXPECT_EQ(set.values[0], static_cast<long long>(1000 + kWrap + 501));
}

TEST(CounterExtension, AWrapBetweenTheTwoReadsIsCountedOnce) {
    ScriptedCounter hw(0);
    nb_event_set set = running_set(0);
    hw.advance(kWrap - 3);
    read_event_set(hw, &set);
    hw.between_reads = 10;  // the flag is still clear when the CCCR is read
    ASSERT_EQ(read_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], static_cast<long long>(kWrap + 7));
    hw.advance(2);
    read_event_set(hw, &set);
    EXPECT_EQ(set.values[0], static_cast<long long>(kWrap + 9)) << "the flag set by that wrap was acknowledged";
}

TEST(CounterExtension, WriteSetsSixtyFourBitValuesAndTheCounterGetsFortyBits) {
    ScriptedCounter hw(7);
    nb_event_set set = running_set(7);
    const long long value = static_cast<long long>(3 * kWrap + 42);
    ASSERT_EQ(write_event_set(hw, &set, &value), NB_STATUS_OK);
    EXPECT_EQ(hw.raw(), 42u);
    hw.advance(8);
    read_event_set(hw, &set);
    EXPECT_EQ(set.values[0], value + 8);
    ASSERT_EQ(reset_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 0);
    hw.advance(5);
    read_event_set(hw, &set);
    EXPECT_EQ(set.values[0], 5);
}

TEST(CounterExtension, AStoppedSetKeepsItsValuesAndTouchesNoCounter) {
    ScriptedCounter hw(1);
    nb_event_set set = running_set(1);
    hw.advance(77);
    ASSERT_EQ(stop_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 77);
    hw.advance(1000);  // someone else counts on the counter now
    read_event_set(hw, &set);
    EXPECT_EQ(set.values[0], 77);
}

// PAPI_stop reads the set, then stops it, and only then stops the overflow timer; PAPI_read may run while the timer
// does. A read from the timer's handler that interrupts one of these sees the set half-updated: it returns what the
// last completed read found (real counts from a moment earlier) and changes nothing.
TEST(CounterExtension, AReadThatInterruptsAReadChangesNothing) {
    ScriptedCounter hw(3);
    nb_event_set set = running_set(3);
    hw.advance(100);
    read_event_set(hw, &set);
    hw.advance(50);
    long long seen = -1;
    hw.interrupt_after_read = [&] {  // the counter read returned 150 to the outer read
        hw.advance(7);
        EXPECT_EQ(read_event_set(hw, &set), NB_STATUS_OK);
        seen = set.values[0];
    };
    ASSERT_EQ(read_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(seen, 100);
    EXPECT_EQ(set.values[0], 150);
    read_event_set(hw, &set);
    EXPECT_EQ(set.values[0], 157);
}

TEST(CounterExtension, AReadThatInterruptsAStopChangesNothing) {
    ScriptedCounter hw(5);
    nb_event_set set = running_set(5);
    set.num_stop_writes = 1;
    set.stop_writes[0] = nb_msr_write{kCounters[5].counter_msr, 0, 0};  // stop clears the counter
    hw.advance(200);
    read_event_set(hw, &set);
    hw.advance(100);
    long long seen = -1;
    hw.interrupt_after_write = [&] {  // the counter is cleared, the set not yet marked stopped
        EXPECT_EQ(read_event_set(hw, &set), NB_STATUS_OK);
        seen = set.values[0];
    };
    ASSERT_EQ(stop_event_set(hw, &set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 300);
    EXPECT_EQ(seen, 200) << "the last completed read's value: stop folds its reading in after the stop writes";
    read_event_set(hw, &set);
    EXPECT_EQ(set.values[0], 300) << "not a cleared counter taken for a 40-bit wrap";
}
