// Where an event set is to be counted: the CPU model, the logical processor, and what is already taken.
#pragma once

#include <cstdint>
#include <string>

#include "encode/unit_encoding.h"
#include "events/request.h"
#include "table/msr_map.h"

namespace netburst {

// A set of ESCRs as a bitmask over escr_index().
using EscrMask = std::uint64_t;
constexpr EscrMask escr_bit(EscrId id) { return EscrMask{1} << escr_index(id); }

// Resources held by someone else: the other logical processor of a Hyper-Threaded package, or (on real hardware)
// another tool. IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT are shared by the package, so a replay metric the other
// logical processor uses is fixed for this one too.
struct Occupancy {
    CounterMask counters = 0;
    EscrMask escrs = 0;
    bool replay_in_use = false;
    std::uint32_t pebs_enable = 0;
    std::uint32_t matrix_vert = 0;
};

struct AllocContext {
    unsigned model = kDefaultModel;
    // Hyper-Threading on: the package has two logical processors and `thread` (0 or 1) says which one this event
    // set is for. It selects the T0 or T1 bits of every ESCR. Without Hyper-Threading thread must be 0.
    bool hyper_threading = false;
    unsigned thread = 0;
    // Count the events of both logical processors (set T0 and T1 bits): the package-wide view. Only meaningful
    // with Hyper-Threading.
    bool both_threads = false;
    // The privilege levels of requests that name neither :u nor :k (PAPI's domain).
    Privilege default_privilege{};
    // Counters that must not be used at all (for example a counter the NMI watchdog owns).
    CounterMask unavailable_counters = 0;
    // ESCRs that must not be written: on real hardware, those feeding counters other software has enabled.
    EscrMask unavailable_escrs = 0;
    // Why the unavailable counters and ESCRs are unavailable, in words; conflict explanations quote it.
    std::string unavailable_reason;
    Occupancy sibling{};
};

// The counter that drives PEBS for a logical processor: IQ_COUNTER4 (16) for 0, IQ_COUNTER5 (17) for 1 (SDM
// 18.15.7, 18.16.3). One per logical processor, so one event at a time samples by PEBS.
constexpr unsigned pebs_counter(unsigned logical_processor) { return kPebsCounterThread0 + (logical_processor & 1); }

inline ThreadSelect thread_select(const AllocContext& ctx) {
    if (ctx.both_threads) return ThreadSelect::Both;
    return ctx.thread == 0 ? ThreadSelect::Thread0 : ThreadSelect::Thread1;
}

}  // namespace netburst
