// The guest's CPUID (emulator/x86/guest_cpuid.h): the emulated model's identity, features, caches and
// topology. Where a real part's dump (InstLatx64, named in guest_cpuid.cpp) has the same caches and topology, the
// registers must be that dump's.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "emulator/x86/guest_cpuid.h"
#include "emulator/x86/machine_info.h"

using namespace netburst::emu::vg;

namespace {

nb_emulator_info machine(unsigned model, bool ht = false, bool l3 = false) {
    nb_emulator_info m;
    describe_machine(netburst::emu::EmulatedMachine{}.with_model(model).with_ht(ht).with_l3(l3), &m);
    return m;
}

void expect_regs(const CpuidRegs& r, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d,
                 const char* what) {
    EXPECT_EQ(r.eax, a) << what;
    EXPECT_EQ(r.ebx, b) << what;
    EXPECT_EQ(r.ecx, c) << what;
    EXPECT_EQ(r.edx, d) << what;
}

std::string brand(const nb_emulator_info& m) {
    char text[49] = {};
    for (unsigned part = 0; part < 3; ++part) {
        const CpuidRegs r = guest_cpuid(m, 0, 0x80000002 + part, 0);
        const std::uint32_t regs[4] = {r.eax, r.ebx, r.ecx, r.edx};
        std::memcpy(text + 16 * part, regs, 16);
    }
    return text;
}

constexpr unsigned kModels[] = {0, 1, 2, 3, 4, 6};
constexpr std::uint32_t kSse2 = 1u << 26, kHtt = 1u << 28;
constexpr std::uint32_t kSse3 = 1u << 0, kSsse3 = 1u << 9, kSse41 = 1u << 19, kSse42 = 1u << 20, kAvx = 1u << 28;
constexpr std::uint32_t kLongMode = 1u << 29;

}  // namespace

TEST(GuestCpuid, EveryModelIsAGenuineIntelFamily15OfItsModel) {
    for (unsigned model : kModels) {
        const nb_emulator_info m = machine(model);
        const CpuidRegs v = guest_cpuid(m, 0, 0, 0);
        char vendor[13] = {};
        std::memcpy(vendor, &v.ebx, 4);
        std::memcpy(vendor + 4, &v.edx, 4);
        std::memcpy(vendor + 8, &v.ecx, 4);
        EXPECT_STREQ(vendor, "GenuineIntel") << model;
        const CpuidRegs f = guest_cpuid(m, 0, 1, 0);
        EXPECT_EQ((f.eax >> 8) & 0xF, 15u) << model;
        EXPECT_EQ((f.eax >> 4) & 0xF, model) << model;
        EXPECT_EQ(f.eax & 0xF, m.stepping) << model;
        EXPECT_EQ(f.eax >> 16, 0u) << "no extended family or model: " << model;
        EXPECT_NE(f.edx & kSse2, 0u) << model;
        EXPECT_EQ((f.ecx & kSse3) != 0, model >= 3) << model;
        EXPECT_EQ(f.ecx & (kSsse3 | kSse41 | kSse42 | kAvx), 0u) << model;
        EXPECT_EQ((guest_cpuid(m, 0, 0x80000001, 0).edx & kLongMode) != 0, model >= 3) << model;
        EXPECT_NE(brand(m).find(model >= 3 && model != 4 ? "Xeon" : "Pentium(R) 4"), std::string::npos) << model;
        EXPECT_EQ(brand(m).size(), 47u) << model;
    }
}

TEST(GuestCpuid, RegistersAreTheDumpsOfTheChosenParts) {
    // F29 Pentium 4 2.80GHz with HT, logical processor 0 and 1.
    const nb_emulator_info northwood = machine(2, true);
    expect_regs(guest_cpuid(northwood, 0, 0, 0), 2, 0x756E6547, 0x6C65746E, 0x49656E69, "F29 leaf 0");
    expect_regs(guest_cpuid(northwood, 0, 1, 0), 0xF29, 0x00020809, 0x4400, 0xBFEBFBFF, "F29 leaf 1");
    expect_regs(guest_cpuid(northwood, 1, 1, 0), 0xF29, 0x01020809, 0x4400, 0xBFEBFBFF, "F29 leaf 1, LP 1");
    expect_regs(guest_cpuid(northwood, 0, 0x80000000, 0), 0x80000004, 0, 0, 0, "F29 0x80000000");
    expect_regs(guest_cpuid(northwood, 0, 0x80000002, 0), 0x20202020, 0x20202020, 0x20202020, 0x6E492020, "F29 brand");
    expect_regs(guest_cpuid(northwood, 0, 0x80000004, 0), 0x20342029, 0x20555043, 0x30382E32, 0x007A4847, "F29 brand");
    // F43 Pentium 4 640 with HT.
    const nb_emulator_info prescott = machine(4, true);
    expect_regs(guest_cpuid(prescott, 0, 0, 0), 5, 0x756E6547, 0x6C65746E, 0x49656E69, "F43 leaf 0");
    expect_regs(guest_cpuid(prescott, 0, 1, 0), 0xF43, 0x00020800, 0x649D, 0xBFEBFBFF, "F43 leaf 1");
    // The dump's ITLB descriptor is 50H (64 entries); the core model's ITLB has 128 (51H, as in the F27 and F41
    // dumps), and leaf 2 describes the model.
    expect_regs(guest_cpuid(prescott, 0, 2, 0), 0x605B5101, 0, 0, 0x007D7040, "F43 leaf 2");
    expect_regs(guest_cpuid(prescott, 0, 4, 0), 0x4121, 0x01C0003F, 0x1F, 0, "F43 leaf 4, L1");
    expect_regs(guest_cpuid(prescott, 0, 4, 1), 0x4143, 0x01C0103F, 0x7FF, 0, "F43 leaf 4, L2");
    expect_regs(guest_cpuid(prescott, 0, 4, 2), 0, 0, 0, 0, "F43 leaf 4, end");
    expect_regs(guest_cpuid(prescott, 0, 5, 0), 0x40, 0x40, 0, 0, "F43 leaf 5");
    expect_regs(guest_cpuid(prescott, 0, 0x80000001, 0), 0, 0, 0, 0x20100000, "F43 0x80000001");
    expect_regs(guest_cpuid(prescott, 0, 0x80000006, 0), 0, 0, 0x08006040, 0, "F43 0x80000006");
    expect_regs(guest_cpuid(prescott, 0, 0x80000008, 0), 0x3024, 0, 0, 0, "F43 0x80000008");
    expect_regs(guest_cpuid(prescott, 0, 0x80000003, 0), 0x286C6574, 0x50202952, 0x69746E65, 0x52286D75, "F43 brand");
    // F34 Nocona: Intel 64 without CMPXCHG16B.
    const nb_emulator_info nocona = machine(3, true);
    expect_regs(guest_cpuid(nocona, 0, 1, 0), 0xF34, 0x00020800, 0x441D, 0xBFEBFBFF, "F34 leaf 1");
    expect_regs(guest_cpuid(nocona, 0, 0x80000001, 0), 0, 0, 0, 0x20000000, "F34 0x80000001");
    expect_regs(guest_cpuid(nocona, 0, 0x80000006, 0), 0, 0, 0x04006040, 0, "F34 0x80000006");
    // F64 Dempsey: LAHF/SAHF in 64-bit mode.
    expect_regs(guest_cpuid(machine(6, true), 0, 0x80000001, 0), 0, 0, 1, 0x20100000, "F64 0x80000001");
}

TEST(GuestCpuid, HyperThreadingIsWhatTheRunSays) {
    for (unsigned model : kModels) {
        const CpuidRegs one = guest_cpuid(machine(model, false), 0, 1, 0);
        EXPECT_EQ(one.edx & kHtt, 0u) << model;
        EXPECT_EQ((one.ebx >> 16) & 0xFF, 1u) << model;
        const nb_emulator_info ht = machine(model, true);
        for (unsigned lp = 0; lp < 2; ++lp) {
            const CpuidRegs two = guest_cpuid(ht, lp, 1, 0);
            EXPECT_NE(two.edx & kHtt, 0u) << model;
            EXPECT_EQ((two.ebx >> 16) & 0xFF, 2u) << model;
            EXPECT_EQ(two.ebx >> 24, lp) << model;
        }
    }
}

TEST(GuestCpuid, Leaf2DescribesTheModelledCachesAndTlbs) {
    struct Case {
        unsigned model;
        bool l3;
        std::uint8_t l1, l2, l3_or_none;
    };
    const Case cases[] = {{0, false, 0x66, 0x7A, 0x40}, {1, false, 0x66, 0x7A, 0x40}, {2, false, 0x66, 0x7B, 0x40},
                          {2, true, 0x66, 0x7B, 0x25},  {3, false, 0x60, 0x7C, 0x40}, {4, false, 0x60, 0x7D, 0x40},
                          {4, true, 0x60, 0x7D, 0x47},  {6, false, 0x60, 0x7D, 0x40}, {6, true, 0x60, 0x7D, 0x47}};
    for (const Case& c : cases) {
        const nb_emulator_info m = machine(c.model, false, c.l3);
        std::uint8_t bytes[16] = {};
        // Every cache and TLB of the model has its descriptor: none is left out.
        ASSERT_EQ(leaf2_descriptors(m, bytes, sizeof bytes), 7u) << c.model;
        const std::uint8_t expected[7] = {0x01, 0x51, 0x5B, c.l1, c.l3_or_none, 0x70, c.l2};
        for (unsigned i = 0; i < 7; ++i) EXPECT_EQ(bytes[i], expected[i]) << c.model << " byte " << i;
    }
}

TEST(GuestCpuid, Leaf4FollowsTheCachesOnPrescottModels) {
    const nb_emulator_info m = machine(4, false, true);
    const CpuidRegs l3 = guest_cpuid(m, 0, 4, 2);
    EXPECT_EQ(l3.eax & 0xFF, 0x63u);  // unified, level 3
    const std::uint32_t ways = (l3.ebx >> 22) + 1, partitions = ((l3.ebx >> 12) & 0x3FF) + 1;
    const std::uint32_t line = (l3.ebx & 0xFFF) + 1;
    EXPECT_EQ(ways * partitions * line * (l3.ecx + 1), m.l3_size);
    EXPECT_EQ(guest_cpuid(m, 0, 4, 3).eax, 0u);
    EXPECT_EQ((guest_cpuid(machine(4, false), 0, 4, 0).eax >> 14) & 0xFFF, 0u) << "one logical processor";
}

TEST(GuestCpuid, LeavesBeyondTheMaximumAnswerTheHighestBasicLeaf) {
    const nb_emulator_info northwood = machine(2);
    const CpuidRegs leaf2 = guest_cpuid(northwood, 0, 2, 0);
    for (std::uint32_t leaf : {4u, 7u, 0xBu, 0x80000005u, 0x80000008u, 0x40000000u}) {
        const CpuidRegs r = guest_cpuid(northwood, 0, leaf, 0);
        EXPECT_EQ(r.eax, leaf2.eax) << std::hex << leaf;
        EXPECT_EQ(r.edx, leaf2.edx) << std::hex << leaf;
    }
    EXPECT_EQ(guest_cpuid(machine(4), 0, 7, 0).eax, 0x40u) << "leaf 5's data";
    EXPECT_FALSE(guest_has_feature(machine(6), CpuidFeature{7, 1, 16})) << "leaf 7 is beyond model 6's maximum";
}

TEST(GuestCpuid, TheQuerysSteppingIsCpuids) {
    for (unsigned model : kModels) {
        const nb_emulator_info m = machine(model);
        ASSERT_NE(guest_cpu_identity(model), nullptr);
        EXPECT_EQ(m.stepping, guest_cpu_identity(model)->stepping);
    }
    EXPECT_EQ(guest_cpu_identity(5), nullptr);
}
