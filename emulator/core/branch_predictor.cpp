#include "emulator/core/branch_predictor.h"

#include "emulator/core/set_geometry.h"

namespace netburst::emu {

void BranchPredictor::reset(unsigned entries, unsigned ways, unsigned rsb_entries) {
    const SetGeometry g = set_geometry(entries, ways, kMaxEntries, kMaxWays);
    ways_ = g.ways;
    sets_ = g.sets;
    set_mask_ = sets_ - 1;
    rsb_size_ = rsb_entries > kMaxRsb ? kMaxRsb : rsb_entries;
    clock_ = 0;
    for (Entry& e : entries_) e = Entry{kEmpty, 0, 0};
    for (std::uint8_t& c : pht_) c = 2;
    history_[0] = history_[1] = 0;
    for (unsigned t = 0; t < 2; ++t) {
        rsb_top_[t] = 0;
        rsb_count_[t] = 0;
        for (std::uint64_t& a : rsb_[t]) a = 0;
    }
}

BranchPredictor::Entry* BranchPredictor::allocate(std::uint64_t tagged_pc) {
    Entry* set = &entries_[((tagged_pc ^ (tagged_pc >> 12)) & set_mask_) * ways_];
    Entry* victim = &set[0];
    for (unsigned w = 1; w < ways_; ++w)
        if (set[w].stamp < victim->stamp) victim = &set[w];
    *victim = Entry{tagged_pc, 0, ++clock_};
    return victim;
}

void BranchPredictor::push_return(unsigned thread, std::uint64_t address) {
    if (rsb_size_ == 0) return;
    rsb_[thread][rsb_top_[thread]] = address;
    rsb_top_[thread] = (rsb_top_[thread] + 1) % rsb_size_;
    if (rsb_count_[thread] < rsb_size_) ++rsb_count_[thread];  // a full stack overwrites its oldest entry
}

bool BranchPredictor::pop_return(unsigned thread, std::uint64_t* address) {
    if (rsb_count_[thread] == 0) return false;
    rsb_top_[thread] = (rsb_top_[thread] + rsb_size_ - 1) % rsb_size_;
    --rsb_count_[thread];
    *address = rsb_[thread][rsb_top_[thread]];
    return true;
}

BranchPredictor::Prediction BranchPredictor::other(unsigned thread, const Instruction& insn, std::uint64_t tagged_pc) {
    const std::uint64_t fall_through = insn.pc + insn.length;
    switch (insn.cls) {
    case InsnClass::Return: {
        std::uint64_t predicted = 0;
        const bool have = pop_return(thread, &predicted);
        return Prediction{!have || predicted != insn.target, have};
    }
    case InsnClass::DirectCall:
    case InsnClass::DirectJump: {
        // Always predicted taken to the right target: by the BTB, or by the decoder on a BTB miss.
        Entry* e = lookup(tagged_pc);
        const bool hit = e != nullptr;
        if (e == nullptr) e = allocate(tagged_pc);
        e->target = insn.target;
        if (insn.cls == InsnClass::DirectCall) push_return(thread, fall_through);
        return Prediction{false, hit};
    }
    case InsnClass::IndirectJump:
    case InsnClass::IndirectCall: {
        Entry* e = lookup(tagged_pc);
        const bool hit = e != nullptr;
        const bool mispredicted = !hit || e->target != insn.target;
        if (e == nullptr) e = allocate(tagged_pc);
        e->target = insn.target;
        if (insn.cls == InsnClass::IndirectCall) push_return(thread, fall_through);
        return Prediction{mispredicted, hit};
    }
    default: return Prediction{false, false};
    }
}

}  // namespace netburst::emu
