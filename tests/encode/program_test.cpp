// The encoder on its own: the CCCR's overflow-interrupt bits and the PEBS arming writes both backends replay.
#include <gtest/gtest.h>

#include "alloc/allocator.h"
#include "encode/program.h"
#include "events/parser.h"
#include "table/registers.h"

using namespace netburst;

namespace {

std::vector<EventRequest> parse_all(const std::vector<std::string>& names) {
    std::vector<EventRequest> out;
    for (const auto& n : names) {
        auto r = parse_event(n, kDefaultModel);
        EXPECT_TRUE(r.ok()) << n << ": " << r.error().message;
        if (r.ok()) out.push_back(*r);
    }
    return out;
}

}  // namespace

// PAPI's hardware overflow: the interrupt bit of the logical processor, set or cleared in an encoded CCCR, with every
// other field kept; and a start value that wraps at the threshold-th event.
TEST(Encoder, OverflowInterruptBitAndStartValue) {
    CccrFields f;
    f.enable = true;
    f.escr_select = 5;
    f.compare = true;
    f.threshold = 3;
    const std::uint64_t cccr = encode_cccr(f);
    const CccrFields t0 = decode_cccr(cccr_with_overflow_interrupt(cccr, true, 0));
    EXPECT_TRUE(t0.ovf_pmi_t0);
    EXPECT_FALSE(t0.ovf_pmi_t1);
    EXPECT_TRUE(t0.enable);
    EXPECT_EQ(t0.escr_select, 5);
    EXPECT_TRUE(t0.compare);
    EXPECT_EQ(t0.threshold, 3);
    const CccrFields t1 = decode_cccr(cccr_with_overflow_interrupt(cccr, true, 1));
    EXPECT_FALSE(t1.ovf_pmi_t0);
    EXPECT_TRUE(t1.ovf_pmi_t1);
    EXPECT_EQ(cccr_with_overflow_interrupt(cccr_with_overflow_interrupt(cccr, true, 0), false, 0), cccr);
    EXPECT_EQ(overflow_start_value(1), (std::uint64_t{1} << 40) - 1);
    EXPECT_EQ(overflow_start_value(1000) + 1000, std::uint64_t{1} << 40);
}

// The PEBS programming both backends replay: IA32_DS_AREA first, ENABLE_PEBS (bit 25) beside the replay metric's
// bits, the counter period - 1 events short of its wrap, no OVF_PMI; the stop clears both PEBS MSRs.
TEST(Encoder, PebsArmingWrites) {
    const auto reqs = parse_all({"1stL_cache_load_miss_retired:precise=1"});
    auto s = schedule_events(reqs, AllocContext{});
    ASSERT_TRUE(s.ok()) << s.error().message;
    PebsArming a;
    a.ds_area = 0x7f0000001000;
    a.records = 32;
    a.period = 1001;
    const std::vector<MsrWrite> start = pebs_start_writes(start_writes(*s), 16, a);
    ASSERT_FALSE(start.empty());
    EXPECT_EQ(start[0], (MsrWrite{kMsrDsArea, 0x7f0000001000}));
    std::uint64_t enable = 0, counter = 1, cccr = 0;
    for (const MsrWrite& w : start) {
        if (w.msr == kMsrPebsEnable) enable = w.value;
        if (w.msr == kCounters[16].counter_msr) counter = w.value;
        if (w.msr == kCounters[16].cccr_msr) cccr = w.value;
    }
    // 1stL_cache_load_miss_retired: bits 0 and 24 (replay tagging), and 25 (PEBS).
    EXPECT_EQ(enable, (1u << 0) | (1u << 24) | (1u << 25));
    EXPECT_EQ(counter + 1000, std::uint64_t{1} << 40);
    EXPECT_EQ(counter, pebs_start_value(1001));
    EXPECT_TRUE(decode_cccr(cccr).enable);
    EXPECT_FALSE(decode_cccr(cccr).ovf_pmi_t0);
    EXPECT_FALSE(decode_cccr(cccr).ovf_pmi_t1);

    const DsAreaFields f = pebs_ds_fields(a);
    EXPECT_EQ(f.base, a.ds_area + kDsManagementBytes);
    EXPECT_EQ(f.index, f.base);
    EXPECT_EQ(f.maximum, f.base + 32 * kPebsRecordBytes);
    EXPECT_EQ(f.threshold, f.base + kPebsRecordBytes);  // an interrupt per record
    EXPECT_EQ(f.counter_reset, pebs_start_value(1001));

    const std::vector<MsrWrite> stop = pebs_stop_writes(stop_writes(*s));
    EXPECT_EQ(stop.back(), (MsrWrite{kMsrDsArea, 0}));
    bool enable_cleared = false;
    for (const MsrWrite& w : stop) enable_cleared = enable_cleared || (w.msr == kMsrPebsEnable && w.value == 0);
    EXPECT_TRUE(enable_cleared);

    // A front-end metric writes no IA32_PEBS_ENABLE of its own: the arming adds ENABLE_PEBS alone, and the stop
    // clears it.
    const auto fe = parse_all({"memory_loads:precise=1"});
    auto t = schedule_events(fe, AllocContext{});
    ASSERT_TRUE(t.ok()) << t.error().message;
    const std::vector<MsrWrite> fe_start = pebs_start_writes(start_writes(*t), 16, a);
    EXPECT_EQ(fe_start[1], (MsrWrite{kMsrPebsEnable, 1u << 25}));
    const std::vector<MsrWrite> fe_stop = pebs_stop_writes(stop_writes(*t));
    EXPECT_EQ(fe_stop[fe_stop.size() - 2], (MsrWrite{kMsrPebsEnable, 0}));
}
