// The vocabulary the opcode table's operand rules are written in: reads and writes of ModRM operands, implicit
// registers and the flags, with the partial-register rule applied in one place; and the SIMD rules that several
// opcode maps share. x86_instruction.h says what counts as a read.
//
// Freestanding, internal to the opcode table.
#pragma once

#include "emulator/x86/x86_decode.h"
#include "emulator/x86/x86_instruction.h"

namespace netburst::emu::x86ops {

// Register numbers of the implicit operands (x86 encoding order, as RegMask's bits 0-15).
enum Gpr : unsigned { kRax = 0, kRcx = 1, kRdx = 2, kRbx = 3, kRsp = 4, kRbp = 5, kRsi = 6, kRdi = 7,
                      kR8 = 8, kR9 = 9, kR10 = 10, kR11 = 11 };

// Which register file a ModRM operand names.
enum class File : std::uint8_t { Gpr, Xmm, Mmx };

class Builder {
public:
    Builder(const X86Decoded& d, X86OperandOptions options) : d_(d), options_(options) { out_.known = true; }

    const X86Decoded& d() const { return d_; }
    X86Operands result() const { return out_; }
    bool prescott_idioms() const { return options_.prescott_idioms; }

    // Operand size of a general-register instruction: REX.W 8, 66 2, else 4 bytes.
    unsigned opsize() const { return d_.rex_w ? 8 : d_.op66 ? 2 : 4; }
    // The opcode's w bit (bit 0) picks between the byte form and the operand size, in the rows that pair them.
    unsigned wsize() const { return (d_.op & 1) ? opsize() : 1; }
    // A general register's size for movd/movq and the conversions to and from integers: REX.W 8, else 4.
    unsigned gpr_size() const { return d_.rex_w ? 8 : 4; }
    // MMX registers without 66, xmm with it (the SSE2 form of an MMX instruction); VEX has only xmm.
    File mmx_or_xmm() const { return d_.vex || d_.pp == Pp::P66 ? File::Xmm : File::Mmx; }
    // The register in the opcode's low three bits, extended by REX.B (push, pop, mov imm, xchg, bswap).
    unsigned opcode_register() const { return (d_.op & 7) | (d_.rex_b ? 8u : 0u); }
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
    // The x87 operand in ModRM.rm: st(i), or a memory operand (whose address registers are read).
    unsigned st_i() const { return d_.rm_n & 7; }
    void read_st_E() { if (d_.mem) address(); else read_st(st_i()); }
    void write_st_E() { if (d_.mem) address(); else write_st(st_i()); }
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
    void push_pop() { read_gpr(kRsp); out_.writes |= reg_gpr(kRsp); out_.address |= reg_gpr(kRsp); }

    // The registers a memory operand's address is computed from.
    void address() {
        if (!d_.mem) return;
        if (d_.base >= 0) read_gpr(static_cast<unsigned>(d_.base));
        if (d_.index >= 0) read_gpr(static_cast<unsigned>(d_.index));
        if (d_.base >= 0) out_.address |= reg_gpr(static_cast<unsigned>(d_.base));
        if (d_.index >= 0) out_.address |= reg_gpr(static_cast<unsigned>(d_.index));
    }

    // ModRM r/m ("E") and reg ("G") operands. A memory E reads its address registers whichever way it is used.
    void read_E(File f, unsigned size = 8) {
        if (d_.mem) address();
        else read(f, rm(size));
    }
    void write_E(File f, unsigned size = 8) {
        if (d_.mem) address();
        else write(f, rm(size), size);
    }
    void read_G(File f, unsigned size = 8) { read(f, reg(size)); }
    void write_G(File f, unsigned size = 8) { write(f, reg(size), size); }
    void rmw_E(File f, unsigned size = 8) { read_E(f, size); write_E(f, size); }
    void rmw_G(File f, unsigned size = 8) { read_G(f, size); write_G(f, size); }

    // Byte registers 4-7 without a REX prefix are ah, ch, dh, bh: the second byte of rax, rcx, rdx, rbx.
    unsigned byte_register(unsigned n) const { return !d_.rex && n >= 4 && n < 8 ? n - 4 : n; }

private:
    unsigned rm(unsigned size) const { return size == 1 ? byte_register(d_.rm_n) : d_.rm_n; }
    unsigned reg(unsigned size) const { return size == 1 ? byte_register(d_.reg_n) : d_.reg_n; }

    void read(File f, unsigned n) {
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
    X86OperandOptions options_;
    X86Operands out_;
};

// Rules the maps share. "v" is the MMX-or-xmm operand (mmx_or_xmm), "x" an xmm register, "g" a general register.
namespace rules {

constexpr File G = File::Gpr;
constexpr File X = File::Xmm;
constexpr File M = File::Mmx;

inline void none(Builder&) {}
inline void read_flags(Builder& b) { b.read_flags(); }
inline void merge_flags(Builder& b) { b.merge_flags(); }
inline void push_pop(Builder& b) { b.push_pop(); }
inline void address(Builder& b) { b.address(); }

// Linux's i386 system-call convention, for int $0x80 and sysenter (in 64-bit mode too, where int $0x80 enters the
// 32-bit system-call table): eax the number, ebx, ecx, edx, esi, edi and ebp the arguments, eax the result. The
// flags are read as the entry saves them.
inline void i386_system_call(Builder& b) {
    b.read_flags();
    b.read_gprs(reg_gpr(kRax) | reg_gpr(kRbx) | reg_gpr(kRcx) | reg_gpr(kRdx) | reg_gpr(kRsi) | reg_gpr(kRdi) |
                reg_gpr(kRbp));
    b.write_gpr(kRax, 4);
}

// dest = dest op src: packed and scalar arithmetic, logic, compares, unpacks, shuffles.
inline void rmw_x(Builder& b) { b.read_E(X); b.rmw_G(X); }
inline void rmw_v(Builder& b) { b.read_E(b.mmx_or_xmm()); b.rmw_G(b.mmx_or_xmm()); }
// dest = f(src), the whole destination written: full-width moves and conversions.
template <File Dest, File Src>
void overwrite(Builder& b) { b.read_E(Src); b.write_G(Dest); }
inline void overwrite_v(Builder& b) { b.read_E(b.mmx_or_xmm()); b.write_G(b.mmx_or_xmm()); }
// dest's low element = f(src), the rest of dest kept: sqrtss, cvtss2sd, cvtsi2sd, movlps m64...
template <File Dest, File Src>
void merge(Builder& b) { b.read_E(Src); b.rmw_G(Dest); }
// r/m = reg: stores, and register moves in the store direction.
inline void store_x(Builder& b) { b.read_G(X); b.write_E(X); }
inline void store_v(Builder& b) { b.read_G(b.mmx_or_xmm()); b.write_E(b.mmx_or_xmm()); }
// Compares of two xmm operands into the flags: comiss, ucomisd, ptest.
inline void compare_x(Builder& b) { b.read_E(X); b.read_G(X); b.write_flags(); }
// VEX's non-destructive source: dest = vvvv op r/m.
inline void nds(Builder& b) { b.read_xmm(b.d().vvvv); b.read_E(X); b.write_G(X); }
// A VEX zero idiom: vpxor, vpsub*, vxorps of a register with itself read nothing.
inline void nds_zero_idiom(Builder& b) {
    if (!b.d().mem && b.d().rm_n == b.d().vvvv) b.write_G(X);
    else nds(b);
}
// r/m to a general register: movmskps, pmovmskb.
inline void xmm_to_gpr(Builder& b) { b.read_E(X); b.write_G(G, b.gpr_size()); }

}  // namespace rules

}  // namespace netburst::emu::x86ops
