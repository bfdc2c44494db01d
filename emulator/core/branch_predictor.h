// Branch prediction: a 4K-entry, 4-way branch target buffer (which branches are known, and their targets), a
// gshare direction predictor, the static rules for branches the BTB does not know, and a 16-entry return stack
// per logical processor (the thesis, sections 4.4.1-4.4.3; doc/references.md).
//
// Why gshare with 16 branches of history: Intel documents the BTB and the static rules but not the dynamic
// algorithm. The thesis reports a two-level predictor indexed gshare-style, and Intel's optimization manual tells
// Pentium 4 programmers that loops of up to 16 iterations (16 conditional branches of pattern) are predicted
// including their exit, which is what a global history of 16 conditional-branch outcomes gives. So: 2-bit
// counters (16K, initialised weakly taken) indexed by the branch address XOR the logical processor's history.
// A loop longer than the history mispredicts once, at its exit; shorter loops are learned completely.
//
// Static prediction on a BTB miss: backward conditional branches taken, forward ones not taken; direct
// unconditional branches and calls taken (the decoder computes their target); indirect branches cannot be
// predicted (the target is unknown) and count as mispredicted. Returns use the return stack.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"

namespace netburst::emu {

class BranchPredictor {
public:
    static constexpr unsigned kMaxEntries = 4096;
    static constexpr unsigned kMaxWays = 4;
    static constexpr unsigned kMaxRsb = 16;
    static constexpr unsigned kPhtBits = 14;
    static constexpr unsigned kHistoryBits = 16;

    void reset(unsigned entries, unsigned ways, unsigned rsb_entries);

    struct Prediction {
        bool mispredicted;
        bool btb_hit;
    };
    // Predicts the branch `insn` (its class, pc, taken and target say what the program did), then trains the
    // predictor with the outcome. `tagged_pc` is the address with the thread tag folded in.
    __attribute__((always_inline)) Prediction predict_and_update(unsigned thread, const Instruction& insn,
                                                                 std::uint64_t tagged_pc) {
        if (insn.cls == InsnClass::CondBranch) return conditional(thread, insn, tagged_pc);
        return other(thread, insn, tagged_pc);
    }

    // Return-stack depth, for tests.
    unsigned rsb_depth(unsigned thread) const { return rsb_count_[thread]; }

private:
    struct Entry {
        std::uint64_t tag;  // tagged pc; kEmpty when unused
        std::uint64_t target;
        std::uint64_t stamp;
    };
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

    // Conditional branches, the commonest, inline; the other kinds in branch_predictor.cpp.
    __attribute__((always_inline)) Prediction conditional(unsigned thread, const Instruction& insn,
                                                          std::uint64_t tagged_pc) {
        Entry* e = lookup(tagged_pc);
        const bool hit = e != nullptr;
        std::uint8_t& c = counter(thread, tagged_pc);
        // Known branches follow the direction predictor; unknown ones the static rule (backward taken).
        const bool predict_taken = hit ? c >= 2 : insn.target < insn.pc;
        // A direct branch's target is fixed, so a taken prediction always has the right target.
        const bool mispredicted = predict_taken != insn.taken;
        if (insn.taken) {
            if (c < 3) ++c;
        } else if (c > 0) {
            --c;
        }
        if (!hit && (insn.taken || mispredicted)) {
            e = allocate(tagged_pc);
            e->target = insn.target;
        }
        history_[thread] = ((history_[thread] << 1) | (insn.taken ? 1u : 0u)) & ((1u << kHistoryBits) - 1);
        return Prediction{mispredicted, hit};
    }
    Prediction other(unsigned thread, const Instruction& insn, std::uint64_t tagged_pc);
    Entry* lookup(std::uint64_t tagged_pc) {
        Entry* set = &entries_[((tagged_pc ^ (tagged_pc >> 12)) & set_mask_) * ways_];
        Entry* e = nullptr;
        if (ways_ == 4) {
            // The model's geometry, unrolled: no loop counter.
            if (set[0].tag == tagged_pc) e = &set[0];
            else if (set[1].tag == tagged_pc) e = &set[1];
            else if (set[2].tag == tagged_pc) e = &set[2];
            else if (set[3].tag == tagged_pc) e = &set[3];
        } else {
            for (unsigned w = 0; w < ways_ && e == nullptr; ++w)
                if (set[w].tag == tagged_pc) e = &set[w];
        }
        if (e != nullptr) e->stamp = ++clock_;
        return e;
    }
    Entry* allocate(std::uint64_t tagged_pc);
    std::uint8_t& counter(unsigned thread, std::uint64_t tagged_pc) {
        const std::uint64_t h = history_[thread];
        return pht_[(tagged_pc ^ (tagged_pc >> kPhtBits) ^ h ^ (h >> kPhtBits)) & ((1u << kPhtBits) - 1)];
    }
    void push_return(unsigned thread, std::uint64_t address);
    bool pop_return(unsigned thread, std::uint64_t* address);

    unsigned sets_ = 1024, ways_ = 4, rsb_size_ = 16;
    std::uint64_t set_mask_ = 1023;  // sets_ - 1
    std::uint64_t clock_ = 0;
    Entry entries_[kMaxEntries];
    std::uint8_t pht_[1u << kPhtBits];  // 0-1 predict not taken, 2-3 taken
    std::uint64_t history_[2] = {0, 0};
    std::uint64_t rsb_[2][kMaxRsb];
    unsigned rsb_top_[2] = {0, 0};
    unsigned rsb_count_[2] = {0, 0};
};

}  // namespace netburst::emu
