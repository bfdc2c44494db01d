// The call chain of a guest thread for `netburst-run record -g`, kept from the instructions it runs: a shadow call
// stack of return addresses, not an unwind of the program's own stack (no frame pointers, no DWARF).
//
// Rules:
// - A call (InsnClass::DirectCall, IndirectCall) pushes its return address, pc + length.
// - A return pops when its target is the top entry. A return to an address deeper in the stack pops down to it
//   (longjmp, an exception's unwind, a tail call's frame that returns past its caller); a return to an address
//   the stack does not hold (a signal handler returning to its restorer, code that pushes its own return address)
//   leaves the stack alone.
// - At most kCapacity entries. Calls past it are counted (overflowed()) and not kept; while some are outstanding,
//   a return takes one of them back instead of looking at the entries.
// - The kernel's own calls and returns (cpl 0: the synthetic kernel paths) are not the program's and are skipped.
//
// Freestanding: plain data, one per guest thread (ThreadContext), used inside the Valgrind tool.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"

namespace netburst::emu::vg {

class ShadowStack {
public:
    // perf's default maximum chain is 127 entries besides the sample's own instruction pointer.
    static constexpr unsigned kCapacity = 127;

    void clear() {
        depth_ = 0;
        excess_ = 0;
    }
    // The instruction ran (after it: what it did to the stack holds from the next instruction on).
    __attribute__((always_inline)) void update(const Instruction& insn) {
        if (insn.cpl == 0) return;
        if (insn.cls == InsnClass::DirectCall || insn.cls == InsnClass::IndirectCall)
            push(insn.pc + insn.length);
        else if (insn.cls == InsnClass::Return)
            pop_to(insn.target);
    }
    void push(std::uint64_t return_address) {
        if (depth_ == kCapacity) {
            ++excess_;
            ++overflowed_;
            return;
        }
        entries_[depth_++] = return_address;
    }
    void pop_to(std::uint64_t target) {
        if (excess_ != 0) {
            --excess_;
            return;
        }
        for (unsigned i = depth_; i-- > 0;)
            if (entries_[i] == target) {
                depth_ = i;
                return;
            }
    }

    unsigned depth() const { return depth_; }
    // Entry i from the top (0: the innermost return address).
    std::uint64_t from_top(unsigned i) const { return entries_[depth_ - 1 - i]; }
    // Calls that did not fit, over the thread's life.
    std::uint64_t overflowed() const { return overflowed_; }
    void forget_overflow() { overflowed_ = 0; }

private:
    std::uint64_t entries_[kCapacity] = {};
    unsigned depth_ = 0;
    std::uint64_t excess_ = 0;      // calls past the capacity whose returns have not come yet
    std::uint64_t overflowed_ = 0;
};

}  // namespace netburst::emu::vg
