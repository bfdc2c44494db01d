// A compact x86-64 instruction classifier: from an instruction's bytes to the emulator's InsnClass.
//
// Valgrind tells the tool where each guest instruction starts and how long it is, and its IR gives the memory
// accesses; what the IR cannot tell is the kind of work (x87 or SSE, scalar or packed, single or double precision,
// MMX, a microcoded flow). The classifier takes the decoder front's reading of the encoding (x86_decode.h:
// prefixes, REX, VEX/EVEX, the one-byte, 0F, 0F38 and 0F3A maps, ModRM) and maps opcodes, x87 escapes D8-DF and
// /digit extensions to a class.
//
// Freestanding: no allocation, no C library; the Valgrind tool links it.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"
#include "emulator/x86/x86_decode.h"

namespace netburst::emu {

struct X86Class {
    InsnClass cls = InsnClass::IntAlu;
    InsnForm form = InsnForm::None;  // x86_form.h
    bool known = true;         // false: an encoding this table does not know; cls is then IntAlu
    bool memory_form = false;  // the ModRM byte addresses memory
    bool rep = false;          // a string instruction with REP/REPE/REPNE
    bool compares = false;     // cmps/scas: with REPE/REPNE the comparison can also end the repetition
    bool lock = false;         // LOCK prefix
    bool has_rel = false;      // a direct branch: it goes to pc + length + rel
    std::int32_t rel = 0;
};

// Classifies the instruction occupying bytes[0, length). length is the length Valgrind decoded (1-15); the
// classifier never reads past it.
X86Class classify_x86(const std::uint8_t* bytes, unsigned length);

// True when bytes start Valgrind's client-request "special instruction" preamble (four rotates of rdi that
// together do nothing). Under Valgrind the whole sequence is the call into the tool, not guest work.
bool is_valgrind_special_sequence(const std::uint8_t* bytes, unsigned length);

}  // namespace netburst::emu
