// find_with_cycle_run against the definition it speeds up: port.find() then unit.run_free() at each candidate
// cycle, on random reservations across word and window edges.
#include <gtest/gtest.h>

#include <cstdint>

#include "emulator/core/tick_ring.h"

namespace netburst::emu {
namespace {

// The candidate-by-candidate search issue_slow did before.
Tick by_definition(const TickRing& port, const TickRing& unit, Tick tick, unsigned n) {
    Tick t = tick;
    for (;;) {
        t = port.find(t, TickRing::kCycleStart);
        if (unit.run_free(t, n, kTicksPerCycle)) return t;
        t += kTicksPerCycle;
    }
}

struct Lcg {
    std::uint64_t x = 88172645463325252ull;
    std::uint64_t next() { return x = x * 6364136223846793005ull + 1442695040888963407ull; }
};

TEST(TickRing, CycleRunSearchIsTheCandidateByCandidateOne) {
    Lcg rng;
    unsigned checked = 0;
    for (int round = 0; round < 200; ++round) {
        TickRing port, unit;
        port.reset();
        unit.reset();
        const Tick base = (rng.next() >> 40) & ~Tick{63};
        port.advance(base);
        unit.advance(base);
        // Dense stretches and gaps: each tick taken with a probability that changes per round.
        const unsigned density = 1 + static_cast<unsigned>(rng.next() >> 61);  // 1..8 of 8
        for (Tick t = base; t < base + 4096; ++t) {
            if ((rng.next() >> 61) < density) port.set(t);
            if ((rng.next() >> 61) < density) unit.set(t);
        }
        for (int q = 0; q < 50; ++q) {
            const Tick from = base - 100 + static_cast<Tick>(rng.next() >> 52);  // before the window too
            const unsigned n = 1 + static_cast<unsigned>((rng.next() >> 32) % TickRing::kMaxCycleRun);
            ASSERT_EQ(find_with_cycle_run(port, TickRing::kCycleStart, unit, from, n),
                      by_definition(port, unit, from, n))
                << "round " << round << " from " << from << " n " << n;
            // The same ring as port and unit (a load that holds the load port).
            ASSERT_EQ(find_with_cycle_run(port, TickRing::kCycleStart, port, from, n),
                      by_definition(port, port, from, n));
            ++checked;
        }
    }
    EXPECT_EQ(checked, 200u * 50u);
}

}  // namespace
}  // namespace netburst::emu
