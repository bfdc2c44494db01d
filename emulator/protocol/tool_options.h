/* The Valgrind tool's options that netburst-run and the tool share: their defaults. C and C++: the tool's C side
 * takes its defaults from here, and netburst-run passes each of these options explicitly. */
#ifndef NB_TOOL_OPTIONS_H
#define NB_TOOL_OPTIONS_H

/* --timer-tick: a thread's instructions between timer interrupts of the kernel model (emulator/valgrind/
 * kernel_model.h): Linux's usual 4 ms tick (HZ=250) on a 2.8 GHz Pentium 4 retiring about 0.7 instructions a
 * cycle. An order of magnitude, not a measurement: the instruction-based tick is the same in both tiers of the
 * emulator, which a cycle-based one would not be. A macro so that the tool's help text prints it. */
#define NB_DEFAULT_TIMER_TICK 8000000

/* --timing=sampled's schedule (emulator/pmu/sampled_counters.h): every NB_DEFAULT_SAMPLE_PERIOD program
 * instructions, NB_DEFAULT_SAMPLE_WARM of detailed warming and a measured unit of NB_DEFAULT_SAMPLE_UNIT. The
 * measurements behind the choice: doc/sampled-timing.md. */
#define NB_DEFAULT_SAMPLE_PERIOD 100000
#define NB_DEFAULT_SAMPLE_WARM 2000
#define NB_DEFAULT_SAMPLE_UNIT 1000
/* and the first NB_DEFAULT_SAMPLE_HEAD instructions after software reads or writes a counter run timed, so that
 * PAPI's short intervals are exact (doc/sampled-timing.md). */
#define NB_DEFAULT_SAMPLE_HEAD 20000

#ifdef __cplusplus
#include <cstdint>

namespace netburst::emu::vg {
constexpr std::uint64_t kDefaultTimerTick = NB_DEFAULT_TIMER_TICK;
constexpr std::uint64_t kDefaultSamplePeriod = NB_DEFAULT_SAMPLE_PERIOD;
constexpr std::uint64_t kDefaultSampleWarm = NB_DEFAULT_SAMPLE_WARM;
constexpr std::uint64_t kDefaultSampleUnit = NB_DEFAULT_SAMPLE_UNIT;
constexpr std::uint64_t kDefaultSampleHead = NB_DEFAULT_SAMPLE_HEAD;
}  // namespace netburst::emu::vg
#endif

#endif /* NB_TOOL_OPTIONS_H */
