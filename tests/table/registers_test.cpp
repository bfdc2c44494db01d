// ESCR and CCCR layouts, including the register values worked out by hand in the thesis (section 9; doc/references.md).
#include <gtest/gtest.h>

#include "table/msr_map.h"
#include "table/registers.h"

using namespace netburst;

TEST(Escr, EncodeDecodeRoundTripsEveryField) {
    EscrFields f;
    f.t1_usr = true;
    f.t0_os = true;
    f.tag_enable = true;
    f.tag_value = 0xA;
    f.event_mask = 0x8001;
    f.event_select = 0x3F;
    const std::uint64_t v = encode_escr(f);
    EXPECT_EQ(v, (0x3Full << 25) | (0x8001ull << 9) | (0xAull << 5) | (1u << 4) | (1u << 3) | 1u);
    const EscrFields g = decode_escr(v);
    EXPECT_EQ(encode_escr(g), v);
    EXPECT_EQ(v & kEscrReservedMask, 0u);
}

TEST(Escr, ThesisBranchRetiredTakenUserThread0) {
    // Section 9.1: branch_retired (06H), MMTP|MMTM (mask bits 2 and 3), T0_USR only.
    EscrFields f;
    f.event_select = 0x06;
    f.event_mask = 0x000C;
    f.t0_usr = true;
    EXPECT_EQ(encode_escr(f), 0x0C001804u);
}

TEST(Cccr, ThesisBranchRetiredThresholdTwo) {
    // Section 9.1: ESCR select 5 (CRU_ESCR2/3), enable, active thread 11, compare with threshold 2.
    CccrFields f;
    f.enable = true;
    f.escr_select = 5;
    f.active_thread = ActiveThread::Any;
    f.compare = true;
    f.threshold = 2;
    EXPECT_EQ(encode_cccr(f), 0x0027B000u);
}

TEST(Cccr, EncodeDecodeRoundTripsEveryField) {
    CccrFields f;
    f.extended_cascade = true;
    f.enable = true;
    f.escr_select = 7;
    f.active_thread = ActiveThread::Single;
    f.compare = true;
    f.complement = true;
    f.threshold = 15;
    f.edge = true;
    f.force_ovf = true;
    f.ovf_pmi_t0 = true;
    f.ovf_pmi_t1 = true;
    f.cascade = true;
    f.ovf = true;
    const std::uint64_t v = encode_cccr(f);
    EXPECT_EQ(v, 0xCFFDF800u);
    EXPECT_EQ(encode_cccr(decode_cccr(v)), v);
}

TEST(Cccr, ReservedBitsDependOnBlockAndModel) {
    EXPECT_TRUE(cccr_reserved_mask(12, 1) & (1u << 11)) << "no extended cascade before model 2";
    EXPECT_FALSE(cccr_reserved_mask(12, 2) & (1u << 11));
    EXPECT_TRUE(cccr_reserved_mask(0, 2) & (1u << 11)) << "extended cascade is an IQ-block feature";
    for (unsigned c = 0; c < kNumCounters; ++c) {
        const std::uint64_t r = cccr_reserved_mask(c, 3);
        EXPECT_TRUE(r & (1ull << 28));
        EXPECT_TRUE(r & (1ull << 29));
        EXPECT_TRUE(r & (1ull << 32));
        EXPECT_FALSE(r & (1ull << 31));
        EXPECT_FALSE(r & (1ull << 12));
    }
}

TEST(Counter, FortyBitsWide) {
    EXPECT_EQ(kCounterValueMask, 0xFFFFFFFFFFull);
    EXPECT_EQ(kCounterReservedMask & kCounterValueMask, 0u);
}
