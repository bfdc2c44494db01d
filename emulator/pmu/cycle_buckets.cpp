#include "emulator/pmu/cycle_buckets.h"

#include <cstring>

namespace netburst::emu {

void CycleBuckets::start(Cycle first) {
    std::memset(points_, 0, sizeof points_);
    std::memset(delta_, 0, sizeof delta_);
    std::memset(marks_, 0, sizeof marks_);
    next_ = first;
    last_ = first;
    level_ = 0;
    num_far_ = 0;
}

void CycleBuckets::mark(Cycle c) {
    const unsigned s = slot(c);
    marks_[s >> 6] |= std::uint64_t{1} << (s & 63);
    if (c + 1 > last_) last_ = c + 1;
}

void CycleBuckets::add_delta(Cycle c, int delta) {
    const unsigned s = slot(c);
    int d = delta_[s] + delta;
    if (d > INT16_MAX) d = INT16_MAX;
    if (d < INT16_MIN) d = INT16_MIN;
    delta_[s] = static_cast<std::int16_t>(d);
    mark(c);
}

void CycleBuckets::add_point(Cycle cycle, unsigned count) {
    if (count == 0) return;
    if (cycle < next_) cycle = next_;
    if (cycle >= next_ + kWindow) {
        cycle = next_ + kWindow - 1;
        ++clamps_;
    }
    const unsigned s = slot(cycle);
    const unsigned total = points_[s] + count;
    points_[s] = static_cast<std::uint8_t>(total > kMaxPerCycle ? kMaxPerCycle : total);
    mark(cycle);
}

void CycleBuckets::add_interval(Cycle begin, Cycle end, unsigned per_cycle) {
    if (end <= begin || per_cycle == 0) return;
    const Cycle length = end - begin;
    if (begin < next_) begin = next_;
    if (begin >= next_ + kWindow) {
        begin = next_ + kWindow - 1;
        ++clamps_;
    }
    end = begin + length;
    const int p = static_cast<int>(per_cycle);
    add_delta(begin, p);
    if (end < next_ + kWindow) {
        add_delta(end, -p);
    } else if (num_far_ < kMaxFarEnds) {
        far_[num_far_++] = FarEnd{end, p};
        if (end > last_) last_ = end;
    } else {
        ++clamps_;
        add_delta(next_ + kWindow - 1, -p);
    }
}

Cycle CycleBuckets::next_change(Cycle from, Cycle limit) const {
    Cycle best = limit;
    for (unsigned i = 0; i < num_far_; ++i)
        if (far_[i].cycle >= from && far_[i].cycle < best) best = far_[i].cycle;
    const Cycle window_end = next_ + kWindow;
    const Cycle end = best < window_end ? best : window_end;
    Cycle c = from;
    while (c < end) {
        const unsigned s = slot(c);
        const unsigned bit = s & 63;
        const std::uint64_t word = marks_[s >> 6] >> bit;
        if (word != 0) {
            // A hit at or past `end` is either past the search or (past the window) a slot of an earlier cycle.
            const Cycle hit = c + static_cast<Cycle>(__builtin_ctzll(word));
            return hit < end ? hit : best;
        }
        c += 64 - bit;
    }
    return best;
}

unsigned CycleBuckets::take(Cycle cycle) {
    const unsigned s = slot(cycle);
    const unsigned points = points_[s];
    level_ += delta_[s];
    points_[s] = 0;
    delta_[s] = 0;
    marks_[s >> 6] &= ~(std::uint64_t{1} << (s & 63));
    for (unsigned i = 0; i < num_far_;) {
        if (far_[i].cycle == cycle) {
            level_ -= far_[i].per_cycle;
            far_[i] = far_[--num_far_];
        } else {
            ++i;
        }
    }
    next_ = cycle + 1;
    const unsigned total = points + level();
    return total > kMaxPerCycle ? kMaxPerCycle : total;
}

void CycleBuckets::skip_to(Cycle cycle) {
    if (cycle > next_) next_ = cycle;
}

Cycle CycleBuckets::last_content() const {
    // `last_` is one past the last cycle that holds something (a point, or an interval's end).
    return last_ > next_ ? last_ - 1 : next_ - 1;
}

}  // namespace netburst::emu
