// Opcode facts from the SDM Vol. 2 opcode maps (Appendix A) and each instruction's CPUID feature flag. Only the
// prefixes, the escape bytes, the opcode and the ModRM byte are read: enough to tell the extension, not to decode.
#include "emulator/valgrind/guest_isa.h"

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

enum class Pfx : std::uint8_t { None, P66, F3, F2 };  // the mandatory prefix (F2/F3 win over 66)

struct Insn {
    Pfx pfx = Pfx::None;
    bool rex_w = false;
    std::uint8_t op = 0;
    bool has_modrm = false;
    std::uint8_t modrm = 0;
    unsigned reg() const { return (modrm >> 3) & 7; }
    bool mem() const { return (modrm >> 6) != 3; }
};

// The 0F 38 map: every opcode is later than SSE3 (SSSE3 opened the map).
E map_0f38(const Insn& i) {
    const std::uint8_t op = i.op;
    if (op == 0xF0 || op == 0xF1) return i.pfx == Pfx::F2 ? E::Sse42 : E::Movbe;  // crc32, movbe
    if (op == 0xF6 && (i.pfx == Pfx::P66 || i.pfx == Pfx::F3)) return E::Adx;
    if (op >= 0xC8 && op <= 0xCD && i.pfx == Pfx::None) return E::Sha;
    if (i.pfx == Pfx::P66) {
        if (op >= 0xDB && op <= 0xDF) return E::Aes;
        if (op == 0xCF) return E::Gfni;
        if (op == 0x37) return E::Sse42;  // pcmpgtq
        if (op == 0x10 || op == 0x14 || op == 0x15 || op == 0x17 || (op >= 0x20 && op <= 0x25) ||
            (op >= 0x28 && op <= 0x2B) || (op >= 0x30 && op <= 0x35) || (op >= 0x38 && op <= 0x41))
            return E::Sse41;
    }
    return E::Ssse3;  // pshufb..psignd, pmulhrsw, pabs*, and anything else of the map
}

// The 0F 3A map, likewise.
E map_0f3a(const Insn& i) {
    const std::uint8_t op = i.op;
    if (op == 0x0F) return E::Ssse3;  // palignr
    if (op == 0xCC && i.pfx == Pfx::None) return E::Sha;
    if (i.pfx == Pfx::P66) {
        if ((op >= 0x08 && op <= 0x0E) || (op >= 0x14 && op <= 0x17) || (op >= 0x20 && op <= 0x22) ||
            (op >= 0x40 && op <= 0x42))
            return E::Sse41;
        if (op >= 0x60 && op <= 0x63) return E::Sse42;
        if (op == 0x44) return E::Pclmul;
        if (op == 0xDF) return E::Aes;
        if (op == 0xCE || op == 0xCF) return E::Gfni;
    }
    return E::Ssse3;
}

// The 0F map: the few opcodes added after SSE2 (the rest of the map is Pentium 4 or older).
E map_0f(const Insn& i) {
    switch (i.op) {
    case 0x01:
        if (i.modrm == 0xC8 || i.modrm == 0xC9) return E::Monitor;  // monitor, mwait
        if (i.modrm == 0xD0 || i.modrm == 0xD1) return E::Xsave;    // xgetbv, xsetbv
        if (i.modrm == 0xD5 || i.modrm == 0xD6) return E::Rtm;      // xend, xtest
        if (i.modrm == 0xF9) return E::Rdtscp;
        return E::None;
    case 0x0D:
        return E::Prefetchw;
    case 0x12:  // movsldup (F3), movddup (F2); movlps/movlpd otherwise
    case 0x16:  // movshdup (F3); movhps/movhpd otherwise
        return i.pfx == Pfx::F3 || (i.op == 0x12 && i.pfx == Pfx::F2) ? E::Sse3 : E::None;
    case 0x7C: case 0x7D: case 0xD0:  // haddp*, hsubp*, addsubp*
        return i.pfx == Pfx::P66 || i.pfx == Pfx::F2 ? E::Sse3 : E::None;
    case 0xF0:  // lddqu
        return i.pfx == Pfx::F2 ? E::Sse3 : E::None;
    case 0xB8:
        return i.pfx == Pfx::F3 ? E::Popcnt : E::None;
    case 0xBD:
        return i.pfx == Pfx::F3 ? E::Lzcnt : E::None;
    case 0xAE:
        if (!i.mem()) return i.pfx == Pfx::F3 && i.reg() <= 3 ? E::Fsgsbase : E::None;  // rd/wr fs/gs base
        if (i.pfx == Pfx::None && (i.reg() == 4 || i.reg() == 5 || i.reg() == 6)) return E::Xsave;
        return E::None;
    case 0xC7:
        if (i.mem()) {
            if (i.reg() == 1 && i.rex_w) return E::Cx16;
            if (i.reg() >= 3 && i.reg() <= 5) return E::Xsave;  // xrstors, xsavec, xsaves
            return E::None;
        }
        if (i.reg() == 6) return E::Rdrand;
        if (i.reg() == 7 && i.pfx != Pfx::F3) return E::Rdseed;
        return E::None;
    default:
        return E::None;
    }
}

}  // namespace

GuestExtension extension_of(const std::uint8_t* b, unsigned length) {
    if (length > 15) length = 15;
    unsigned pos = 0;
    bool op66 = false;
    Insn i;
    Pfx rep = Pfx::None;
    for (; pos < length; ++pos) {
        const std::uint8_t p = b[pos];
        if (p == 0x66) op66 = true;
        else if (p == 0xF2) rep = Pfx::F2;
        else if (p == 0xF3) rep = Pfx::F3;
        else if (p == 0xF0 || p == 0x2E || p == 0x36 || p == 0x3E || p == 0x26 || p == 0x64 || p == 0x65 || p == 0x67) {
        } else break;
    }
    if (pos < length && (b[pos] & 0xF0) == 0x40) i.rex_w = (b[pos++] & 0x08) != 0;  // REX counts only last
    if (pos >= length) return E::None;
    i.pfx = rep != Pfx::None ? rep : op66 ? Pfx::P66 : Pfx::None;
    const std::uint8_t op = b[pos++];
    if (op == 0xC4 || op == 0xC5) return E::Avx;  // VEX: always an escape in 64-bit mode
    if (op == 0x62) return E::Avx512;             // EVEX, likewise
    if (op == 0x9E || op == 0x9F) return E::Lahf64;
    if ((op == 0xC6 || op == 0xC7) && pos < length && b[pos] == 0xF8) return E::Rtm;  // xabort, xbegin
    if ((op == 0xDB || op == 0xDD || op == 0xDF) && pos < length) {
        const std::uint8_t modrm = b[pos];
        return (modrm >> 6) != 3 && ((modrm >> 3) & 7) == 1 ? E::Sse3 : E::None;  // fisttp m16/m32/m64
    }
    if (op != 0x0F || pos >= length) return E::None;
    i.op = b[pos++];
    if (i.op == 0x38 || i.op == 0x3A) {
        const bool three_a = i.op == 0x3A;
        if (pos >= length) return E::None;
        i.op = b[pos++];
        return three_a ? map_0f3a(i) : map_0f38(i);
    }
    if (pos < length) i.modrm = b[pos];
    return map_0f(i);
}

const char* extension_name(GuestExtension e) {
    const unsigned k = static_cast<unsigned>(e);
    return k < static_cast<unsigned>(E::Count_) ? kFacts[k].name : "?";
}

CpuidFeature extension_feature(GuestExtension e) {
    const unsigned k = static_cast<unsigned>(e);
    return k < static_cast<unsigned>(E::Count_) ? kFacts[k].feature : kFacts[0].feature;
}

}  // namespace netburst::emu::vg
