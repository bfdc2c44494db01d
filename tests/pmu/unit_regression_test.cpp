// --timing=sampled's regression of a unit's events on its instructions and misses (emulator/pmu/unit_regression.h).
#include "emulator/pmu/unit_regression.h"

#include <gtest/gtest.h>

namespace netburst::emu {
namespace {

TEST(UnitRegression, RecoversACostPerInstructionAndPerMiss) {
    UnitRegression r;
    // Units of 1,000 instructions at 1.2 cycles each, plus 300 cycles per L2 miss and 10 per L1 miss.
    for (unsigned u = 0; u < 40; ++u) {
        const double aux[SampleAux::kCount] = {static_cast<double>(u % 8 == 0 ? 30 : 0), 0,
                                               static_cast<double>(u % 3), 0, 0, 0};
        r.add(1000, aux, 1200 + 300 * aux[0] + 10 * aux[2]);
    }
    ASSERT_TRUE(r.ready());
    const double stretch[SampleAux::kCount] = {100, 0, 50, 0, 0, 0};
    EXPECT_NEAR(r.predict(50000, stretch), 60000 + 30000 + 500, 1.0);
}

TEST(UnitRegression, NeverPredictsNegativeEvents) {
    UnitRegression r;
    for (unsigned u = 0; u < 40; ++u) {
        const double aux[SampleAux::kCount] = {static_cast<double>(u % 4), 0, 0, 0, 0, 0};
        r.add(1000, aux, 4000 - 1000 * aux[0]);  // a miss "saves" events: the fit's slope is negative
    }
    const double many[SampleAux::kCount] = {100, 0, 0, 0, 0, 0};
    EXPECT_EQ(r.predict(1000, many), 0);
}

TEST(UnitRegression, WaitsForEnoughUnits) {
    UnitRegression r;
    const double aux[SampleAux::kCount] = {};
    for (unsigned u = 0; u + 1 < UnitRegression::kMinUnits; ++u) r.add(1000, aux, 1000);
    EXPECT_FALSE(r.ready());
    r.add(1000, aux, 1000);
    EXPECT_TRUE(r.ready());
}

}  // namespace
}  // namespace netburst::emu
