#include "emulator/pmu/pmi.h"

namespace netburst::emu {

void PmiUnit::reset(unsigned skid_cycles) {
    skid_ = skid_cycles;
    head_[0] = head_[1] = 0;
    count_[0] = count_[1] = 0;
    waiting_[0] = waiting_[1] = false;
    done_.clear();
}

void PmiUnit::finish(unsigned thread, std::uint64_t eip) {
    pending_[thread].eip = eip;
    done_.push(pending_[thread]);
    waiting_[thread] = false;
}

void PmiUnit::raise(unsigned thread, Cycle cycle, std::uint32_t overflowed, bool pebs_threshold) {
    thread &= 1u;
    if (waiting_[thread]) {
        pending_[thread].overflowed |= overflowed;
        pending_[thread].pebs_threshold = pending_[thread].pebs_threshold || pebs_threshold;
        return;
    }
    PmiRecord& r = pending_[thread];
    r = PmiRecord{};
    r.cycle = cycle + skid_;
    r.thread = static_cast<std::uint8_t>(thread);
    r.overflowed = overflowed;
    r.pebs_threshold = pebs_threshold;
    waiting_[thread] = true;
    // The returning instruction may already have been seen: retire cycles of one logical processor are in program
    // order, so the first one at or after delivery is the answer. If even the oldest remembered one retires at or
    // after delivery, the answer is older than the window; the oldest remembered is the nearest we know.
    const unsigned n = count_[thread];
    const unsigned oldest = (head_[thread] + kWindow - n) % kWindow;
    for (unsigned i = 0; i < n; ++i) {
        const Retired& e = window_[thread][(oldest + i) % kWindow];
        if (e.retire >= r.cycle) {
            finish(thread, e.pc);
            return;
        }
    }
}

void PmiUnit::flush(unsigned thread) {
    thread &= 1u;
    if (waiting_[thread]) finish(thread, 0);
}

}  // namespace netburst::emu
