#include "emulator/core/bus.h"

namespace netburst::emu {

namespace {
constexpr unsigned kIoqRead = 5;       // ALL_READ
constexpr unsigned kIoqWrite = 6;      // ALL_WRITE
constexpr unsigned kIoqPrefetch = 15;  // PREFETCH
constexpr unsigned kBsqDemand = 9;     // REQ_DEM_TYPE
constexpr unsigned kBsqRfo = 0;        // REQ_TYPE0
constexpr unsigned kBsqWrite = 1;      // REQ_TYPE1
constexpr unsigned kDrdyDrv = 0, kDrdyOwn = 1, kDbsyDrv = 3, kDbsyOwn = 4;
}  // namespace

void Bus::reset(const CoreConfig& c) {
    bsq_entries_ = c.bsq_entries == 0 ? 1 : (c.bsq_entries > kMaxBsq ? kMaxBsq : c.bsq_entries);
    ioq_entries_ = c.ioq_entries == 0 ? 1 : (c.ioq_entries > kMaxIoq ? kMaxIoq : c.ioq_entries);
    half_trip_ = to_ticks(c.to_bus_cycles) / 2;
    bus_clock_ticks_ = to_ticks(c.bus_ratio == 0 ? 1 : c.bus_ratio);
    memory_ticks_ = c.memory_bus_clocks * bus_clock_ticks_;
    sector_ticks_ = c.sector_bus_clocks * bus_clock_ticks_;
    for (Tick& t : bsq_free_) t = 0;
    for (Tick& t : ioq_free_) t = 0;
    data_bus_free_ = 0;
    transactions_ = 0;
}

unsigned Bus::earliest(const Tick* free, unsigned n) {
    unsigned best = 0;
    for (unsigned i = 1; i < n; ++i)
        if (free[i] < free[best]) best = i;
    return best;
}

template <class Sink>
Tick Bus::transaction(Tick request, bool write, unsigned key_bit, Sink* out, Tick* xfer_start) {
    ++transactions_;
    Tick issue = 0, xfer = 0, end = 0;
    if constexpr (Sink::kTiming) {
        const unsigned q = earliest(ioq_free_, ioq_entries_);
        // Requests start on a bus clock edge.
        issue = max_tick(request, ioq_free_[q]);
        issue = (issue + bus_clock_ticks_ - 1) / bus_clock_ticks_ * bus_clock_ticks_;
        // Reads wait for memory; writes drive their data right after the request phase.
        const Tick data_ready = write ? issue + bus_clock_ticks_ : issue + memory_ticks_;
        xfer = max_tick(data_ready, data_bus_free_);
        end = xfer + sector_ticks_;
        data_bus_free_ = end;
        ioq_free_[q] = end;
    }
    out->event(to_cycle(issue), EventId::IoqAllocation, key_bit);
    if constexpr (Sink::kTiming) out->interval(to_cycle(issue), to_cycle(end), EventId::IoqActiveEntries, key_bit);
    *xfer_start = xfer;
    return end;
}

void Bus::data_activity(Tick start, Tick end, unsigned sectors, bool write, EventSink* out) {
    // DRDY for every data clock; DBSY for all but the last bus clock of each transfer. Back-to-back transfers
    // (the usual case) make one interval each, which keeps the records per Outcome few; otherwise the data
    // clocks are counted as if they had been contiguous at the end.
    const Tick length = sectors * sector_ticks_;
    if (end - start > length) start = end - length;
    out->interval(to_cycle(start), to_cycle(end), EventId::FsbDataActivity, write ? kDrdyDrv : kDrdyOwn);
    out->interval(to_cycle(start), to_cycle(end - bus_clock_ticks_), EventId::FsbDataActivity,
                  write ? kDbsyDrv : kDbsyOwn);
}

template <class Sink>
Tick Bus::read(Tick start, bool for_ownership, Sink* out, Tick* adjacent) {
    unsigned b = 0;
    Tick alloc = 0;
    if constexpr (Sink::kTiming) {
        b = earliest(bsq_free_, bsq_entries_);
        alloc = max_tick(start, bsq_free_[b]);
    }
    Tick first_xfer = 0, second_xfer = 0;
    const Tick demand_end = transaction(alloc + half_trip_, false, kIoqRead, out, &first_xfer);
    const Tick adjacent_end = transaction(alloc + half_trip_ + bus_clock_ticks_, false, kIoqPrefetch, out, &second_xfer);
    if constexpr (Sink::kTiming) {
        data_activity(first_xfer, adjacent_end, 2, false, out);
        bsq_free_[b] = adjacent_end + half_trip_;
    }
    const unsigned key = for_ownership ? kBsqRfo : kBsqDemand;
    out->event(to_cycle(alloc), EventId::BsqAllocation, key);
    if constexpr (!Sink::kTiming) {
        *adjacent = 0;
        return 0;
    } else {
        out->interval(to_cycle(alloc), to_cycle(bsq_free_[b]), EventId::BsqActiveEntries, key);
        *adjacent = adjacent_end + half_trip_;
        return demand_end + half_trip_;
    }
}

template <class Sink>
void Bus::write_back(Tick start, unsigned sectors, Sink* out) {
    unsigned b = 0;
    Tick alloc = 0;
    if constexpr (Sink::kTiming) {
        b = earliest(bsq_free_, bsq_entries_);
        alloc = max_tick(start, bsq_free_[b]);
    }
    Tick end = alloc, first_xfer = 0, xfer = 0;
    for (unsigned i = 0; i < sectors; ++i) {
        end = transaction(alloc + half_trip_ + i * bus_clock_ticks_, true, kIoqWrite, out, &xfer);
        if (i == 0) first_xfer = xfer;
    }
    if constexpr (Sink::kTiming) {
        if (sectors != 0) data_activity(first_xfer, end, sectors, true, out);
        bsq_free_[b] = end;
    }
    out->event(to_cycle(alloc), EventId::BsqAllocation, kBsqWrite);
    if constexpr (Sink::kTiming) out->interval(to_cycle(alloc), to_cycle(end), EventId::BsqActiveEntries, kBsqWrite);
}

// The two tiers.
template Tick Bus::read(Tick, bool, EventSink*, Tick*);
template Tick Bus::read(Tick, bool, FunctionalSink*, Tick*);
template void Bus::write_back(Tick, unsigned, EventSink*);
template void Bus::write_back(Tick, unsigned, FunctionalSink*);

}  // namespace netburst::emu
