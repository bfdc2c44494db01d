// The front of the x86 decoder: legacy prefixes, REX, VEX/EVEX, the opcode map and opcode, ModRM, SIB and
// displacement, in 64-bit mode or in the 32-bit mode of i386 programs. The one decode of an instruction
// (x86_instruction.h) starts here, and the opcode table's rows key on what it reads.
//
// Freestanding: no allocation, no C library; the Valgrind tool links it.
#pragma once

#include <cstdint>

namespace netburst::emu {

// The SSE "mandatory prefix" that selects among the PS, PD, SS and SD forms of a 0F-map opcode (VEX.pp and
// EVEX.pp encode the same four choices).
enum class Pp : std::uint8_t { None, P66, F3, F2 };

// The mode the bytes run in: 64-bit mode (x86-64 programs), or the 32-bit protected mode of i386 programs, which is
// all a Pentium 4 before EM64T had (the tool's x86-linux build runs them). In 32-bit mode 40-4F are the one-byte
// inc and dec, not REX; C4, C5 and 62 are les, lds and bound unless a register ModRM follows (then VEX or EVEX); the
// address-size prefix 67 selects 16-bit addressing; and some opcodes exist that 64-bit mode dropped.
enum class X86Mode : std::uint8_t { Long64, Protected32 };

struct X86Decoded {
    const std::uint8_t* bytes = nullptr;
    unsigned length = 0;
    X86Mode mode = X86Mode::Long64;
    bool has_opcode = false;  // an opcode byte lies within length

    // Prefixes.
    bool op66 = false;       // operand-size override
    bool lock = false;
    bool addr16 = false;     // 32-bit mode with 67: the ModRM operand uses 16-bit addressing
    bool rep = false;        // F2 or F3 seen
    Pp pp = Pp::None;        // F2/F3 take precedence over 66 (legacy encodings); VEX.pp otherwise
    bool rex = false;        // a REX prefix (it changes what byte registers 4-7 mean)
    bool rex_w = false;      // REX.W or VEX.W: 64-bit operand size
    bool rex_b = false;      // REX.B: extends ModRM.rm, SIB.base, and the register in an opcode's low three bits
    bool vex = false;        // VEX or EVEX encoded
    bool evex = false;
    std::uint8_t vvvv = 0;   // VEX.vvvv as a register number (the encoding stores it inverted)
    bool vex_l = false;      // VEX.L: 256-bit

    // Opcode: map 0 is the one-byte map, 1 is 0F, 2 is 0F38, 3 is 0F3A.
    unsigned map = 0;
    std::uint8_t op = 0;

    // ModRM.
    bool has_modrm = false;
    std::uint8_t modrm = 0;
    bool mem = false;          // ModRM addresses memory
    std::uint8_t reg = 0;      // ModRM.reg, 0-7: the /digit of group opcodes
    std::uint8_t reg_n = 0;    // ModRM.reg with REX.R: a register number, 0-15
    std::uint8_t rm_n = 0;     // register forms: ModRM.rm with REX.B, 0-15

    // Memory forms: the registers the address is computed from (-1: none; RIP-relative and absolute addresses
    // read no general register).
    std::int8_t base = -1;
    std::int8_t index = -1;
    std::uint8_t scale = 1;    // the index's factor: 1, 2, 4 or 8
    std::uint8_t disp_size = 0;  // displacement bytes: 0, 1, 2 (16-bit addressing) or 4
    unsigned imm_pos = 0;      // the first byte after ModRM, SIB and displacement: the immediate, if any

    std::uint8_t imm8() const { return imm_pos < length ? bytes[imm_pos] : 0; }
};

// Decodes the front of the instruction occupying bytes[0, length) (1-15 bytes; never reads past length).
X86Decoded decode_x86(const std::uint8_t* bytes, unsigned length, X86Mode mode = X86Mode::Long64);

}  // namespace netburst::emu
