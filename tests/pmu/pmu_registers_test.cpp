// The register file: reset values, which MSRs exist on which model, and every #GP rule (unknown MSR, reserved
// bits of each register kind, IA32_MISC_ENABLE, rdpmc indices).
#include "tests/pmu/pmu_test_util.h"

namespace netburst::emu::test {
namespace {

class PmuRegisters : public PmuTest {
protected:
    MsrResult write(std::uint32_t msr, std::uint64_t value, unsigned thread = 0) {
        return pmu->write_msr(thread, msr, value, 0);
    }
};

TEST_F(PmuRegisters, EveryPmuMsrResetsToZero) {
    for (unsigned n = 0; n < kNumCounters; ++n) {
        EXPECT_EQ(rdmsr(counter_msr(n)), 0u);
        EXPECT_EQ(rdmsr(cccr_msr(n)), 0u);
    }
    for (const EscrDef& e : kEscrs) EXPECT_EQ(rdmsr(e.msr), 0u) << e.name;
    EXPECT_EQ(rdmsr(kMsrPebsEnable), 0u);
    EXPECT_EQ(rdmsr(kMsrPebsMatrixVert), 0u);
    EXPECT_EQ(rdmsr(kMsrTcPreciseEvent), 0u);
    EXPECT_EQ(rdmsr(kMsrDsArea), 0u);
}

TEST_F(PmuRegisters, IqEscrsExistOnlyOnModelsZeroToTwo) {
    for (unsigned model : {0u, 1u, 2u, 3u, 4u, 6u}) {
        PmuConfig c = test_config();
        c.machine.model = model;
        reset(c);
        std::uint64_t v = 0;
        const MsrResult expected = model <= 2 ? MsrResult::Ok : MsrResult::GeneralProtection;
        EXPECT_EQ(pmu->read_msr(0, 0x3BA, &v, 0), expected) << "model " << model;
        EXPECT_EQ(pmu->write_msr(0, 0x3BB, 0, 0), expected) << "model " << model;
    }
}

TEST_F(PmuRegisters, UnknownMsrsFault) {
    std::uint64_t v = 0;
    // SSU_ESCR1 (Linux's guess), the gaps in the ESCR range, past the last counter and CCCR, and random MSRs.
    for (std::uint32_t msr : {0x3BFu, 0x3C6u, 0x3C7u, 0x3CEu, 0x3DFu, 0x3E2u, 0x312u, 0x372u, 0x0u, 0x10u, 0x3F3u,
                              0x601u, 0xC0000080u}) {
        EXPECT_EQ(pmu->read_msr(0, msr, &v, 0), MsrResult::GeneralProtection) << std::hex << msr;
        EXPECT_EQ(write(msr, 0), MsrResult::GeneralProtection) << std::hex << msr;
    }
}

TEST_F(PmuRegisters, EscrReservedBitsFaultAndChangeNothing) {
    const std::uint32_t msr = escr_msr("CRU_ESCR2");
    wrmsr(msr, 0x0C001804);
    for (unsigned b = 31; b < 64; ++b) {
        EXPECT_EQ(write(msr, 0x0C001804 | (1ull << b)), MsrResult::GeneralProtection) << "bit " << b;
        EXPECT_EQ(rdmsr(msr), 0x0C001804u);
    }
    EXPECT_EQ(write(msr, 0x7FFFFFFF), MsrResult::Ok);  // every field bit is writable
}

TEST_F(PmuRegisters, CccrReservedBitsFollowTheModel) {
    for (unsigned model : {0u, 1u, 2u, 3u, 4u, 6u}) {
        PmuConfig c = test_config();
        c.machine.model = model;
        reset(c);
        for (unsigned n = 0; n < kNumCounters; ++n) {
            const std::uint64_t reserved = cccr_reserved_mask(n, model);
            for (unsigned b = 0; b < 64; ++b) {
                const std::uint64_t v = 1ull << b;
                const MsrResult r = write(cccr_msr(n), v);
                if (reserved & v) {
                    EXPECT_EQ(r, MsrResult::GeneralProtection) << "model " << model << " cccr " << n << " bit " << b;
                    EXPECT_EQ(rdmsr(cccr_msr(n)), 0u);
                } else {
                    EXPECT_EQ(r, MsrResult::Ok) << "model " << model << " cccr " << n << " bit " << b;
                    wrmsr(cccr_msr(n), 0);
                }
            }
        }
    }
    // Bit 11 (extended cascading) is writable exactly on the IQ CCCRs of models 2, 3, 4 and 6.
    reset(test_config());
    EXPECT_EQ(write(cccr_msr(12), 1u << 11), MsrResult::Ok);
    EXPECT_EQ(write(cccr_msr(0), 1u << 11), MsrResult::GeneralProtection);
    PmuConfig willamette = test_config();
    willamette.machine.model = 1;
    reset(willamette);
    EXPECT_EQ(write(cccr_msr(12), 1u << 11), MsrResult::GeneralProtection);
}

TEST_F(PmuRegisters, CountersAreFortyBitsWide) {
    for (unsigned n = 0; n < kNumCounters; ++n) {
        EXPECT_EQ(write(counter_msr(n), kCounterValueMask), MsrResult::Ok);
        EXPECT_EQ(rdmsr(counter_msr(n)), kCounterValueMask);
        for (unsigned b = 40; b < 64; ++b) {
            EXPECT_EQ(write(counter_msr(n), 1ull << b), MsrResult::GeneralProtection) << n << " bit " << b;
            EXPECT_EQ(rdmsr(counter_msr(n)), kCounterValueMask);
        }
    }
}

TEST_F(PmuRegisters, PebsEnableAndMatrixVertWritableBits) {
    for (unsigned b = 0; b < 64; ++b) {
        const std::uint64_t v = 1ull << b;
        EXPECT_EQ(write(kMsrPebsEnable, v), (kPebsEnableWritableMask & v) ? MsrResult::Ok : MsrResult::GeneralProtection)
            << "PEBS_ENABLE bit " << b;
        EXPECT_EQ(write(kMsrPebsMatrixVert, v),
                  (kMatrixVertWritableMask & v) ? MsrResult::Ok : MsrResult::GeneralProtection)
            << "MATRIX_VERT bit " << b;
    }
    wrmsr(kMsrPebsEnable, 0x01000001);
    EXPECT_EQ(write(kMsrPebsEnable, 0x01000001 | (1ull << 3)), MsrResult::GeneralProtection);
    EXPECT_EQ(rdmsr(kMsrPebsEnable), 0x01000001u);
    wrmsr(kMsrPebsMatrixVert, 0x13);
    EXPECT_EQ(rdmsr(kMsrPebsMatrixVert), 0x13u);
}

TEST_F(PmuRegisters, PebsEnableBits25And26AreRelativeToTheWriter) {
    PmuConfig ht = test_config();
    ht.machine.hyper_threading = true;
    reset(ht);
    wrmsr(kMsrPebsEnable, (1u << 24) | (1u << 25), 0, /*thread=*/1);
    EXPECT_EQ(rdmsr(kMsrPebsEnable, 0, 1), (1u << 24) | (1u << 25));
    EXPECT_EQ(rdmsr(kMsrPebsEnable, 0, 0), (1u << 24) | (1u << 26));  // "the other thread" seen from LP0
}

TEST_F(PmuRegisters, TcPreciseEventAcceptsOnlyZero) {
    EXPECT_EQ(write(kMsrTcPreciseEvent, 0), MsrResult::Ok);
    for (unsigned b = 0; b < 64; ++b) EXPECT_EQ(write(kMsrTcPreciseEvent, 1ull << b), MsrResult::GeneralProtection);
}

TEST_F(PmuRegisters, MiscEnableReportsPmuAndPebsAndRefusesWrites) {
    EXPECT_EQ(rdmsr(kMsrMiscEnable), 1u << kMiscEnablePmuAvailableBit);
    EXPECT_EQ(write(kMsrMiscEnable, 1u << kMiscEnablePmuAvailableBit), MsrResult::GeneralProtection);
    PmuConfig no_pebs = test_config();
    no_pebs.pebs_available = false;
    reset(no_pebs);
    EXPECT_EQ(rdmsr(kMsrMiscEnable), (1u << kMiscEnablePmuAvailableBit) | (1u << kMiscEnablePebsUnavailableBit));
}

TEST_F(PmuRegisters, DsAreaHoldsACanonicalLinearAddress) {
    wrmsr(kMsrDsArea, 0x00007fffdead0000ull);
    EXPECT_EQ(rdmsr(kMsrDsArea), 0x00007fffdead0000ull);
    wrmsr(kMsrDsArea, 0xffff800000001000ull);
    EXPECT_EQ(write(kMsrDsArea, 0x0000800000000000ull), MsrResult::GeneralProtection);
    EXPECT_EQ(rdmsr(kMsrDsArea), 0xffff800000001000ull);
}

TEST_F(PmuRegisters, RdpmcSelectsByEcxAndFastReadsLow32Bits) {
    wrmsr(counter_msr(13), 0xAB12345678ull);
    std::uint64_t v = 0;
    ASSERT_EQ(pmu->read_pmc(0, 13, &v, 0), MsrResult::Ok);
    EXPECT_EQ(v, 0xAB12345678ull);
    ASSERT_EQ(pmu->read_pmc(0, 13u | 0x80000000u, &v, 0), MsrResult::Ok);
    EXPECT_EQ(v, 0x12345678ull);
    for (unsigned index = 18; index < 32; ++index)
        EXPECT_EQ(pmu->read_pmc(0, index, &v, 0), MsrResult::GeneralProtection) << index;
    ASSERT_EQ(pmu->read_pmc(0, 17, &v, 0), MsrResult::Ok);
}

TEST_F(PmuRegisters, CccrOvfIsWritableAndReadBack) {
    wrmsr(cccr_msr(4), 1ull << kCccrOvfBit);
    EXPECT_TRUE(ovf(4));
    wrmsr(cccr_msr(4), 0);
    EXPECT_FALSE(ovf(4));
}

}  // namespace
}  // namespace netburst::emu::test
