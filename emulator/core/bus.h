// The way to memory: the bus sequence queue (BSQ) that holds L2 (or L3) misses, the in-order queue (IOQ) of
// transactions on the front-side bus, and the quad-pumped 64-bit data bus.
//
// Timing [ORM]: "on the order of 12 processor cycles to get to the bus and back within the processor, and 6-12
// bus cycles to access memory if there is no bus congestion". A read due to a cache miss fetches a sector pair
// (two adjacent 64-byte lines): we issue the demanded sector and then the adjacent one as a hardware prefetch,
// each a 64-byte transaction taking two bus clocks of data transfer. A write-back writes 64 bytes.
//
// Events. The IOQ/BSQ events select requests by attribute fields (type, length, memory type, own/other,
// prefetch) that one EventRecord mask bit cannot carry, so each request is one record whose bit names its kind
// (doc/emulator-coverage.md, "Bus request records"):
//   IOQ_allocation / IOQ_active_entries: 5 ALL_READ (demand read or read-for-ownership), 6 ALL_WRITE
//     (write-back), 15 PREFETCH (the adjacent sector). Every request is this processor's (OWN), write-back memory
//     (MEM_WB), default request type.
//   BSQ_allocation / BSQ_active_entries: 9 REQ_DEM_TYPE (demand read), 0 REQ_TYPE0 (read for ownership),
//     1 REQ_TYPE1 (write-back).
//   FSB_data_activity: DRDY_OWN / DBSY_OWN for data read by this processor, DRDY_DRV / DBSY_DRV for data it
//     writes.
#pragma once

#include <cstdint>

#include "emulator/core/core_config.h"
#include "emulator/core/ticks.h"
#include "emulator/core/event_sink.h"
#include "emulator/model/functional_sink.h"

namespace netburst::emu {

class Bus {
public:
    void reset(const CoreConfig& config);

    // Sink is EventSink (timing tier) or FunctionalSink (functional tier: requests are counted, nothing is timed,
    // the returned times are 0).
    //
    // A read (or read for ownership) of a sector pair that missed every cache, starting at `start`. Returns when
    // the demanded sector reaches the core; *adjacent when the other sector does.
    template <class Sink>
    Tick read(Tick start, bool for_ownership, Sink* out, Tick* adjacent);
    // A write-back of `sectors` dirty 64-byte sectors leaving the last-level cache at `start`.
    template <class Sink>
    void write_back(Tick start, unsigned sectors, Sink* out);

    std::uint64_t transactions() const { return transactions_; }
    template <class Hash>
    void hash_future(Hash* h) const {
        h->add_pool(bsq_free_, bsq_entries_);
        h->add_pool(ioq_free_, ioq_entries_);
        h->add_tick(data_bus_free_);
    }

private:
    static constexpr unsigned kMaxBsq = 32;
    static constexpr unsigned kMaxIoq = 16;

    // Earliest-free entry of a queue: returns its index and the tick it frees (entries are handed out in the
    // order requests are modelled, which is close to their time order).
    static unsigned earliest(const Tick* free, unsigned n);
    // One 64-byte transaction issued at or after `request`: the IOQ entry and the data transfer. Returns the
    // tick the transfer ends.
    template <class Sink>
    Tick transaction(Tick request, bool write, unsigned key_bit, Sink* out, Tick* xfer_start);
    void data_activity(Tick start, Tick end, unsigned sectors, bool write, EventSink* out);

    Tick bsq_free_[kMaxBsq];
    Tick ioq_free_[kMaxIoq];
    Tick data_bus_free_ = 0;
    unsigned bsq_entries_ = 16, ioq_entries_ = 8;
    Tick half_trip_ = 12;       // ticks, one way inside the processor
    Tick memory_ticks_ = 360;   // memory access
    Tick sector_ticks_ = 80;    // data transfer of 64 bytes
    Tick bus_clock_ticks_ = 40;
    std::uint64_t transactions_ = 0;
};

}  // namespace netburst::emu
