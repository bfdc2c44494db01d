// PEBS (SDM 18.15.7 with the DS layouts of 17.4.9): IQ_COUNTER4 overflowing on a PEBS-capable at-retirement event
// arms it, the next counted uop writes a record (precise: that uop's instruction) into the DS buffer, the counter
// reloads from "PEBS counter reset", and reaching the interrupt threshold raises a PMI.
#include "table/metrics.h"
#include "tests/pmu/pmu_test_util.h"

namespace netburst::emu::test {
namespace {

constexpr std::uint64_t kDs = 0x10000;
constexpr std::uint64_t kBuffer = 0x20000;

class PmuPebs : public PmuTest {
protected:
    // A DS area (64- or 32-bit layout) whose PEBS buffer holds `records` records, with the interrupt threshold
    // at record `threshold`, and a counter reset that samples every `period` counted uops.
    void set_up_ds(bool long_mode, unsigned records, unsigned threshold, unsigned period) {
        const unsigned field = long_mode ? 8 : 4;
        const unsigned base = long_mode ? 0x20 : 0x10;
        record_size = long_mode ? 144 : 40;
        for (unsigned i = 0; i < 0x50; ++i) memory.bytes[kDs + i] = 0;
        for (unsigned i = 0; i < records * record_size + 64; ++i) memory.bytes[kBuffer + i] = 0xEE;
        memory.put64(kDs + base, kBuffer, field);                                 // PEBS buffer base
        memory.put64(kDs + base + field, kBuffer, field);                         // PEBS index
        memory.put64(kDs + base + 2 * field, kBuffer + records * record_size + 1, field);  // absolute maximum
        memory.put64(kDs + base + 3 * field, kBuffer + threshold * record_size, field);    // interrupt threshold
        // Counter reset: `period` counted uops until the overflow, the next one is sampled.
        memory.put64(kDs + base + 4 * field, (kCounterValueMask + 1 - period) & kCounterValueMask, 8);
        pmu->set_guest_memory(memory.view());
        wrmsr(kMsrDsArea, kDs);
    }
    // replay_event NBOGUS for L1 load misses on IQ_COUNTER4 with PEBS enabled for logical processor 0.
    void program_replay_pebs(unsigned period) {
        const MetricDef& m = metric_def(MetricId::L1LoadMissRetired);
        wrmsr(kMsrPebsEnable, m.pebs_enable | (1u << kPebsEnableMyThreadBit));
        wrmsr(kMsrPebsMatrixVert, m.matrix_vert);
        wrmsr(escr_msr("CRU_ESCR2"), 0x1200020C);
        CccrFields f;
        f.ovf_pmi_t0 = true;  // set, as the SDM's checklist says; PEBS overflows raise no imprecise PMI
        wrmsr(cccr_msr(16), cccr_value("replay_event", f));
        wrmsr(counter_msr(16), (kCounterValueMask + 1 - period) & kCounterValueMask);
    }
    Outcome missing_load(unsigned i) {
        Outcome o = instruction(0x400000 + 0x10 * i, 10 * i);
        o.uops[0].kind = UopKind::Load;
        o.uops[0].replay_causes = kReplayL1LoadMiss;
        regs[i].rflags = 0x246;
        regs[i].rip = o.pc;
        regs[i].rax = 0xA0 + i;
        regs[i].rsp = 0x7ffe0000 - i;
        regs[i].r15 = 0xF0 + i;
        o.regs = &regs[i];
        return o;
    }
    std::vector<PebsRecord> records() {
        std::vector<PebsRecord> out(64);
        out.resize(pmu->take_pebs_records(out.data(), static_cast<unsigned>(out.size())));
        return out;
    }

    FakeMemory memory;
    unsigned record_size = 144;
    RegisterSnapshot regs[64];
};

TEST_F(PmuPebs, RecordsThePreciseInstructionInTheSixtyFourBitLayout) {
    set_up_ds(true, 3, 2, 2);
    program_replay_pebs(2);
    for (unsigned i = 1; i <= 12; ++i) feed(missing_load(i));
    // Uops 1-2 overflow the counter, uop 3 is sampled; the reset gives 2 more, so uops 6 and 9 are sampled too.
    // Uop 12 would be the fourth record: the buffer holds three.
    const auto written = records();
    ASSERT_EQ(written.size(), 3u);
    const unsigned sampled[] = {3, 6, 9};
    for (unsigned k = 0; k < 3; ++k) {
        const unsigned i = sampled[k];
        EXPECT_EQ(written[k].eip, 0x400000u + 0x10 * i);
        EXPECT_EQ(written[k].cycle, 10u * i);
        EXPECT_EQ(written[k].thread, 0u);
        const std::uint64_t at = kBuffer + k * 144;
        EXPECT_EQ(written[k].address, at);
        EXPECT_EQ(memory.get64(at + 0x00), 0x246u);             // RFLAGS
        EXPECT_EQ(memory.get64(at + 0x08), 0x400000u + 0x10 * i);  // RIP
        EXPECT_EQ(memory.get64(at + 0x10), 0xA0u + i);          // RAX
        EXPECT_EQ(memory.get64(at + 0x48), 0x7ffe0000u - i);    // RSP
        EXPECT_EQ(memory.get64(at + 0x88), 0xF0u + i);          // R15
        EXPECT_TRUE(written[k].has_registers);
    }
    EXPECT_EQ(memory.get64(kBuffer + 3 * 144), 0xEEEEEEEEEEEEEEEEull);  // nothing past the third record
    EXPECT_EQ(memory.get64(kDs + 0x28), kBuffer + 3 * 144);            // PEBS index advanced
    // The index is at or past the threshold (record 2) after the second and the third record: a PMI each time.
    const auto interrupts = pmis();
    ASSERT_EQ(interrupts.size(), 2u);  // and no imprecise PMI from the overflows
    EXPECT_TRUE(interrupts[0].pebs_threshold);
    EXPECT_EQ(interrupts[0].cycle, 60u);
    EXPECT_EQ(interrupts[0].eip, 0x400000u + 0x10 * 6);
    EXPECT_TRUE(interrupts[1].pebs_threshold);
    EXPECT_EQ(interrupts[1].eip, 0x400000u + 0x10 * 9);
}

// An instruction that came without registers (Outcome::regs null) leaves zeros, and the record says so.
TEST_F(PmuPebs, RecordWithoutRegistersSaysSo) {
    EXPECT_FALSE(pmu->pebs_enabled());
    set_up_ds(true, 2, 2, 1);
    program_replay_pebs(1);
    EXPECT_TRUE(pmu->pebs_enabled());
    for (unsigned i = 1; i <= 2; ++i) {
        Outcome o = missing_load(i);
        o.regs = nullptr;
        feed(o);
    }
    const auto written = records();
    ASSERT_EQ(written.size(), 1u);  // uop 2
    EXPECT_FALSE(written[0].has_registers);
    EXPECT_EQ(memory.get64(kBuffer + 0x08), 0x400000u + 0x10 * 2);  // RIP
    EXPECT_EQ(memory.get64(kBuffer + 0x10), 0u);                     // RAX
    wrmsr(kMsrPebsEnable, 0);
    EXPECT_FALSE(pmu->pebs_enabled());
}

TEST_F(PmuPebs, ThirtyTwoBitLayout) {
    PmuConfig legacy = test_config();
    legacy.long_mode = false;
    reset(legacy);
    set_up_ds(false, 4, 4, 1);
    program_replay_pebs(1);
    for (unsigned i = 1; i <= 4; ++i) feed(missing_load(i));
    const auto written = records();
    ASSERT_EQ(written.size(), 2u);  // uops 2 and 4
    EXPECT_EQ(written[1].address, kBuffer + 40);
    EXPECT_EQ(memory.get64(kBuffer + 40 + 0x00, 4), 0x246u);                 // EFLAGS
    EXPECT_EQ(memory.get64(kBuffer + 40 + 0x04, 4), 0x400000u + 0x10 * 4);  // linear IP
    EXPECT_EQ(memory.get64(kBuffer + 40 + 0x08, 4), 0xA0u + 4);             // EAX
    EXPECT_EQ(memory.get64(kBuffer + 40 + 0x24, 4), 0x7ffe0000u - 4);       // ESP
    EXPECT_EQ(memory.get64(kBuffer + 80, 4), 0xEEEEEEEEu);
    EXPECT_EQ(memory.get64(kDs + 0x14, 4), kBuffer + 80);
    EXPECT_TRUE(pmis().empty());  // threshold at record 4 not reached
}

TEST_F(PmuPebs, NotArmedWithoutEnablePebsOrOnOtherCounters) {
    set_up_ds(true, 4, 4, 1);
    program_replay_pebs(1);
    wrmsr(kMsrPebsEnable, metric_def(MetricId::L1LoadMissRetired).pebs_enable);  // UOP_TAG, no ENABLE_PEBS
    for (unsigned i = 1; i <= 4; ++i) feed(missing_load(i));
    EXPECT_TRUE(records().empty());
    EXPECT_FALSE(pmis().empty());  // an ordinary overflow with OVF_PMI_T0: imprecise PMI

    reset(test_config());
    set_up_ds(true, 4, 4, 1);
    program_replay_pebs(1);
    wrmsr(cccr_msr(16), 0);
    wrmsr(cccr_msr(12), cccr_value("replay_event"));  // counter 12 cannot do PEBS
    wrmsr(counter_msr(12), kCounterValueMask);
    for (unsigned i = 1; i <= 4; ++i) feed(missing_load(i));
    EXPECT_TRUE(records().empty());
}

TEST_F(PmuPebs, LogicalProcessorOneUsesIqCounter5) {
    PmuConfig ht = test_config();
    ht.machine.hyper_threading = true;
    reset(ht);
    set_up_ds(true, 4, 4, 1);
    wrmsr(kMsrDsArea, kDs, 0, 1);
    const MetricDef& m = metric_def(MetricId::L1LoadMissRetired);
    wrmsr(kMsrPebsEnable, m.pebs_enable | (1u << kPebsEnableMyThreadBit), 0, /*thread=*/1);
    wrmsr(kMsrPebsMatrixVert, m.matrix_vert);
    wrmsr(escr_msr("CRU_ESCR3"), escr_value("replay_event", {"NBOGUS"}, T1_USR | T1_OS));
    wrmsr(cccr_msr(17), cccr_value("replay_event"));
    wrmsr(counter_msr(17), kCounterValueMask);
    for (unsigned i = 1; i <= 2; ++i) {
        Outcome o = missing_load(i);
        o.thread = 1;
        feed(o);
    }
    const auto written = records();
    ASSERT_EQ(written.size(), 1u);
    EXPECT_EQ(written[0].thread, 1u);
    EXPECT_EQ(written[0].eip, 0x400000u + 0x20);
}

}  // namespace
}  // namespace netburst::emu::test
