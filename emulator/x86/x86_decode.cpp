#include "emulator/x86/x86_decode.h"

namespace netburst::emu {

namespace {

struct Reader {
    const std::uint8_t* b;
    unsigned len;
    unsigned pos = 0;

    bool more() const { return pos < len; }
    std::uint8_t peek() const { return pos < len ? b[pos] : 0; }
    std::uint8_t next() { return pos < len ? b[pos++] : 0; }
};

// Which one-byte opcodes carry a ModRM byte. C4, C5 and 62 reach here only as les, lds and bound (32-bit mode):
// their VEX and EVEX forms are decoded before this is asked.
bool map0_has_modrm(std::uint8_t op) {
    if (op < 0x40) return (op & 7) < 4;  // the eight ALU rows: xx0-xx3 are r/m forms
    switch (op) {
    case 0x62: case 0x63: case 0x69: case 0x6B: case 0xC0: case 0xC1: case 0xC4: case 0xC5: case 0xC6: case 0xC7:
    case 0xD0: case 0xD1: case 0xD2: case 0xD3: case 0xF6: case 0xF7: case 0xFE: case 0xFF:
        return true;
    default:
        return (op >= 0x80 && op <= 0x8F) || (op >= 0xD8 && op <= 0xDF);
    }
}

bool map1_has_modrm(std::uint8_t op) {
    switch (op) {
    case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0B: case 0x0E: case 0x77:
    case 0xA0: case 0xA1: case 0xA2: case 0xA8: case 0xA9: case 0xAA:
        return false;
    default:
        return !(op >= 0x30 && op <= 0x37) && !(op >= 0x80 && op <= 0x8F) && !(op >= 0xC8 && op <= 0xCF);
    }
}

Pp pp_from_bits(unsigned bits) {
    static constexpr Pp kPp[4] = {Pp::None, Pp::P66, Pp::F3, Pp::F2};
    return kPp[bits & 3];
}

// ModRM, then SIB and displacement of a memory form. rex_r/x/b are the register-number extensions (REX or VEX).
void read_modrm(Reader& r, X86Decoded& d, unsigned rex_r, unsigned rex_x, unsigned rex_b) {
    if (!r.more()) return;
    d.has_modrm = true;
    d.modrm = r.next();
    const unsigned mod = d.modrm >> 6;
    const unsigned rm = d.modrm & 7;
    d.reg = (d.modrm >> 3) & 7;
    d.reg_n = static_cast<std::uint8_t>(d.reg | rex_r << 3);
    d.rm_n = static_cast<std::uint8_t>(rm | rex_b << 3);
    d.mem = mod != 3;
    if (d.mem && d.addr16) {
        // 16-bit addressing: bx+si, bx+di, bp+si, bp+di, si, di, bp (disp16 alone with mod 0), bx; no SIB.
        static constexpr std::int8_t kBase[8] = {3, 3, 5, 5, 6, 7, 5, 3};
        static constexpr std::int8_t kIndex[8] = {6, 7, 6, 7, -1, -1, -1, -1};
        unsigned disp = mod == 1 ? 1 : mod == 2 ? 2 : 0;
        if (mod == 0 && rm == 6) {
            disp = 2;
        } else {
            d.base = kBase[rm];
            d.index = kIndex[rm];
        }
        d.disp_size = static_cast<std::uint8_t>(disp);
        r.pos += disp;
    } else if (d.mem) {
        unsigned disp = mod == 1 ? 1 : mod == 2 ? 4 : 0;
        if (rm == 4) {
            const std::uint8_t sib = r.next();
            const unsigned base = sib & 7;
            const unsigned index = ((sib >> 3) & 7) | rex_x << 3;
            if (index != 4) d.index = static_cast<std::int8_t>(index);  // 100b without REX.X: no index
            d.scale = static_cast<std::uint8_t>(1u << (sib >> 6));
            if (base == 5 && mod == 0) disp = 4;                         // disp32, no base
            else d.base = static_cast<std::int8_t>(base | rex_b << 3);
        } else if (rm == 5 && mod == 0) {
            disp = 4;                                                    // RIP-relative; absolute in 32-bit mode
        } else {
            d.base = static_cast<std::int8_t>(d.rm_n);
        }
        d.disp_size = static_cast<std::uint8_t>(disp);
        r.pos += disp;
    }
    d.imm_pos = r.pos;
}

}  // namespace

X86Decoded decode_x86(const std::uint8_t* bytes, unsigned length, X86Mode mode) {
    X86Decoded d;
    d.bytes = bytes;
    d.length = length > 15 ? 15u : length;
    d.mode = mode;
    const bool mode32 = mode == X86Mode::Protected32;
    Reader r{bytes, d.length};
    bool op66 = false;
    Pp rep = Pp::None;
    std::uint8_t rex = 0;
    // Legacy prefixes, then REX (64-bit mode only), which counts only when it comes last.
    for (; r.more(); r.next()) {
        const std::uint8_t p = r.peek();
        if (!mode32 && p >= 0x40 && p <= 0x4F) {
            rex = p;
            continue;
        }
        if (p == 0xF0) d.lock = true;
        else if (p == 0xF2 || p == 0xF3) rep = p == 0xF2 ? Pp::F2 : Pp::F3;
        else if (p == 0x66) op66 = true;
        else if (p == 0x67) d.addr16 = mode32;
        else if (!(p == 0x2E || p == 0x36 || p == 0x3E || p == 0x26 || p == 0x64 || p == 0x65)) break;
        rex = 0;
    }
    d.op66 = op66;
    d.rep = rep != Pp::None;
    d.pp = rep != Pp::None ? rep : (op66 ? Pp::P66 : Pp::None);
    d.rex = rex != 0;
    d.rex_w = (rex & 8) != 0;
    unsigned rex_r = (rex >> 2) & 1, rex_x = (rex >> 1) & 1, rex_b = rex & 1;
    if (!r.more()) return d;
    d.has_opcode = true;
    std::uint8_t op = r.next();
    // In 32-bit mode a memory ModRM after them makes C4, C5 and 62 les, lds and bound.
    const bool escape = !mode32 || (r.more() && (r.peek() & 0xC0) == 0xC0);
    if ((op == 0xC4 || op == 0xC5 || op == 0x62) && escape) {
        // VEX (C5: 2 bytes, map 0F; C4: 3 bytes, map in mmmmm) or EVEX (62: 4 bytes, map in mm). In 64-bit mode
        // these bytes are always escapes. R, X, B and vvvv are stored inverted.
        d.vex = true;
        d.evex = op == 0x62;
        const std::uint8_t p1 = r.next();
        rex_r = ~p1 >> 7 & 1;
        if (op == 0xC5) {
            d.map = 1;
            d.vvvv = static_cast<std::uint8_t>(~p1 >> 3 & 15);
            d.vex_l = (p1 & 4) != 0;
            d.pp = pp_from_bits(p1);
        } else {
            const std::uint8_t p2 = r.next();
            rex_x = ~p1 >> 6 & 1;
            rex_b = ~p1 >> 5 & 1;
            d.map = op == 0xC4 ? (p1 & 0x1F) : (p1 & 0x07);
            d.rex_w = (p2 & 0x80) != 0;
            d.vvvv = static_cast<std::uint8_t>(~p2 >> 3 & 15);
            d.pp = pp_from_bits(p2);
            if (op == 0xC4) d.vex_l = (p2 & 4) != 0;
            else d.vex_l = (r.next() & 0x60) != 0;
        }
        d.rex_b = rex_b != 0;
        d.op = r.next();
        if (!(d.map == 1 && d.op == 0x77)) read_modrm(r, d, rex_r, rex_x, rex_b);  // vzeroupper/all: no ModRM
        return d;
    }
    if (op == 0x0F) {
        op = r.next();
        d.map = 1;
        if (op == 0x38 || op == 0x3A) {
            d.map = op == 0x38 ? 2 : 3;
            op = r.next();
        }
    }
    d.rex_b = rex_b != 0;
    d.op = op;
    if (d.map == 0 ? map0_has_modrm(op) : (d.map != 1 || map1_has_modrm(op))) read_modrm(r, d, rex_r, rex_x, rex_b);
    else d.imm_pos = r.pos;
    return d;
}

}  // namespace netburst::emu
