// Instructions as the Valgrind tool hands them to the sampler and the shadow call stack, for the sampling
// tests (shadow_stack_test, call_edges_test, sampler_test): one builder per kind they need.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"

namespace netburst::emu::test {

// A call at `pc` to `target` (0: not given), `length` bytes long (its return address is pc + length).
inline Instruction call(std::uint64_t pc, std::uint64_t target = 0, std::uint8_t length = 5, bool indirect = false) {
    Instruction i;
    i.pc = pc;
    i.length = length;
    i.cls = indirect ? InsnClass::IndirectCall : InsnClass::DirectCall;
    i.taken = true;
    i.target = target;
    return i;
}

inline Instruction ret(std::uint64_t pc, std::uint64_t target) {
    Instruction i;
    i.pc = pc;
    i.length = 1;
    i.cls = InsnClass::Return;
    i.taken = true;
    i.target = target;
    return i;
}

inline Instruction jump(std::uint64_t pc, std::uint64_t target, bool indirect) {
    Instruction i;
    i.pc = pc;
    i.length = indirect ? 6 : 5;
    i.cls = indirect ? InsnClass::IndirectJump : InsnClass::DirectJump;
    i.taken = true;
    i.target = target;
    return i;
}

inline Instruction alu(std::uint64_t pc) {
    Instruction i;
    i.pc = pc;
    i.length = 3;
    i.cls = InsnClass::IntAlu;
    return i;
}

}  // namespace netburst::emu::test
