// CycleSlots, the per-cycle bandwidth of delivery, allocation and retirement: `width` a cycle, and with a period
// (Prescott's delivery, 8 uops in 3 cycles: CoreConfig::deliver_period) the last cycle of each period one short.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "emulator/core/cycle_slots.h"

namespace netburst::emu {
namespace {

TEST(CycleSlots, WidthPerCycleWithoutAPeriod) {
    CycleSlots s;
    s.reset(3);
    std::vector<unsigned> per(10, 0);
    for (unsigned i = 0; i < 30; ++i) ++per[s.take_own(0, 0)];
    for (unsigned c = 0; c < 10; ++c) EXPECT_EQ(per[c], 3u) << c;
}

TEST(CycleSlots, EightInThreeCyclesTwoInEveryThird) {
    CycleSlots s;
    s.reset(3, 3, 8);
    std::vector<unsigned> per(300, 0);
    Cycle last = 0;
    for (unsigned i = 0; i < 800; ++i) ++per[last = s.take_own(0, 0)];
    EXPECT_EQ(last, 299u);  // 800 uops, 8 every 3 cycles
    for (unsigned c = 0; c < 300; ++c) EXPECT_EQ(per[c], c % 3 == 2 ? 2u : 3u) << c;
    // The shared-mode path gives the same slots to a thread alone.
    CycleSlots t;
    t.reset(3, 3, 8);
    for (unsigned i = 0; i < 800; ++i) last = t.take(0, 0, false);
    EXPECT_EQ(last, 299u);
}

// A bulk take (a long microcode flow) ends where the same number of single takes would, from any start.
TEST(CycleSlots, BulkTakesEndWhereSingleTakesDo) {
    for (unsigned period : {0u, 3u}) {
        for (unsigned before = 0; before < 7; ++before) {
            for (std::uint64_t n : {1ull, 2ull, 3ull, 7ull, 8ull, 9ull, 100ull, 1001ull}) {
                CycleSlots a, b;
                a.reset(3, period, 8);
                b.reset(3, period, 8);
                for (unsigned i = 0; i < before; ++i) {
                    a.take_own(0, 5);
                    b.take_own(0, 5);
                }
                const Cycle bulk = a.take_bulk(0, 5, n, false);
                Cycle single = 0;
                for (std::uint64_t i = 0; i < n; ++i) single = b.take_own(0, 5);
                EXPECT_EQ(bulk, single) << period << " " << before << " " << n;
                EXPECT_EQ(a.take_own(0, 0), b.take_own(0, 0)) << period << " " << before << " " << n;
            }
        }
    }
}

}  // namespace
}  // namespace netburst::emu
