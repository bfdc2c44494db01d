// A fixed-capacity FIFO for the records the PMU hands out (PMIs, PEBS records): no allocation, and records that do
// not fit are counted instead of silently overwriting the ones software has not taken yet.
#pragma once

#include <cstdint>

namespace netburst::emu {

template <typename T, unsigned N>
class RecordRing {
public:
    void clear() {
        head_ = 0;
        count_ = 0;
        lost_ = 0;
    }
    void push(const T& record) {
        if (count_ == N) {
            ++lost_;
            return;
        }
        items_[(head_ + count_) % N] = record;
        ++count_;
    }
    // When full, the oldest record makes room (counted as lost): for a reader that wants the newest ones.
    void push_evicting(const T& record) {
        if (count_ == N) {
            head_ = (head_ + 1) % N;
            --count_;
            ++lost_;
        }
        push(record);
    }
    unsigned take(T* out, unsigned capacity) {
        unsigned n = 0;
        while (n < capacity && count_ > 0) {
            out[n++] = items_[head_];
            head_ = (head_ + 1) % N;
            --count_;
        }
        return n;
    }
    unsigned size() const { return count_; }
    bool full() const { return count_ == N; }
    // The newest record; only while size() > 0.
    T& newest() { return items_[(head_ + count_ - 1) % N]; }
    std::uint64_t lost() const { return lost_; }

private:
    T items_[N];
    unsigned head_ = 0;
    unsigned count_ = 0;
    std::uint64_t lost_ = 0;
};

}  // namespace netburst::emu
