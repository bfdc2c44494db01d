// Time inside the core model. The double-speed ALUs of NetBurst finish a simple integer uop in half a core clock,
// so the timing model counts in half cycles ("ticks"); everything the PMU sees is in whole cycles.
#pragma once

#include <cstdint>

#include "emulator/model/outcome.h"

namespace netburst::emu {

using Tick = std::uint64_t;

constexpr Tick kTicksPerCycle = 2;
constexpr Tick to_ticks(Cycle c) { return c * kTicksPerCycle; }
// The cycle a tick falls in.
constexpr Cycle to_cycle(Tick t) { return t / kTicksPerCycle; }
// The first cycle boundary at or after t.
constexpr Cycle ceil_cycle(Tick t) { return (t + kTicksPerCycle - 1) / kTicksPerCycle; }

constexpr Tick max_tick(Tick a, Tick b) { return a > b ? a : b; }
constexpr Tick min_tick(Tick a, Tick b) { return a < b ? a : b; }
constexpr Cycle max_cycle(Cycle a, Cycle b) { return a > b ? a : b; }
constexpr Cycle min_cycle(Cycle a, Cycle b) { return a < b ? a : b; }

// The sixteen general registers in a RegMask (the registers addresses are formed from).
constexpr std::uint64_t kGprMask = 0xFFFF;

// The first time at or after `target` at which a uop that executed at `start` and goes round the replay loop
// every `loop` ticks comes round.
constexpr Tick replay_until(Tick start, Tick target, Tick loop) {
    return target <= start ? start : start + (target - start + loop - 1) / loop * loop;
}

}  // namespace netburst::emu
