// counter_unsupported(): a counter selecting any (event, mask bit) the core model does not drive reads as
// unsupported while it does, and afterwards until software writes its value.
//
// The core model owns the real coverage table (emulator/core/coverage.cpp). This test brings its own, so that
// what it checks does not depend on that table: WC_Buffer and TC_deliver_mode's IB bit are "not modelled" here,
// and only global_power_events and TC_deliver_mode depend on timing (pmu_tier_test.cpp).
#include "emulator/model/coverage.h"
#include "tests/pmu/pmu_test_util.h"

namespace netburst::emu {

Coverage coverage(EventId event, unsigned mask_bit) {
    if (event == EventId::WcBuffer) return Coverage::NotModelled;
    if (event == EventId::TcDeliverMode && mask_bit == 7) return Coverage::NotModelled;
    if (event == EventId::TcDeliverMode && mask_bit == 6) return Coverage::Approximate;
    return Coverage::Modelled;
}
const char* coverage_note(EventId) { return "test double"; }
bool timing_dependent(EventId event, unsigned mask_bit) {
    if (coverage(event, mask_bit) == Coverage::NotModelled) return false;
    return event == EventId::GlobalPowerEvents || event == EventId::TcDeliverMode;
}

namespace test {
namespace {

class PmuCoverage : public PmuTest {};

TEST_F(PmuCoverage, UnsupportedWhileSelectingAnUnmodelledPair) {
    for (unsigned n = 0; n < kNumCounters; ++n) EXPECT_FALSE(pmu->counter_unsupported(n));
    program(8, "DAC_ESCR0", "WC_Buffer", {"WCB_EVICTS"});
    EXPECT_TRUE(pmu->counter_unsupported(8));
    EXPECT_FALSE(pmu->counter_unsupported(9));

    program(4, "TC_ESCR0", "TC_deliver_mode", {"DD", "ID"});
    EXPECT_FALSE(pmu->counter_unsupported(4));  // approximate is supported
    program(4, "TC_ESCR0", "TC_deliver_mode", {"DD", "IB"});
    EXPECT_TRUE(pmu->counter_unsupported(4));
}

TEST_F(PmuCoverage, StaysUnsupportedUntilSoftwareWritesTheValue) {
    program(8, "DAC_ESCR0", "WC_Buffer", {"WCB_EVICTS"});
    wrmsr(cccr_msr(8), 0);  // stopped: its value still holds what it counted
    EXPECT_TRUE(pmu->counter_unsupported(8));
    wrmsr(counter_msr(8), 0);
    EXPECT_FALSE(pmu->counter_unsupported(8));
    // Reprogrammed to a modelled event without writing the value: still tainted.
    program(8, "DAC_ESCR0", "WC_Buffer", {"WCB_EVICTS"});
    program(8, "FIRM_ESCR0", "x87_FP_uop", {"ALL"});
    EXPECT_TRUE(pmu->counter_unsupported(8));
    wrmsr(counter_msr(8), 0);
    EXPECT_FALSE(pmu->counter_unsupported(8));
}

TEST_F(PmuCoverage, AProgrammedButDisabledEscrIsNotACounter) {
    wrmsr(escr_msr("DAC_ESCR0"), escr_value("WC_Buffer", {"WCB_EVICTS"}, T0_ALL));
    for (unsigned n = 0; n < kNumCounters; ++n) EXPECT_FALSE(pmu->counter_unsupported(n));
    EXPECT_FALSE(pmu->counter_unsupported(kNumCounters));
}

}  // namespace
}  // namespace test
}  // namespace netburst::emu
