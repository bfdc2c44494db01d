// Performance-monitoring interrupts: when they are taken and where they return to.
//
// A PMI is raised at a cycle (the event after an overflow, or a PEBS buffer reaching its threshold) and taken
// pmi_skid_cycles later. The interrupt returns to the first instruction of the interrupted logical processor that
// had not retired when it was taken: the first instruction whose retirement is at or after the delivery cycle. The
// model learns instructions in program order, so it keeps the last few (retire cycle, pc) pairs of each logical
// processor to answer at once when that instruction has already been seen, and otherwise waits for it.
//
// One logical processor has one interrupt line: a PMI raised while another is waiting to be taken joins it (its
// overflowed counters are added).
#pragma once

#include <cstdint>

#include "emulator/pmu/pmu_types.h"
#include "emulator/pmu/record_ring.h"

namespace netburst::emu {

class PmiUnit {
public:
    static constexpr unsigned kWindow = 128;  // instructions per logical processor; more than the 126-uop ROB holds
    static constexpr unsigned kCapacity = 256;

    void reset(unsigned skid_cycles);

    // An instruction of `thread` retired at `retire` (called in program order, before its events are counted).
    void note_retired(unsigned thread, Cycle retire, std::uint64_t pc) {
        thread &= 1u;
        window_[thread][head_[thread]] = Retired{retire, pc};
        head_[thread] = (head_[thread] + 1) % kWindow;
        if (count_[thread] < kWindow) ++count_[thread];
        if (waiting_[thread] && retire >= pending_[thread].cycle) finish(thread, pc);
    }
    void raise(unsigned thread, Cycle cycle, std::uint32_t overflowed, bool pebs_threshold);
    // The logical processor stopped: no instruction will tell where its waiting PMI returns; eip 0 says so.
    void flush(unsigned thread);
    bool waiting(unsigned thread) const { return waiting_[thread & 1u]; }

    unsigned take(PmiRecord* out, unsigned capacity) { return done_.take(out, capacity); }
    unsigned ready() const { return done_.size(); }
    std::uint64_t lost() const { return done_.lost(); }

private:
    struct Retired {
        Cycle retire;
        std::uint64_t pc;
    };
    void finish(unsigned thread, std::uint64_t eip);

    unsigned skid_ = 0;
    Retired window_[2][kWindow];
    unsigned head_[2] = {};   // next slot to write
    unsigned count_[2] = {};
    bool waiting_[2] = {};
    PmiRecord pending_[2];
    RecordRing<PmiRecord, kCapacity> done_;
};

}  // namespace netburst::emu
