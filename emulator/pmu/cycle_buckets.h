// Per-cycle occurrence counts of one counter that needs every cycle evaluated on its own: a counter that compares
// against a threshold (with complement and edge) or filters by logical-processor activity. Such a counter cannot add
// occurrences in bulk, because a cycle's result depends on that cycle's total, including cycles with no occurrence
// at all. Occurrences therefore wait here, by cycle, until the cycle is closed (no later outcome can add to it).
//
// Layout: a ring of kWindow cycles starting at next() (the first cycle not yet evaluated): saturating point counts
// (the 4-bit bus never carries more than 15), and a difference array for intervals (+per_cycle where one begins,
// -per_cycle where it ends), so that an interval of any length costs two slots. A bitmap marks the cycles that hold
// anything, so that runs of empty cycles are evaluated in one step, not cycle by cycle. Interval ends beyond the
// window wait in a short list.
#pragma once

#include <cstdint>

#include "emulator/model/outcome.h"

namespace netburst::emu {

class CycleBuckets {
public:
    static constexpr unsigned kWindow = 8192;  // cycles; far more than a load miss takes to retire
    static constexpr unsigned kMaxFarEnds = 16;
    static constexpr unsigned kMaxPerCycle = 15;  // the ESCR-to-counter bus is 4 bits wide

    // Empties the window and starts it at `first`.
    void start(Cycle first);
    Cycle next() const { return next_; }

    // An occurrence count in `cycle`. Cycles before next() are clamped to next() (they were already evaluated, or
    // precede the counter's enable); cycles beyond the window to its last cycle. Clamps are counted.
    void add_point(Cycle cycle, unsigned count);
    // `per_cycle` occurrences in every cycle of [begin, end). An interval that begins before next() is moved to
    // begin at next(), keeping its length.
    void add_interval(Cycle begin, Cycle end, unsigned per_cycle);

    // The first cycle in [from, limit) that holds points or where the interval level changes, or `limit`.
    Cycle next_change(Cycle from, Cycle limit) const;
    // The interval level that holds in every cycle from next() up to (not including) next_change(next(), ...).
    unsigned level() const { return level_ > 0 ? static_cast<unsigned>(level_) : 0u; }
    // Consumes cycle `cycle` (== next(), at a change): applies its level change and returns the cycle's total,
    // capped at 15. Advances next() past it.
    unsigned take(Cycle cycle);
    // Marks every cycle before `cycle` evaluated (the caller evaluated them as a run of level()).
    void skip_to(Cycle cycle);

    // The last cycle with pending content (points, a level above zero, an interval end), or next() - 1 when none.
    Cycle last_content() const;
    std::uint64_t clamps() const { return clamps_; }

private:
    unsigned slot(Cycle c) const { return static_cast<unsigned>(c & (kWindow - 1)); }
    void mark(Cycle c);
    void add_delta(Cycle c, int delta);

    Cycle next_ = 0;
    int level_ = 0;
    Cycle last_ = 0;  // the last cycle holding content, for last_content()
    std::uint8_t points_[kWindow];
    std::int16_t delta_[kWindow];
    std::uint64_t marks_[kWindow / 64];
    struct FarEnd {
        Cycle cycle;
        int per_cycle;
    };
    FarEnd far_[kMaxFarEnds];
    unsigned num_far_ = 0;
    std::uint64_t clamps_ = 0;
};

}  // namespace netburst::emu
