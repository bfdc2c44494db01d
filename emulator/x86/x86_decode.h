// The front of the x86-64 decoder: legacy prefixes, REX, VEX/EVEX, the opcode map and opcode, ModRM, SIB and
// displacement. The one decode of an instruction (x86_instruction.h) starts here, and the opcode table's rows key on
// what it reads.
//
// Freestanding: no allocation, no C library; the Valgrind tool links it.
#pragma once

#include <cstdint>

namespace netburst::emu {

// The SSE "mandatory prefix" that selects among the PS, PD, SS and SD forms of a 0F-map opcode (VEX.pp and
// EVEX.pp encode the same four choices).
enum class Pp : std::uint8_t { None, P66, F3, F2 };

struct X86Decoded {
    const std::uint8_t* bytes = nullptr;
    unsigned length = 0;
    bool has_opcode = false;  // an opcode byte lies within length

    // Prefixes.
    bool op66 = false;       // operand-size override
    bool lock = false;
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
    std::uint8_t disp_size = 0;  // displacement bytes: 0, 1 or 4
    unsigned imm_pos = 0;      // the first byte after ModRM, SIB and displacement: the immediate, if any

    std::uint8_t imm8() const { return imm_pos < length ? bytes[imm_pos] : 0; }
};

// Decodes the front of the instruction occupying bytes[0, length) (1-15 bytes; never reads past length).
X86Decoded decode_x86(const std::uint8_t* bytes, unsigned length);

}  // namespace netburst::emu
