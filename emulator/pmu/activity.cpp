#include "emulator/pmu/activity.h"

namespace netburst::emu {

namespace {
std::uint8_t apply(std::uint8_t mask, unsigned thread, bool active) {
    const std::uint8_t bit = static_cast<std::uint8_t>(1u << (thread & 1u));
    return static_cast<std::uint8_t>(active ? (mask | bit) : (mask & ~bit));
}
}  // namespace

void ActivityTimeline::reset(bool hyper_threading) {
    existing_ = hyper_threading ? 3 : 1;
    base_ = existing_;
    num_changes_ = 0;
}

void ActivityTimeline::set(unsigned thread, bool active, Cycle cycle, Cycle floor) {
    if (!((existing_ >> (thread & 1u)) & 1u)) return;
    if (cycle < floor) cycle = floor;
    if (num_changes_ == kMaxChanges) {
        // Full: the oldest change becomes part of the base state (it only shifts that change's timing).
        base_ = apply(base_, changes_[0].thread, changes_[0].active);
        for (unsigned i = 1; i < num_changes_; ++i) changes_[i - 1] = changes_[i];
        --num_changes_;
    }
    // Keep the list in cycle order (a change reported late is inserted where it belongs).
    unsigned at = num_changes_;
    while (at > 0 && changes_[at - 1].cycle > cycle) {
        changes_[at] = changes_[at - 1];
        --at;
    }
    changes_[at] = Change{cycle, static_cast<std::uint8_t>(thread & 1u), active};
    ++num_changes_;
}

unsigned ActivityTimeline::active_count(Cycle cycle) const {
    std::uint8_t mask = base_;
    for (unsigned i = 0; i < num_changes_ && changes_[i].cycle <= cycle; ++i)
        mask = apply(mask, changes_[i].thread, changes_[i].active);
    mask = static_cast<std::uint8_t>(mask & existing_);
    return (mask & 1u) + ((mask >> 1) & 1u);  // no __builtin_popcount: it may call libgcc, absent in a Valgrind tool
}

Cycle ActivityTimeline::next_change(Cycle after, Cycle limit) const {
    for (unsigned i = 0; i < num_changes_; ++i)
        if (changes_[i].cycle > after) return changes_[i].cycle < limit ? changes_[i].cycle : limit;
    return limit;
}

void ActivityTimeline::fold_until(Cycle cycle) {
    unsigned n = 0;
    while (n < num_changes_ && changes_[n].cycle <= cycle) {
        base_ = apply(base_, changes_[n].thread, changes_[n].active);
        ++n;
    }
    if (n == 0) return;
    for (unsigned i = n; i < num_changes_; ++i) changes_[i - n] = changes_[i];
    num_changes_ -= n;
}

bool ActivityTimeline::active(unsigned thread) const {
    std::uint8_t mask = base_;
    for (unsigned i = 0; i < num_changes_; ++i) mask = apply(mask, changes_[i].thread, changes_[i].active);
    return (mask >> (thread & 1u)) & 1u;
}

}  // namespace netburst::emu
