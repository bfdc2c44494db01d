// Which logical processors are active, cycle by cycle, for the CCCR active-thread filter (SDM 18.16.2: a halted
// or wait-for-SIPI logical processor is inactive). The feed reports changes with set_thread_active(); counters
// that filter by activity are evaluated after the fact (when their cycles close), so changes are kept as a short
// timeline until every cycle before them has been evaluated.
#pragma once

#include <cstdint>

#include "emulator/model/outcome.h"

namespace netburst::emu {

class ActivityTimeline {
public:
    static constexpr unsigned kMaxChanges = 64;  // pending changes; drivers report them as time advances

    // Without Hyper-Threading only logical processor 0 exists; both start active (see doc/emulator-pmu.md).
    void reset(bool hyper_threading);
    // A change from `cycle` on. Changes are expected in cycle order; one before `floor` (already evaluated) takes
    // effect at `floor`.
    void set(unsigned thread, bool active, Cycle cycle, Cycle floor);

    // How many logical processors are active in `cycle` (cycle >= the last fold).
    unsigned active_count(Cycle cycle) const;
    // The first cycle after `after` where the activity changes, or `limit`.
    Cycle next_change(Cycle after, Cycle limit) const;
    // Every cycle before `cycle` has been evaluated: folds the changes up to it into the base state.
    void fold_until(Cycle cycle);
    bool active(unsigned thread) const;  // at the latest known change
    bool has_changes() const { return num_changes_ != 0; }

private:
    struct Change {
        Cycle cycle;
        std::uint8_t thread;
        bool active;
    };
    std::uint8_t existing_ = 1;  // bitmask of logical processors that exist
    std::uint8_t base_ = 1;      // active mask before the first pending change
    Change changes_[kMaxChanges];
    unsigned num_changes_ = 0;
};

}  // namespace netburst::emu
