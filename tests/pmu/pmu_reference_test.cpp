// The per-cycle evaluation (CycleBuckets runs, interval difference arrays, far interval ends, activity changes)
// against a brute-force model that evaluates every cycle from arrays: random occurrences, intervals and activity,
// every combination of compare, complement, edge, threshold and active-thread filter.
#include <random>

#include "tests/pmu/pmu_test_util.h"

namespace netburst::emu::test {
namespace {

struct Scenario {
    std::vector<Outcome> outcomes;
    std::vector<unsigned> per_cycle;       // occurrences per cycle (before the 4-bit cap)
    std::vector<unsigned> active;          // active logical processors per cycle
    struct Change {
        Cycle cycle;
        unsigned thread;
        bool active;
    };
    std::vector<Change> changes;
    Cycle end = 0;
};

Scenario make_scenario(unsigned seed, Cycle cycles, bool long_intervals, bool intervals = true) {
    std::mt19937 rng(seed);
    Scenario s;
    s.end = cycles;
    s.per_cycle.assign(cycles, 0);
    const unsigned bit = mask_bit("global_power_events", "RUNNING");
    Cycle frontier = 0;
    while (frontier + 700 < cycles) {
        Outcome o = instruction(0x1000 + frontier, frontier + 50);
        const Cycle lo = frontier;
        const unsigned events = rng() % 4;
        for (unsigned i = 0; i < events; ++i) {
            const Cycle c = lo + rng() % 600;
            const unsigned n = 1 + rng() % (rng() % 8 == 0 ? 12 : 3);
            o.add_event(c, EventId::GlobalPowerEvents, bit, n);
            s.per_cycle[c] += n;
        }
        if (intervals && rng() % 3 == 0) {
            const Cycle b = lo + rng() % 300;
            Cycle len = 1 + rng() % 40;
            if (long_intervals && rng() % 40 == 0) len = 9000 + rng() % 3000;  // beyond the 8192-cycle window
            if (b + len > cycles) len = cycles - b;
            const unsigned p = 1 + rng() % 4;
            o.add_interval(b, b + len, EventId::GlobalPowerEvents, bit, p);
            for (Cycle c = b; c < b + len; ++c) s.per_cycle[c] += p;
        }
        frontier += rng() % 6;
        o.frontier = frontier;
        s.outcomes.push_back(o);
    }
    // Activity: two logical processors, changes every few hundred cycles.
    s.active.assign(cycles, 2);
    bool on[2] = {true, true};
    for (Cycle c = 50; c < cycles; c += 20 + rng() % 400) {
        const unsigned t = rng() % 2;
        on[t] = !on[t];
        s.changes.push_back({c, t, on[t]});
        for (Cycle x = c; x < cycles; ++x) s.active[x] = (on[0] ? 1u : 0u) + (on[1] ? 1u : 0u);
    }
    return s;
}

std::uint64_t reference(const Scenario& s, const CccrFields& f) {
    std::uint64_t count = 0;
    bool prev = false;
    for (Cycle c = 0; c < s.end; ++c) {
        const unsigned k = s.per_cycle[c] > 15 ? 15 : s.per_cycle[c];
        const unsigned a = s.active[c];
        const bool pass = f.active_thread == ActiveThread::None     ? a == 0
                          : f.active_thread == ActiveThread::Single ? a == 1
                          : f.active_thread == ActiveThread::Both   ? a == 2
                                                                    : a >= 1;
        if (!f.compare) {
            if (pass) count += k;
            continue;
        }
        const bool r = f.complement ? k <= f.threshold : k > f.threshold;
        if (pass && r && (!f.edge || !prev)) ++count;
        prev = r;
    }
    return count;
}

class PmuReference : public PmuTest {};

TEST_F(PmuReference, PerCycleEvaluationMatchesBruteForce) {
    PmuConfig ht = test_config();
    ht.machine.hyper_threading = true;
    unsigned cases = 0;
    for (unsigned seed = 1; seed <= 6; ++seed) {
        const Scenario s = make_scenario(seed, seed % 2 ? 6000 : 24000, seed % 2 == 0);
        for (ActiveThread mode : {ActiveThread::None, ActiveThread::Single, ActiveThread::Both, ActiveThread::Any}) {
            for (unsigned variant = 0; variant < 6; ++variant) {
                CccrFields f;
                f.active_thread = mode;
                f.compare = variant != 0;
                f.complement = variant == 2 || variant == 4;
                f.edge = variant >= 3;
                f.threshold = static_cast<std::uint8_t>(variant == 5 ? 0 : (seed * 3 + variant) % 8);
                if (!f.compare && mode == ActiveThread::Any) continue;  // the plain path, not this test's subject
                reset(ht);
                program(0, "FSB_ESCR0", "global_power_events", {"RUNNING"}, T0_USR, f);
                // Activity is reported as time advances, a little ahead of the closed cycles, as a driver does.
                std::size_t next_change = 0;
                auto report_until = [&](Cycle cycle) {
                    for (; next_change < s.changes.size() && s.changes[next_change].cycle <= cycle; ++next_change)
                        pmu->set_thread_active(s.changes[next_change].thread, s.changes[next_change].active,
                                               s.changes[next_change].cycle);
                };
                for (const Outcome& o : s.outcomes) {
                    report_until(o.frontier + 100);
                    feed(o);
                }
                report_until(s.end);
                EXPECT_EQ(counter(0, s.end), reference(s, f))
                    << "seed " << seed << " mode " << static_cast<int>(mode) << " compare " << f.compare
                    << " complement " << f.complement << " edge " << f.edge << " threshold " << int(f.threshold);
                ++cases;
            }
        }
    }
    EXPECT_GT(cases, 100u);
}

// The plain path (bulk adds) with the 4-bit cap over occurrences that arrive in several records and outcomes.
TEST_F(PmuReference, PlainPathMatchesBruteForceOnPointOccurrences) {
    for (unsigned seed = 11; seed <= 14; ++seed) {
        const Scenario s = make_scenario(seed, 20000, false, /*intervals=*/false);
        reset(test_config());
        program(0, "FSB_ESCR0", "global_power_events", {"RUNNING"}, T0_USR);
        for (const Outcome& o : s.outcomes) feed(o);
        std::uint64_t expected = 0;
        for (unsigned n : s.per_cycle) expected += n > 15 ? 15 : n;
        EXPECT_EQ(counter(0, s.end), expected) << "seed " << seed;
    }
}

}  // namespace
}  // namespace netburst::emu::test
