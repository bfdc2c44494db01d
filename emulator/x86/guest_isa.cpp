// Opcode facts from the SDM Vol. 2 opcode maps (Appendix A) and each instruction's CPUID feature flag. The encoding
// is read by the decoder front the classifier and the operand decoder share (x86_decode.h); only the mandatory
// prefix, REX.W, the map, the opcode and the ModRM byte matter here.
#include "emulator/x86/guest_isa.h"

#include "emulator/x86/x86_decode.h"

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

using Pfx = Pp;  // the mandatory prefix (F2/F3 win over 66)

// What the maps below read of a decoded instruction.
struct Insn {
    Pfx pfx;
    bool rex_w;
    std::uint8_t op;
    std::uint8_t modrm;  // 0 when there is none
    bool memory;
    unsigned reg() const { return (modrm >> 3) & 7; }
    bool mem() const { return memory; }
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
    const X86Decoded d = decode_x86(b, length);
    if (!d.has_opcode) return E::None;
    if (d.evex) return E::Avx512;  // any EVEX encoding
    if (d.vex) return E::Avx;      // any VEX encoding
    const Insn i{d.pp, d.rex_w, d.op, d.has_modrm ? d.modrm : std::uint8_t{0}, d.has_modrm && d.mem};
    switch (d.map) {
    case 0:
        if (d.op == 0x9E || d.op == 0x9F) return E::Lahf64;
        if ((d.op == 0xC6 || d.op == 0xC7) && i.modrm == 0xF8) return E::Rtm;  // xabort, xbegin
        if (d.op == 0xDB || d.op == 0xDD || d.op == 0xDF)
            return i.mem() && i.reg() == 1 ? E::Sse3 : E::None;  // fisttp m16/m32/m64
        return E::None;
    case 1: return map_0f(i);
    case 2: return map_0f38(i);
    default: return map_0f3a(i);
    }
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
