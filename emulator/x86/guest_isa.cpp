// Each extension's name and CPUID feature flag (Intel SDM volume 2, each instruction's "CPUID Feature Flag" column).
#include "emulator/x86/guest_isa.h"

namespace netburst::emu::vg {

namespace {

using E = GuestExtension;

enum Reg : std::uint8_t { kEax, kEbx, kEcx, kEdx };

struct Fact {
    const char* name;
    CpuidFeature feature;
};
// In GuestExtension's order.
constexpr Fact kFacts[] = {
    {"none", {0, kEax, 0}},
    {"SSE3", {1, kEcx, 0}},
    {"MONITOR", {1, kEcx, 3}},
    {"SSSE3", {1, kEcx, 9}},
    {"SSE4.1", {1, kEcx, 19}},
    {"SSE4.2", {1, kEcx, 20}},
    {"POPCNT", {1, kEcx, 23}},
    {"LZCNT", {0x80000001, kEcx, 5}},
    {"MOVBE", {1, kEcx, 22}},
    {"AES", {1, kEcx, 25}},
    {"PCLMULQDQ", {1, kEcx, 1}},
    {"SHA", {7, kEbx, 29}},
    {"ADX", {7, kEbx, 19}},
    {"GFNI", {7, kEcx, 8}},
    {"AVX", {1, kEcx, 28}},
    {"AVX-512", {7, kEbx, 16}},
    {"CMPXCHG16B", {1, kEcx, 13}},
    {"LAHF-SAHF-64", {0x80000001, kEcx, 0}},
    {"XSAVE", {1, kEcx, 26}},
    {"RDRAND", {1, kEcx, 30}},
    {"RDSEED", {7, kEbx, 18}},
    {"RDTSCP", {0x80000001, kEdx, 27}},
    {"FSGSBASE", {7, kEbx, 0}},
    {"PREFETCHW", {0x80000001, kEcx, 8}},
    {"RTM", {7, kEbx, 11}},
};
static_assert(sizeof kFacts / sizeof kFacts[0] == static_cast<unsigned>(E::Count_), "one fact per extension");

}  // namespace

const char* extension_name(GuestExtension e) {
    const unsigned k = static_cast<unsigned>(e);
    return k < static_cast<unsigned>(E::Count_) ? kFacts[k].name : "?";
}

CpuidFeature extension_feature(GuestExtension e) {
    const unsigned k = static_cast<unsigned>(e);
    return k < static_cast<unsigned>(E::Count_) ? kFacts[k].feature : kFacts[0].feature;
}

}  // namespace netburst::emu::vg
