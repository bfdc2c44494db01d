// The vocabulary the operand rules (x86_operands.cpp, x86_operands_simd.cpp) are written in: reads and writes of
// ModRM operands, implicit registers and the flags, with the partial-register rule applied in one place.
//
// Freestanding, internal to the operand decoder.
#pragma once

#include "emulator/x86/x86_operands.h"

namespace netburst::emu::x86ops {

// Register numbers of the implicit operands (x86 encoding order, as RegMask's bits 0-15).
enum Gpr : unsigned { kRax = 0, kRcx = 1, kRdx = 2, kRbx = 3, kRsp = 4, kRbp = 5, kRsi = 6, kRdi = 7,
                      kR8 = 8, kR9 = 9, kR10 = 10, kR11 = 11 };

// Which register file a ModRM operand names.
enum class File : std::uint8_t { Gpr, Xmm, Mmx };

class Builder {
public:
    explicit Builder(const X86Decoded& d) : d_(d) { out_.known = true; }

    const X86Decoded& d() const { return d_; }
    X86Operands result() const { return out_; }
    X86Operands unknown() const { return X86Operands{}; }

    // Operand size of a general-register instruction: REX.W 8, 66 2, else 4 bytes.
    unsigned opsize() const { return d_.rex_w ? 8 : d_.op66 ? 2 : 4; }
    bool same_registers() const { return !d_.mem && d_.reg_n == d_.rm_n; }

    void read_gpr(unsigned n) { out_.reads |= reg_gpr(n); }
    // Writing 8 or 16 bits keeps the rest of the register: the result depends on the old value.
    void write_gpr(unsigned n, unsigned size) {
        out_.writes |= reg_gpr(n);
        if (size < 4) out_.reads |= reg_gpr(n);
    }
    void read_gprs(RegMask gprs) { out_.reads |= gprs; }
    void write_gprs(RegMask gprs) { out_.writes |= gprs; }  // full-width (32- or 64-bit) writes only
    void read_flags() { out_.reads |= kRegFlags; }
    void write_flags() { out_.writes |= kRegFlags; }
    // Writes some of the flags and keeps the others.
    void merge_flags() { out_.reads |= kRegFlags; out_.writes |= kRegFlags; }
    // The x87 status and control words (TOP, condition codes, control word), not the stack registers.
    void read_x87() { out_.reads |= kRegX87; }
    void write_x87() { out_.writes |= kRegX87; }
    // Stack registers st(i), numbered from TOP before the instruction (instruction.h).
    void read_st(unsigned i) { out_.reads |= reg_st(i); }
    void write_st(unsigned i) { out_.writes |= reg_st(i); }
    void rmw_st(unsigned i) { read_st(i); write_st(i); }
    void read_all_st() { out_.reads |= kRegStMask; }
    void write_all_st() { out_.writes |= kRegStMask; }
    // A push writes the register that becomes st(0): st(7) before it.
    void x87_push() { write_st(7); out_.writes |= kX87Push; }
    void x87_top(RegMask change) { out_.writes |= change; }  // TOP moves, no register is written (fdecstp)
    void x87_pop() { out_.writes |= kX87Pop; }
    void x87_pop2() { out_.writes |= kX87Pop2; }
    void x87_exchange(unsigned i) { out_.writes |= reg_st(0) | reg_st(i) | kX87Exchange; }
    void read_xmm(unsigned n) { out_.reads |= reg_xmm(n); }
    void write_xmm(unsigned n) { out_.writes |= reg_xmm(n); }
    void read_all_xmm() { for (unsigned n = 0; n < 16; ++n) read_xmm(n); }
    void write_all_xmm() { for (unsigned n = 0; n < 16; ++n) write_xmm(n); }
    void push_pop() { read_gpr(kRsp); out_.writes |= reg_gpr(kRsp); }

    // The registers a memory operand's address is computed from.
    void address() {
        if (!d_.mem) return;
        if (d_.base >= 0) read_gpr(static_cast<unsigned>(d_.base));
        if (d_.index >= 0) read_gpr(static_cast<unsigned>(d_.index));
    }

    // ModRM r/m ("E") and reg ("G") operands. A memory E reads its address registers whichever way it is used.
    void read_E(File f, unsigned size = 8) {
        if (d_.mem) address();
        else read(f, rm(size), size);
    }
    void write_E(File f, unsigned size = 8) {
        if (d_.mem) address();
        else write(f, rm(size), size);
    }
    void read_G(File f, unsigned size = 8) { read(f, reg(size), size); }
    void write_G(File f, unsigned size = 8) { write(f, reg(size), size); }
    void rmw_E(File f, unsigned size = 8) { read_E(f, size); write_E(f, size); }
    void rmw_G(File f, unsigned size = 8) { read_G(f, size); write_G(f, size); }

private:
    // Byte registers 4-7 without a REX prefix are ah, ch, dh, bh: the second byte of rax, rcx, rdx, rbx.
    unsigned byte_register(unsigned n) const { return !d_.rex && n >= 4 && n < 8 ? n - 4 : n; }
    unsigned rm(unsigned size) const { return size == 1 ? byte_register(d_.rm_n) : d_.rm_n; }
    unsigned reg(unsigned size) const { return size == 1 ? byte_register(d_.reg_n) : d_.reg_n; }

    void read(File f, unsigned n, unsigned) {
        if (f == File::Gpr) read_gpr(n);
        else if (f == File::Xmm) read_xmm(n);
        else out_.reads |= reg_mm(n);
    }
    void write(File f, unsigned n, unsigned size) {
        if (f == File::Gpr) write_gpr(n, size);
        else if (f == File::Xmm) write_xmm(n);
        else out_.writes |= reg_mm(n);
    }

    const X86Decoded& d_;
    X86Operands out_;
};

// The SIMD rules, for the 0F map's SSE/MMX opcodes and the VEX encodings (x86_operands_simd.cpp).
X86Operands simd_operands(Builder& b, X86OperandOptions options);

}  // namespace netburst::emu::x86ops
