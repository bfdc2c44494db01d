#include "emulator/x86/x86_instruction.h"

#include "emulator/x86/opcode_table.h"
#include "emulator/x86/operand_rules.h"
#include "emulator/x86/x86_decode.h"

namespace netburst::emu {

namespace {

using x86ops::OpcodeRow;

// A direct branch's displacement: the instruction's last `size` bytes.
std::int32_t read_rel(const X86Decoded& d, unsigned size) {
    if (d.length < size) return 0;
    std::uint32_t v = 0;
    for (unsigned k = 0; k < size; ++k) v |= static_cast<std::uint32_t>(d.bytes[d.length - size + k]) << (8 * k);
    if (size == 1) return static_cast<std::int8_t>(v);
    if (size == 2) return static_cast<std::int16_t>(v);
    return static_cast<std::int32_t>(v);
}

// The rules that hold for every row.
InsnClass class_of(const OpcodeRow& row, const X86Decoded& d) {
    InsnClass c = row.classes[static_cast<unsigned>(d.pp)];
    // VEX encodes no MMX instruction: the MMX opcodes' VEX forms are 128-bit SIMD integer.
    if (d.vex && c == InsnClass::Mmx64) c = InsnClass::Simd128Int;
    // A locked read-modify-write is a microcoded flow.
    if (d.lock && (c == InsnClass::IntAlu || c == InsnClass::IntShift)) c = InsnClass::Microcode;
    return c;
}

// Microcoded and locked flows keep their class's timing; VEX and EVEX encodings postdate NetBurst.
InsnForm form_of(const OpcodeRow& row, const X86Decoded& d, InsnClass cls) {
    if (d.vex || cls == InsnClass::Microcode) return InsnForm::None;
    return row.form_rule ? row.form_rule(d) : row.forms[static_cast<unsigned>(d.pp)];
}

X86Operands operands_of(const OpcodeRow* row, const X86Decoded& d, X86OperandOptions options) {
    // A ModRM operand cut short by the length, and EVEX (AVX-512) encodings, are not given.
    if ((d.has_modrm && d.imm_pos > d.length) || d.evex) return X86Operands{};
    const x86ops::OperandRule rule = row == nullptr ? nullptr : d.vex ? row->vex_operands : row->legacy_operands;
    if (rule == nullptr) return X86Operands{};
    x86ops::Builder b(d, options);
    rule(b);
    return b.result();
}

// The immediate's width as a two's-complement number: 0x7fff needs 16 bits, 0x8000 17, -0x8000 16, 0 and -1 one.
// The immediate is the instruction's last field (after ModRM, SIB and displacement): 1, 2, 4 or 8 bytes, sign-
// extended from its own size (the trace cache keeps the value as the uop uses it). Any other size (enter's 16 + 8
// bits, none) gives 0.
std::uint8_t immediate_bits(const X86Decoded& d) {
    if (d.imm_pos >= d.length) return 0;
    const unsigned size = d.length - d.imm_pos;
    if (size != 1 && size != 2 && size != 4 && size != 8) return 0;
    std::uint64_t u = 0;
    for (unsigned i = 0; i < size; ++i) u |= std::uint64_t{d.bytes[d.imm_pos + i]} << (8 * i);
    if (size < 8 && (u >> (8 * size - 1)) != 0) u |= ~std::uint64_t{0} << (8 * size);  // sign-extend
    const std::uint64_t magnitude = (u >> 63) != 0 ? ~u : u;  // the bits below the sign
    unsigned bits = 1;
    for (std::uint64_t m = magnitude; m != 0; m >>= 1) ++bits;
    return static_cast<std::uint8_t>(bits);
}

vg::GuestExtension extension_of(const OpcodeRow* row, const X86Decoded& d) {
    if (d.evex) return vg::GuestExtension::Avx512;
    if (d.vex) return vg::GuestExtension::Avx;  // AVX, AVX2, FMA, F16C, BMI1/2
    return row->extensions[static_cast<unsigned>(d.pp)];
}

}  // namespace

X86Instruction decode_instruction(const std::uint8_t* bytes, unsigned length, X86OperandOptions options) {
    const X86Decoded d = decode_x86(bytes, length, options.mode);
    X86Instruction r;
    if (!d.has_opcode) {
        r.known = false;
        return r;
    }
    // VEX and EVEX maps beyond 0F3A (AVX512-FP16's 5 and 6, reserved ones) have no rows.
    const OpcodeRow* row = d.map <= 3 ? &x86ops::opcode_row(d) : nullptr;
    if (row != nullptr) {
        r.known = row->known;
        r.cls = class_of(*row, d);
        r.form = form_of(*row, d, r.cls);
        r.rep = row->string && d.rep;
        r.compares = row->compares;
        r.has_rel = row->rel != 0;
        if (r.has_rel) r.rel = read_rel(d, row->rel);
    } else {
        r.known = false;
        r.cls = InsnClass::SsePackedSp;
    }
    if (row != nullptr && !r.has_rel) r.imm_bits = immediate_bits(d);
    r.memory_form = d.mem;
    r.lock = d.lock;
    r.operands = operands_of(row, d, options);
    r.extension = extension_of(row, d);
    return r;
}

bool is_valgrind_special_sequence(const std::uint8_t* bytes, unsigned length, X86Mode mode) {
    // rol rdi,3; rol rdi,13; rol rdi,61; rol rdi,51 (valgrind.h, amd64)
    static constexpr std::uint8_t kPreamble64[16] = {0x48, 0xC1, 0xC7, 0x03, 0x48, 0xC1, 0xC7, 0x0D,
                                                     0x48, 0xC1, 0xC7, 0x3D, 0x48, 0xC1, 0xC7, 0x33};
    // rol edi,3; rol edi,13; rol edi,29; rol edi,19 (valgrind.h, x86)
    static constexpr std::uint8_t kPreamble32[12] = {0xC1, 0xC7, 0x03, 0xC1, 0xC7, 0x0D,
                                                     0xC1, 0xC7, 0x1D, 0xC1, 0xC7, 0x13};
    const bool mode32 = mode == X86Mode::Protected32;
    const std::uint8_t* preamble = mode32 ? kPreamble32 : kPreamble64;
    const unsigned size = mode32 ? sizeof kPreamble32 : sizeof kPreamble64;
    if (length < size) return false;
    for (unsigned i = 0; i < size; ++i)
        if (bytes[i] != preamble[i]) return false;
    return true;
}

}  // namespace netburst::emu
