// The opcode table: one row per opcode, or per ModRM.reg group, mandatory prefix or operand form where they differ,
// of the one-byte, 0F, 0F38 and 0F3A maps (Intel SDM, volume 2, Appendix A). A row names everything the tool asks
// of an instruction: its class (the kind of work, emulator/model/instruction.h), its timing form
// (emulator/model/insn_form.h), its operand rule (the registers it reads and writes, for the legacy and the VEX
// encodings) and the instruction-set extension it belongs to (guest_isa.h).
//
// A row covers an opcode range and, optionally, only some encodings of it: the legacy or the VEX encoding, some
// mandatory prefixes, REX.W/VEX.W, memory or register operand, some ModRM.reg or ModRM.rm values, 64-bit or
// 32-bit mode. The first row in
// table order that covers an instruction is its row; each map ends with a row for every opcode, so every
// instruction has one. Answers that depend on more than the encoding's fields (zero idioms, the lea and shift
// forms, the operand size) are small named rules the row points to.
//
// Freestanding: constant data, no allocation; the Valgrind tool links it.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"
#include "emulator/x86/guest_isa.h"
#include "emulator/x86/x86_decode.h"

namespace netburst::emu::x86ops {

class Builder;

// The registers an instruction reads and writes (operand_rules.h); a row without one does not know them.
using OperandRule = void (*)(Builder&);
// A form that the operand size, the operand's kind or its address picks.
using FormRule = InsnForm (*)(const X86Decoded&);

// One value per mandatory prefix: none (PS), 66 (PD), F3 (SS), F2 (SD), as the SDM's opcode maps list them.
template <typename T>
struct ByPrefix {
    T none, p66, f3, f2;
};

// Mandatory prefixes a row covers (bit per Pp).
constexpr std::uint8_t P0 = 1, P66 = 2, PF3 = 4, PF2 = 8;

enum class Encoding : std::uint8_t { Any, Legacy, Vex };  // Vex: VEX and EVEX
enum class Operand : std::uint8_t { Any, Memory, Register };
enum class WideBit : std::uint8_t { Any, W0, W1 };
enum class Modes : std::uint8_t { Both, Only64, Only32 };  // X86Mode: what an opcode is in which mode

struct OpcodeRow {
    // The encodings the row covers.
    std::uint8_t lo = 0, hi = 0;  // opcodes
    Encoding encoding = Encoding::Any;
    std::uint8_t prefixes = P0 | P66 | PF3 | PF2;
    WideBit w = WideBit::Any;
    Operand operand = Operand::Any;
    std::uint8_t regs = 0xFF;  // ModRM.reg values (bit per value)
    std::uint8_t rms = 0xFF;   // ModRM.rm values
    Modes modes = Modes::Both;

    // What they are; class, form and extension by mandatory prefix (ByPrefix's order).
    bool known = true;  // false: not an instruction the table knows (the class is then IntAlu)
    InsnClass classes[4] = {InsnClass::IntAlu, InsnClass::IntAlu, InsnClass::IntAlu, InsnClass::IntAlu};
    InsnForm forms[4] = {InsnForm::None, InsnForm::None, InsnForm::None, InsnForm::None};
    FormRule form_rule = nullptr;  // instead of forms[]
    OperandRule legacy_operands = nullptr;
    OperandRule vex_operands = nullptr;
    vg::GuestExtension extensions[4] = {};  // of the legacy encoding (VEX is AVX)
    std::uint8_t rel = 0;   // a direct branch: the size of its displacement, the instruction's last bytes
    bool string = false;    // a string instruction (REP applies)
    bool compares = false;  // cmps, scas

    // The builder: each call names one field (R(0x58).cls(...).form(...)).
    constexpr OpcodeRow legacy() const { OpcodeRow r = *this; r.encoding = Encoding::Legacy; return r; }
    constexpr OpcodeRow vex() const { OpcodeRow r = *this; r.encoding = Encoding::Vex; return r; }
    constexpr OpcodeRow pp(std::uint8_t m) const { OpcodeRow r = *this; r.prefixes = m; return r; }
    constexpr OpcodeRow w1() const { OpcodeRow r = *this; r.w = WideBit::W1; return r; }
    constexpr OpcodeRow w0() const { OpcodeRow r = *this; r.w = WideBit::W0; return r; }
    constexpr OpcodeRow mem() const { OpcodeRow r = *this; r.operand = Operand::Memory; return r; }
    constexpr OpcodeRow regform() const { OpcodeRow r = *this; r.operand = Operand::Register; return r; }
    constexpr OpcodeRow only64() const { OpcodeRow r = *this; r.modes = Modes::Only64; return r; }
    constexpr OpcodeRow only32() const { OpcodeRow r = *this; r.modes = Modes::Only32; return r; }
    template <typename... N>
    constexpr OpcodeRow reg(N... n) const { OpcodeRow r = *this; r.regs = bits(n...); return r; }
    template <typename... N>
    constexpr OpcodeRow rm(N... n) const { OpcodeRow r = *this; r.rms = bits(n...); return r; }

    constexpr OpcodeRow unknown() const { OpcodeRow r = *this; r.known = false; return r; }
    constexpr OpcodeRow cls(InsnClass c) const { return cls(ByPrefix<InsnClass>{c, c, c, c}); }
    constexpr OpcodeRow cls(ByPrefix<InsnClass> c) const {
        OpcodeRow r = *this;
        r.classes[0] = c.none, r.classes[1] = c.p66, r.classes[2] = c.f3, r.classes[3] = c.f2;
        return r;
    }
    constexpr OpcodeRow form(InsnForm f) const { return form(f, f, f, f); }
    constexpr OpcodeRow form(InsnForm none, InsnForm p66, InsnForm f3, InsnForm f2) const {
        OpcodeRow r = *this;
        r.forms[0] = none, r.forms[1] = p66, r.forms[2] = f3, r.forms[3] = f2;
        return r;
    }
    constexpr OpcodeRow form(FormRule f) const { OpcodeRow r = *this; r.form_rule = f; return r; }
    // Operands of the legacy encoding, of the VEX one, of both.
    constexpr OpcodeRow ops(OperandRule o) const { OpcodeRow r = *this; r.legacy_operands = o; return r; }
    constexpr OpcodeRow vex_ops(OperandRule o) const { OpcodeRow r = *this; r.vex_operands = o; return r; }
    constexpr OpcodeRow both_ops(OperandRule o) const { return ops(o).vex_ops(o); }
    constexpr OpcodeRow ext(vg::GuestExtension e) const { return ext(ByPrefix<vg::GuestExtension>{e, e, e, e}); }
    constexpr OpcodeRow ext(vg::GuestExtension none, vg::GuestExtension p66, vg::GuestExtension f3,
                            vg::GuestExtension f2) const {
        return ext(ByPrefix<vg::GuestExtension>{none, p66, f3, f2});
    }
    constexpr OpcodeRow ext(ByPrefix<vg::GuestExtension> e) const {
        OpcodeRow r = *this;
        r.extensions[0] = e.none, r.extensions[1] = e.p66, r.extensions[2] = e.f3, r.extensions[3] = e.f2;
        return r;
    }
    constexpr OpcodeRow rel8() const { OpcodeRow r = *this; r.rel = 1; return r; }
    constexpr OpcodeRow rel32() const { OpcodeRow r = *this; r.rel = 4; return r; }
    constexpr OpcodeRow string_op() const { OpcodeRow r = *this; r.string = true; return r; }
    constexpr OpcodeRow comparing() const { OpcodeRow r = *this; r.compares = true; return r; }

    template <typename... N>
    static constexpr std::uint8_t bits(N... n) { return static_cast<std::uint8_t>(((1u << n) | ...)); }

    bool covers(const X86Decoded& d) const {
        return d.op >= lo && d.op <= hi && (encoding == Encoding::Any || (encoding == Encoding::Vex) == d.vex) &&
               (prefixes >> static_cast<unsigned>(d.pp) & 1) && (w == WideBit::Any || (w == WideBit::W1) == d.rex_w) &&
               (operand == Operand::Any || (operand == Operand::Memory) == d.mem) && (regs >> d.reg & 1) &&
               (rms >> (d.modrm & 7) & 1) &&
               (modes == Modes::Both || (modes == Modes::Only32) == (d.mode == X86Mode::Protected32));
    }
};

// A form that only the register (or only the memory) operand of an opcode has.
template <InsnForm F>
InsnForm on_register(const X86Decoded& d) { return d.mem ? InsnForm::None : F; }
template <InsnForm F>
InsnForm on_memory(const X86Decoded& d) { return d.mem ? F : InsnForm::None; }
// movd m32, mm (0F 7E with a memory operand, no prefix, no REX.W): not movq m64, mm (REX.W), nor movd m32, xmm
// (66), whose store data goes the way of every other SIMD store.
inline InsnForm movd_store_form(const X86Decoded& d) {
    return d.mem && !d.vex && !d.rex_w && d.pp == Pp::None ? InsnForm::MovdStoreMmx : InsnForm::None;
}
// imul r, r/m (0F AF) and imul r, r/m, imm (69, 6B): the operand size picks the form.
inline InsnForm imul_form(const X86Decoded& d) {
    return d.rex_w ? InsnForm::Imul64 : d.op66 ? InsnForm::Imul16 : InsnForm::Imul32;
}

constexpr OpcodeRow R(unsigned lo, unsigned hi) {
    OpcodeRow r;
    r.lo = static_cast<std::uint8_t>(lo);
    r.hi = static_cast<std::uint8_t>(hi);
    return r;
}
constexpr OpcodeRow R(unsigned op) { return R(op, op); }

// The names the map files write their rows in.
namespace row_names {
using C = InsnClass;
using F = InsnForm;
using E = vg::GuestExtension;
// MMX on 64-bit registers without a prefix, the SSE2 integer form on xmm with 66 (VEX has only the xmm form).
constexpr ByPrefix<InsnClass> kSimdInt{C::Mmx64, C::Simd128Int, C::Mmx64, C::Mmx64};
}  // namespace row_names

// One map's rows, with the rows that cover each opcode listed in table order.
struct OpcodeMap {
    const OpcodeRow* rows;
    unsigned count;
    const std::uint16_t* start;  // 257 entries: the rows of opcode n are order[start[n], start[n + 1])
    const std::uint16_t* order;
};

// The one-byte, 0F, 0F38 and 0F3A maps (opcode_map_*.cpp).
extern const OpcodeMap kOneByteMap, kTwoByteMap, k0F38Map, k0F3AMap;

// The row of a decoded instruction of map 0-3 (d.has_opcode).
const OpcodeRow& opcode_row(const X86Decoded& d);

// Builds a map's index at compile time: Covered is covered(rows), the sum of the rows' opcode ranges.
template <unsigned Covered>
struct OpcodeIndex {
    std::uint16_t start[257] = {};
    std::uint16_t order[Covered] = {};
};

template <unsigned N>
constexpr unsigned covered(const OpcodeRow (&rows)[N]) {
    unsigned n = 0;
    for (const OpcodeRow& r : rows) n += r.hi - r.lo + 1u;
    return n;
}

template <unsigned Covered, unsigned N>
constexpr OpcodeIndex<Covered> index_rows(const OpcodeRow (&rows)[N]) {
    OpcodeIndex<Covered> index;
    unsigned next = 0;
    for (unsigned op = 0; op < 256; ++op) {
        index.start[op] = static_cast<std::uint16_t>(next);
        for (unsigned k = 0; k < N; ++k)
            if (op >= rows[k].lo && op <= rows[k].hi) index.order[next++] = static_cast<std::uint16_t>(k);
    }
    index.start[256] = static_cast<std::uint16_t>(next);
    return index;
}

// True when every opcode has a row (the map's last row covers them all).
template <unsigned Covered>
constexpr bool every_opcode_has_a_row(const OpcodeIndex<Covered>& index) {
    for (unsigned op = 0; op < 256; ++op)
        if (index.start[op + 1] == index.start[op]) return false;
    return true;
}

}  // namespace netburst::emu::x86ops
