// The kernel MSR backend on fake device files: refusals before any system call, claims against counters others
// enabled, erratum N15, pinning and targets, batched reads, RDPMC only on the counted CPU, sharing a package.
#include <gtest/gtest.h>

#include "backend/msr_backend.h"
#include "fake_machine.h"
#include "table/registers.h"

using namespace netburst;
using namespace netburst::component;
using namespace netburst::component::test;

namespace {

constexpr std::uint64_t kEnable = 1ull << kCccrEnableBit;

PmuClaim claim_counter(unsigned counter, EscrId escr, unsigned lp = 0) {
    PmuClaim c;
    c.counters = counter_bit(counter);
    c.escrs = escr_bit(escr);
    c.logical_processor = lp;
    return c;
}

// A CCCR value someone else might have left enabled: counter `counter` reading ESCR number `select`.
std::uint64_t enabled_cccr(unsigned select) { return kEnable | (std::uint64_t{select} << 13) | (3ull << 16); }

}  // namespace

TEST(MsrBackend, NonAllowListedMsrsAreRefusedBeforeAnySystemCall) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    const std::vector<std::uint64_t> before = m.registers();
    m.clear_log();
    // The TSC, APIC base, a P6-style PERFEVTSEL, IA32_DEBUGCTL, the DS area, MSR_TC_PRECISE_EVENT, the hole after
    // the counters, SSU_ESCR1 (Linux's guess), IA32_MISC_ENABLE (read-only), and IQ_ESCR0 on a model that lacks it
    // comes in the next test.
    for (std::uint32_t msr : {0x10u, 0x1Bu, 0x186u, 0x1D9u, 0x600u, 0x3F0u, 0x312u, 0x3BFu, 0x1A0u}) {
        EXPECT_EQ(b.write_msr(msr, 0), IoStatus::Fault) << std::hex << msr;
        EXPECT_NE(b.last_refusal().find("refused"), std::string::npos) << b.last_refusal();
    }
    std::uint64_t v = 0;
    EXPECT_EQ(b.read_msr(0x10, &v), IoStatus::Fault);
    EXPECT_TRUE(m.log().empty()) << "no access may reach the device";
    EXPECT_EQ(m.registers(), before);
}

TEST(MsrBackend, IqEscrsOnlyWhereTheModelHasThem) {
    FakeMachine m("pentium4-1pkg.xml", 3);
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    m.clear_log();
    EXPECT_EQ(b.write_msr(0x3BA, 0), IoStatus::Fault);
    EXPECT_NE(b.last_refusal().find("allow-list for model 3"), std::string::npos) << b.last_refusal();
    EXPECT_TRUE(m.log().empty());
}

TEST(MsrBackend, BitsOutsideTheWriteMaskAreRefusedBeforeAnySystemCall) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    std::string why;
    ASSERT_EQ(b.claim(claim_counter(4, EscrId::MS_ESCR0), &why), IoStatus::Ok) << why;
    m.clear_log();
    EXPECT_EQ(b.write_msr(0x364, enabled_cccr(0) | (1ull << 26)), IoStatus::Fault) << "OVF_PMI_T0";
    EXPECT_NE(b.last_refusal().find("write mask"), std::string::npos) << b.last_refusal();
    EXPECT_EQ(b.write_msr(0x304, 1ull << 40), IoStatus::Fault);
    EXPECT_EQ(b.write_msr(0x3C0, 1ull << 31), IoStatus::Fault);
    EXPECT_EQ(b.write_msr(kMsrPebsEnable, 1ull << kPebsEnableMyThreadBit), IoStatus::Fault);
    EXPECT_TRUE(m.writes().empty());
}

TEST(MsrBackend, RegistersNoEventSetClaimedAreNotWritten) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    m.clear_log();
    EXPECT_EQ(b.write_msr(0x3C0, 0x1234), IoStatus::Fault);
    EXPECT_NE(b.last_refusal().find("not claimed"), std::string::npos) << b.last_refusal();
    EXPECT_TRUE(m.writes().empty());
}

TEST(MsrBackend, CounterWritesAreDoneTwiceForErratumN15) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    std::string why;
    ASSERT_EQ(b.claim(claim_counter(4, EscrId::MS_ESCR0), &why), IoStatus::Ok) << why;
    m.clear_log();
    ASSERT_EQ(b.write_msr(0x3C0, 0x0C00020C), IoStatus::Ok);
    ASSERT_EQ(b.write_msr(0x304, 77), IoStatus::Ok);
    ASSERT_EQ(b.write_msr(0x364, enabled_cccr(0)), IoStatus::Ok);
    const std::vector<Access> expected = {
        {true, 0, 0x3C0, 0x0C00020C}, {true, 0, 0x304, 77}, {true, 0, 0x304, 77}, {true, 0, 0x364, enabled_cccr(0)}};
    EXPECT_EQ(m.writes(), expected);
    EXPECT_EQ(m.get(0, 0x304), 77u);
}

TEST(MsrBackend, CountersOthersEnabledAreLeftAloneWithTheirEscrs) {
    FakeMachine m;
    // The NMI watchdog of each logical processor: global_power_events on FSB_ESCR0 (counter 0) and FSB_ESCR1
    // (counter 2), ESCR number 6 in the BPU block.
    m.set(0, 0x360, enabled_cccr(6));
    m.set(0, 0x362, enabled_cccr(6));
    Detection d = m.detect();
    ASSERT_TRUE(d.backend) << d.disabled_reason;
    EXPECT_NE(d.cpu.description.find("counters 0,2 held by others"), std::string::npos) << d.cpu.description;
    EXPECT_LT(d.cpu.description.size(), 128u) << d.cpu.description;
    EXPECT_NE(d.cpu.notes.find("package 0: counters 0,2 are enabled by other software"), std::string::npos)
        << d.cpu.notes;
    MsrBackend& b = msr_backend(d);

    const PmuOccupancy o = b.occupancy(0);
    EXPECT_EQ(o.unavailable_counters, counter_bit(0) | counter_bit(1) | counter_bit(2)) << "1: the CCCR1 erratum";
    EXPECT_EQ(o.unavailable_escrs, escr_bit(EscrId::FSB_ESCR0) | escr_bit(EscrId::FSB_ESCR1));
    EXPECT_NE(o.reason.find("erratum"), std::string::npos) << o.reason;
    EXPECT_NE(o.reason.find("counters 0, 2 are enabled by other software"), std::string::npos) << o.reason;

    m.clear_log();
    std::string why;
    EXPECT_EQ(b.claim(claim_counter(0, EscrId::BPU_ESCR0), &why), IoStatus::Unavailable);
    EXPECT_NE(why.find("enabled by other software"), std::string::npos) << why;
    EXPECT_EQ(b.claim(claim_counter(3, EscrId::FSB_ESCR1), &why), IoStatus::Unavailable) << "its ESCR is read by 2";
    EXPECT_EQ(b.claim(claim_counter(1, EscrId::BPU_ESCR0), &why), IoStatus::Unavailable);
    EXPECT_NE(why.find("erratum"), std::string::npos) << why;
    EXPECT_TRUE(m.writes().empty());
    // The package 1 watchdog is not package 0's business.
    EXPECT_EQ(b.foreign_counters(1), 0u);
}

TEST(MsrBackend, AThreadIsPinnedToItsCpuAndCountsItsThreadBits) {
    FakeMachine m;
    m.placement().current_cpu = 2;  // package 0, thread 1
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    EXPECT_EQ(b.logical_processor(), 1u);
    ASSERT_EQ(m.placement().pins, std::vector<unsigned>{2});
    EXPECT_EQ(b.logical_processor(), 1u);
    EXPECT_EQ(m.placement().pins.size(), 1u) << "pinned once";
    b.release_thread();
    EXPECT_EQ(m.placement().unpins, 1u);
    m.placement().current_cpu = 1;  // package 1, thread 0
    EXPECT_EQ(b.logical_processor(), 0u);
}

TEST(MsrBackend, TheThreadKeepsItsPinUntilItsLastPapiContextEnds) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    EXPECT_EQ(b.register_thread(), 0u);  // the thread's own context
    EXPECT_EQ(b.register_thread(), 0u);  // the CPU context of an event set it attached to a CPU
    EXPECT_EQ(m.placement().pins.size(), 1u);
    b.release_thread();  // the attached event set is destroyed
    EXPECT_EQ(m.placement().unpins, 0u) << "the thread still counts its own CPU";
    b.release_thread();  // PAPI_unregister_thread
    EXPECT_EQ(m.placement().unpins, 1u);
}

TEST(MsrBackend, AThreadThatMovedOffItsCpuCannotStart) {
    FakeMachine m;
    m.placement().pin_error = EINVAL;  // a cpuset forbids pinning
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    EXPECT_EQ(b.logical_processor(), 0u);
    m.placement().current_cpu = 3;  // the scheduler moved it
    std::string why;
    EXPECT_EQ(b.claim(claim_counter(4, EscrId::MS_ESCR0), &why), IoStatus::Unavailable);
    EXPECT_NE(why.find("no longer on CPU 0"), std::string::npos) << why;
}

TEST(MsrBackend, SelectedCpusAndAttachment) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    unsigned lp = 9;
    std::string why;
    ASSERT_EQ(b.attach_cpu(3, &lp, &why), IoStatus::Ok);
    EXPECT_EQ(lp, 1u);
    EXPECT_EQ(b.attach_cpu(7, &lp, &why), IoStatus::Unavailable);
    EXPECT_NE(why.find("the logical CPUs are 0, 1, 2, 3"), std::string::npos) << why;

    EXPECT_EQ(b.select_cpu(3), -1);
    ASSERT_EQ(b.claim(claim_counter(4, EscrId::MS_ESCR0, 1), &why), IoStatus::Ok) << why;
    m.clear_log();
    ASSERT_EQ(b.write_msr(0x3C0, 0x0C000203), IoStatus::Ok);
    EXPECT_EQ(b.select_cpu(-1), 3);
    ASSERT_EQ(m.writes().size(), 1u);
    EXPECT_EQ(m.writes()[0].cpu, 3u);
    EXPECT_EQ(m.get(1, 0x3C0), 0x0C000203u) << "CPU 3 is on package 1";
    EXPECT_EQ(m.get(0, 0x3C0), 0u);
    EXPECT_TRUE(m.placement().pins.empty()) << "an attached CPU needs no pinning";
}

TEST(MsrBackend, ReadsAreBatchedCccrsFirst) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    m.set(0, 0x305, 5);
    m.set(0, 0x30C, 12);
    m.set(0, 0x36C, 1ull << 31);
    (void)b.logical_processor();
    m.clear_log();
    std::uint64_t cccr[kNumCounters] = {}, raw[kNumCounters] = {};
    ASSERT_EQ(b.read_counters(counter_bit(5) | counter_bit(12), cccr, raw), IoStatus::Ok);
    const std::vector<Access> expected = {
        {false, 0, 0x365, 0}, {false, 0, 0x36C, 1ull << 31}, {false, 0, 0x305, 5}, {false, 0, 0x30C, 12}};
    EXPECT_EQ(m.log(), expected);
    EXPECT_EQ(raw[5], 5u);
    EXPECT_EQ(raw[12], 12u);
    EXPECT_EQ(cccr[12], 1ull << 31);
}

namespace {

std::uint64_t fake_rdpmc(unsigned counter) { return 0xFF00000000000ull | (1000 + counter); }  // bits above 40 set

}  // namespace

TEST(MsrBackend, RdpmcOnlyOnThePinnedCpu) {
    FakeMachine m;
    auto log = std::make_shared<AccessLog>();
    auto devices = std::make_unique<DeviceIo>();
    std::string path;
    int err = 0;
    ASSERT_TRUE(devices->open_all(m.root(), {0, 1, 2, 3}, &path, &err)) << path << ": " << err;
    MsrBackendConfig config;
    config.model = 2;
    config.topology = m.topology();
    config.io = std::make_unique<RecordingIo>(std::move(devices), log);
    auto placement = std::make_shared<PlacementState>();
    config.placement = std::make_unique<FakePlacement>(placement);
    config.rdpmc = fake_rdpmc;
    MsrBackend b(std::move(config));
    EXPECT_TRUE(b.uses_rdpmc());

    std::uint64_t v = 0;
    ASSERT_EQ(b.read_counter(7, &v), IoStatus::Ok);
    EXPECT_EQ(v, 1007u) << "RDPMC, cut to 40 bits";
    EXPECT_TRUE(log->empty());
    // Attached to another CPU: RDPMC would read the wrong processor.
    b.select_cpu(1);
    m.set(1, 0x307, 55);
    ASSERT_EQ(b.read_counter(7, &v), IoStatus::Ok);
    EXPECT_EQ(v, 55u);
    EXPECT_EQ(log->size(), 1u);
    b.select_cpu(-1);
    // Moved off its CPU (pinning failed or was undone): pread of the CPU it counts.
    placement->current_cpu = 2;
    m.set(0, 0x307, 66);
    ASSERT_EQ(b.read_counter(7, &v), IoStatus::Ok);
    EXPECT_EQ(v, 66u);
}

TEST(MsrBackend, TheTwoLogicalProcessorsShareOnePmu) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    std::string why;
    b.select_cpu(0);
    ASSERT_EQ(b.claim(claim_counter(12, EscrId::CRU_ESCR0, 0), &why), IoStatus::Ok) << why;
    // From the sibling (CPU 2): held by the other logical processor.
    b.select_cpu(2);
    PmuOccupancy o = b.occupancy(1);
    EXPECT_EQ(o.sibling.counters, counter_bit(12));
    EXPECT_EQ(o.sibling.escrs, escr_bit(EscrId::CRU_ESCR0));
    EXPECT_EQ(b.claim(claim_counter(12, EscrId::CRU_ESCR1, 1), &why), IoStatus::Unavailable);
    EXPECT_NE(why.find("another event set of this process"), std::string::npos) << why;
    EXPECT_EQ(b.claim(claim_counter(14, EscrId::CRU_ESCR0, 1), &why), IoStatus::Unavailable);
    EXPECT_EQ(b.claim(claim_counter(14, EscrId::CRU_ESCR1, 1), &why), IoStatus::Ok) << why;
    // From the same logical processor (another thread pinned to CPU 0): unavailable, with the reason.
    b.select_cpu(0);
    o = b.occupancy(0);
    EXPECT_TRUE(o.unavailable_counters & counter_bit(12));
    EXPECT_TRUE(o.sibling.counters & counter_bit(14));
    EXPECT_NE(o.reason.find("another running event set of this process on the same logical CPU"), std::string::npos);
    // The other package is free.
    b.select_cpu(1);
    EXPECT_EQ(b.occupancy(0).sibling.counters, 0u);
    // Released counters are free again.
    b.select_cpu(0);
    b.release(claim_counter(12, EscrId::CRU_ESCR0, 0));
    b.select_cpu(2);
    EXPECT_EQ(b.occupancy(1).sibling.counters, 0u);
}

TEST(MsrBackend, OneReplayMetricPerPackage) {
    FakeMachine m;
    Detection d = m.detect();
    MsrBackend& b = msr_backend(d);
    PmuClaim l1 = claim_counter(12, EscrId::CRU_ESCR2);
    l1.replay = true;
    l1.pebs_enable = 0x01000001;
    l1.matrix_vert = 1;
    PmuClaim l2 = claim_counter(14, EscrId::CRU_ESCR3, 1);
    l2.replay = true;
    l2.pebs_enable = 0x01000002;
    l2.matrix_vert = 1;
    std::string why;
    b.select_cpu(0);
    ASSERT_EQ(b.claim(l1, &why), IoStatus::Ok) << why;
    b.select_cpu(2);
    EXPECT_EQ(b.claim(l2, &why), IoStatus::Unavailable);
    EXPECT_NE(why.find("another replay metric"), std::string::npos) << why;
    const PmuOccupancy o = b.occupancy(1);
    EXPECT_TRUE(o.sibling.replay_in_use);
    EXPECT_EQ(o.sibling.pebs_enable, 0x01000001u);
    l2.pebs_enable = l1.pebs_enable;
    EXPECT_EQ(b.claim(l2, &why), IoStatus::Ok) << "the same metric is shared: " << why;
}

TEST(MsrBackend, NoReplayMetricsWhenPebsIsUnavailable) {
    FakeMachine m;
    m.set(0, kMsrMiscEnable, (1ull << kMiscEnablePmuAvailableBit) | (1ull << kMiscEnablePebsUnavailableBit));
    Detection d = m.detect();
    ASSERT_TRUE(d.backend) << d.disabled_reason;
    EXPECT_NE(d.cpu.notes.find("PEBS unavailable"), std::string::npos) << d.cpu.notes;
    PmuClaim c = claim_counter(12, EscrId::CRU_ESCR2);
    c.replay = true;
    c.pebs_enable = 0x01000001;
    std::string why;
    EXPECT_EQ(msr_backend(d).claim(c, &why), IoStatus::Unsupported);
    EXPECT_NE(why.find("IA32_MISC_ENABLE bit 12"), std::string::npos) << why;
}
