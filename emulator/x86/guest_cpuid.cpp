// Notes:
// - Identity and features come from one CPUID dump of a real part per model, in the InstLatx64/InstLatx64
//   repository on GitHub (GenuineIntel/GenuineIntel0000FMS_*_CPUID.txt, FMS the signature). Each dump was chosen
//   whose L2 is the one the core model gives that model, so that the brand string and the caches agree. Model 1 has
//   no such dump: its registers are those of the F13 dump (a Celeron with 128 KB), its brand string the same
//   format for the Pentium 4 with the model's 256 KB.
// - Intel 64 (EM64T, leaf 0x80000001 EDX bit 29) is reported from model 3 on: the F34 Nocona and the F41, F43 and
//   F64 dumps set it; no model 0-2 dump does. (Desktop Prescotts of model 3, such as the F34 Pentium 4 3.00GHz
//   dump, had it fused off; the model-3 part here is the Nocona, so that the x86-64 guest runs on a CPU that has
//   64-bit mode.)
// - HTT (leaf 1 EDX bit 28) is set only with --ht. Real parts of every model set it even with one logical processor
//   per package (the F0A, F24 and F41 dumps, with EBX[23:16] = 1); here it tells a program whether --ht is on.
// - Topology is the emulator's: one core per package, one or two logical processors. Dual-core parts' fields
//   (leaf 4 EAX[31:26]) are not copied.
// - The SDM's rule for leaves above the maximum: the highest basic leaf's data.
#include "emulator/x86/guest_cpuid.h"

namespace netburst::emu::vg {

namespace {

constexpr std::uint32_t kHtt = 1u << 28;

// Brand strings are right-justified in 47 characters, as these parts report them.
const GuestCpuIdentity kIdentities[7] = {
    // 0: F0A, Pentium 4 1700MHz (Willamette, 256 KB L2)
    {0xA, 2, 0x80000004, 0x08, 0x00000000, 0x3FEBFBFF & ~kHtt, 0, 0, 0, "Intel(R) Pentium(R) 4 CPU 1700MHz"},
    // 1: F13 registers (a Willamette Celeron 1.70GHz); brand string of a Pentium 4 (constructed, see Notes)
    {0x3, 2, 0x80000004, 0x09, 0x00000000, 0x3FEBFBFF & ~kHtt, 0, 0, 0, "Intel(R) Pentium(R) 4 CPU 1.70GHz"},
    // 2: F29, Pentium 4 2.80GHz with Hyper-Threading (Northwood D1, 512 KB L2)
    {0x9, 2, 0x80000004, 0x09, 0x00004400, 0xBFEBFBFF & ~kHtt, 0, 0, 0, "Intel(R) Pentium(R) 4 CPU 2.80GHz"},
    // 3: F34, Xeon 2.80GHz (Nocona D0, 1 MB L2): SSE3, Intel 64
    {0x4, 5, 0x80000008, 0x00, 0x0000441D, 0xBFEBFBFF & ~kHtt, 0, 0x20000000, 0x3024, "Intel(R) Xeon(TM) CPU 2.80GHz"},
    // 4: F43, Pentium 4 640 3.20GHz (Prescott-2M N0, 2 MB L2): SSE3, CMPXCHG16B, Intel 64, XD
    {0x3, 5, 0x80000008, 0x00, 0x0000649D, 0xBFEBFBFF & ~kHtt, 0, 0x20100000, 0x3024,
     "Intel(R) Pentium(R) 4 CPU 3.20GHz"},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, nullptr},  // there is no model 5
    // 6: F64, Xeon 5060 3.20GHz (Dempsey C1, 2 MB L2 per core): SSE3, CMPXCHG16B, LAHF/SAHF in 64-bit mode
    {0x4, 6, 0x80000008, 0x00, 0x0000E43D, 0xBFEBFBFF & ~kHtt, 0x00000001, 0x20100000, 0x3024,
     "Intel(R) Xeon(TM) CPU 3.20GHz"},
};

constexpr std::uint32_t kKB = 1024;

// Leaf-2 descriptors (SDM Vol. 2A, CPUID, Table 3-12) of the kinds a NetBurst core has. Sizes are bytes, entries
// (TLBs, whose descriptors give no associativity) or uops (the trace cache); the caches' lines are 64 bytes.
enum class Unit : std::uint8_t { Itlb, Dtlb, L1d, Trace, L2, L3 };
struct Descriptor {
    std::uint8_t byte;
    Unit unit;
    std::uint32_t size;
    std::uint32_t ways;  // 0: not given
};
constexpr Descriptor kDescriptors[] = {
    {0x50, Unit::Itlb, 64, 0},           {0x51, Unit::Itlb, 128, 0},          {0x52, Unit::Itlb, 256, 0},
    {0x5B, Unit::Dtlb, 64, 0},           {0x5C, Unit::Dtlb, 128, 0},          {0x5D, Unit::Dtlb, 256, 0},
    {0x66, Unit::L1d, 8 * kKB, 4},       {0x60, Unit::L1d, 16 * kKB, 8},      {0x67, Unit::L1d, 16 * kKB, 4},
    {0x68, Unit::L1d, 32 * kKB, 4},      {0x70, Unit::Trace, 12 * kKB, 8},    {0x71, Unit::Trace, 16 * kKB, 8},
    {0x72, Unit::Trace, 32 * kKB, 8},    {0x79, Unit::L2, 128 * kKB, 8},      {0x7A, Unit::L2, 256 * kKB, 8},
    {0x7B, Unit::L2, 512 * kKB, 8},      {0x7C, Unit::L2, 1024 * kKB, 8},     {0x7D, Unit::L2, 2048 * kKB, 8},
    {0x22, Unit::L3, 512 * kKB, 4},      {0x23, Unit::L3, 1024 * kKB, 8},     {0x25, Unit::L3, 2048 * kKB, 8},
    {0x29, Unit::L3, 4096 * kKB, 8},     {0x47, Unit::L3, 8192 * kKB, 8},
};
constexpr std::uint8_t kNoL3 = 0x40;  // "no 3rd-level cache" when there is an L2

// The descriptor of a cache or TLB, 0 when there is none.
std::uint8_t descriptor(Unit unit, std::uint32_t size, std::uint32_t ways, std::uint32_t line) {
    const bool cache = unit == Unit::L1d || unit == Unit::L2 || unit == Unit::L3;
    if (cache && line != 64) return 0;
    for (const Descriptor& d : kDescriptors)
        if (d.unit == unit && d.size == size && (d.ways == 0 || d.ways == ways)) return d.byte;
    return 0;
}

// The associativity field of leaf 0x80000006 ECX.
std::uint32_t l2_associativity_code(std::uint32_t ways) {
    switch (ways) {
    case 1: return 1;
    case 2: return 2;
    case 4: return 4;
    case 8: return 6;
    case 16: return 8;
    default: return 0;
    }
}

std::uint32_t pack4(const char* s) {
    return static_cast<std::uint8_t>(s[0]) | static_cast<std::uint8_t>(s[1]) << 8 |
           static_cast<std::uint8_t>(s[2]) << 16 | static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[3])) << 24;
}

CpuidRegs brand_part(const char* text, std::uint32_t part) {
    char brand[48];
    std::uint32_t len = 0;
    while (text[len]) ++len;
    const std::uint32_t pad = len < 47 ? 47 - len : 0;
    for (std::uint32_t i = 0; i < 47; ++i) brand[i] = i < pad ? ' ' : text[i - pad];
    brand[47] = 0;
    const char* p = brand + 16 * part;
    return CpuidRegs{pack4(p), pack4(p + 4), pack4(p + 8), pack4(p + 12)};
}

CpuidRegs basic_or_extended(const nb_emulator_info& m, const GuestCpuIdentity& id, unsigned lp,
                            std::uint32_t leaf, std::uint32_t subleaf) {
    CpuidRegs r;
    switch (leaf) {
    case 0:
        return CpuidRegs{id.max_basic, pack4("Genu"), pack4("ntel"), pack4("ineI")};
    case 1: {
        const std::uint32_t logical = m.hyper_threading ? 2 : 1;
        r.eax = 0xF00 | m.model << 4 | id.stepping;
        r.ebx = id.brand_index | 8u << 8 /* clflush: 8 quadwords */ | logical << 16 | (lp & 0xFF) << 24;
        r.ecx = id.features_ecx;
        r.edx = id.features_edx | (m.hyper_threading ? kHtt : 0);
        return r;
    }
    case 2: {
        std::uint8_t bytes[16] = {};
        leaf2_descriptors(m, bytes, sizeof bytes);
        // AL first, then EAX's upper bytes, then EDX (EBX and ECX stay empty, as on these parts).
        r.eax = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | static_cast<std::uint32_t>(bytes[3]) << 24;
        r.edx = bytes[4] | bytes[5] << 8 | bytes[6] << 16 | static_cast<std::uint32_t>(bytes[7]) << 24;
        return r;
    }
    case 4:
        return guest_cache_parameters(m, subleaf);
    case 5:
        return CpuidRegs{64, 64, 0, 0};  // MONITOR line sizes, as the model 3-6 dumps give them
    case 0x80000000:
        return CpuidRegs{id.max_extended, 0, 0, 0};
    case 0x80000001:
        return CpuidRegs{0, 0, id.extended_ecx, id.extended_edx};
    case 0x80000002: case 0x80000003: case 0x80000004:
        return brand_part(id.brand, leaf - 0x80000002);
    case 0x80000006:
        r.ecx = (m.l2_size / 1024) << 16 | l2_associativity_code(m.l2_ways) << 12 | m.l2_sector;
        return r;
    case 0x80000008:
        return CpuidRegs{id.address_sizes, 0, 0, 0};
    default:
        return r;  // 3, 6, 0x80000005, 0x80000007: all zero on these parts
    }
}

}  // namespace

// The L2 and L3 are given as 64-byte lines in two partitions (their 128-byte lines are two sectors), as the F34,
// F43 and F64 dumps give them.
CpuidRegs guest_cache_parameters(const nb_emulator_info& m, std::uint32_t index) {
    struct Cache {
        std::uint32_t type, level, size, ways, line, partitions;
    };
    const Cache caches[3] = {{1, 1, m.l1d_size, m.l1d_ways, m.l1d_line, 1},
                             {3, 2, m.l2_size, m.l2_ways, m.l2_sector, 2},
                             {3, 3, m.l3_size, m.l3_ways, m.l3_sector, 2}};
    const std::uint32_t present = m.l3_size ? 3 : 2;
    CpuidRegs r;
    if (index >= present) return r;  // type 0: no more caches
    const Cache& c = caches[index];
    const std::uint32_t sharing = m.hyper_threading ? 1 : 0;  // logical processors sharing it, minus one
    r.eax = c.type | c.level << 5 | 1u << 8 /* self-initialising */ | sharing << 14;
    r.ebx = (c.line - 1) | (c.partitions - 1) << 12 | (c.ways - 1) << 22;
    r.ecx = c.size / (c.line * c.partitions * c.ways) - 1;
    return r;
}

unsigned guest_cpu_mhz(unsigned model) {
    const GuestCpuIdentity* id = guest_cpu_identity(model);
    if (id == nullptr) return 0;
    // The number just before "MHz" or "GHz", with its decimals.
    const char* text = id->brand;
    for (unsigned i = 0; text[i] != 0; ++i) {
        if ((text[i] != 'M' && text[i] != 'G') || text[i + 1] != 'H' || text[i + 2] != 'z') continue;
        unsigned start = i;
        while (start > 0 && ((text[start - 1] >= '0' && text[start - 1] <= '9') || text[start - 1] == '.')) --start;
        unsigned whole = 0, fraction = 0, scale = 1;
        bool after_point = false;
        for (unsigned k = start; k < i; ++k) {
            if (text[k] == '.') {
                after_point = true;
            } else if (after_point) {
                fraction = fraction * 10 + static_cast<unsigned>(text[k] - '0');
                scale *= 10;
            } else {
                whole = whole * 10 + static_cast<unsigned>(text[k] - '0');
            }
        }
        return text[i] == 'M' ? whole : whole * 1000 + fraction * 1000 / scale;
    }
    return 0;
}

const GuestCpuIdentity* guest_cpu_identity(unsigned model) {
    if (model >= 7 || !kIdentities[model].brand) return nullptr;
    return &kIdentities[model];
}

unsigned leaf2_descriptors(const nb_emulator_info& m, std::uint8_t* out, unsigned capacity) {
    const std::uint8_t bytes[8] = {
        0x01,  // CPUID(2) needs to be executed once
        descriptor(Unit::Itlb, m.itlb_entries, m.itlb_ways, 0),
        descriptor(Unit::Dtlb, m.dtlb_entries, m.dtlb_entries, 0),
        descriptor(Unit::L1d, m.l1d_size, m.l1d_ways, m.l1d_line),
        m.l3_size ? descriptor(Unit::L3, m.l3_size, m.l3_ways, m.l3_sector) : kNoL3,
        descriptor(Unit::Trace, m.trace_cache_uops, m.trace_cache_ways, 0),
        descriptor(Unit::L2, m.l2_size, m.l2_ways, m.l2_sector),
        0,
    };
    unsigned n = 0;
    for (std::uint8_t b : bytes)
        if (n < capacity && (n == 0 || b != 0)) out[n++] = b;
    return n;
}

CpuidRegs guest_cpuid(const nb_emulator_info& m, unsigned lp, std::uint32_t leaf, std::uint32_t subleaf) {
    const GuestCpuIdentity* id = guest_cpu_identity(m.model);
    if (!id) return CpuidRegs{};
    const bool extended = leaf >= 0x80000000u;
    const bool beyond = extended ? leaf > id->max_extended : leaf > id->max_basic;
    if (beyond) leaf = id->max_basic;  // SDM: the highest basic leaf's data
    return basic_or_extended(m, *id, lp, leaf, subleaf);
}

bool guest_has_feature(const nb_emulator_info& m, CpuidFeature f) {
    const CpuidRegs r = guest_cpuid(m, 0, f.leaf, 0);
    const GuestCpuIdentity* id = guest_cpu_identity(m.model);
    const bool extended = f.leaf >= 0x80000000u;
    if (!id || (extended ? f.leaf > id->max_extended : f.leaf > id->max_basic)) return false;
    const std::uint32_t regs[4] = {r.eax, r.ebx, r.ecx, r.edx};
    return (regs[f.reg & 3] >> f.bit & 1) != 0;
}

}  // namespace netburst::emu::vg
