// The call edges of one process image for `netburst-run record --callgrind`: per (call site, callee) pair, how many
// calls were made and what each sampled event cost while they were open, inclusive of everything they called (the
// exact count, and the samples taken). The shadow call stack (shadow_stack.h) adds a call's costs when the call
// returns, or when its thread or the image ends with the call still open. The table is address_table.h's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/protocol/program_file.h"
#include "emulator/sampling/address_table.h"

namespace netburst::emu::vg {

// What the recording's events cost over some stretch of a thread: per sampled event (SampleSpec::events, in the
// order of record's -e), its exact count and its samples. Fixed arrays, so that a frame holds one as plain data.
// The arithmetic covers the recording's `events` only, and the arrays have no initialiser (EventCosts{} is all
// zeros; a plain declaration leaves them unset): a call and its return are the hot path of the call edges, and
// zeroing the full width there would make one event's calls markedly slower than before there could be several.
struct EventCosts {
    std::uint64_t exact[kMaxSampledEvents];
    std::uint64_t samples[kMaxSampledEvents];

    bool zero(unsigned events) const {
        for (unsigned i = 0; i < events; ++i)
            if ((exact[i] | samples[i]) != 0) return false;
        return true;
    }
    // What came since `before` (the running costs only grow); the costs beyond `events` are left unset.
    EventCosts since(const EventCosts& before, unsigned events) const {
        EventCosts d;
        for (unsigned i = 0; i < events; ++i) {
            d.exact[i] = exact[i] - before.exact[i];
            d.samples[i] = samples[i] - before.samples[i];
        }
        return d;
    }
    // Element by element: the running costs were just written so, and a copy by wider moves would wait for those
    // stores to reach the cache (a store-forwarding stall on every call).
    void copy_from(const EventCosts& from, unsigned events) {
        for (unsigned i = 0; i < events; ++i) {
            exact[i] = from.exact[i];
            samples[i] = from.samples[i];
        }
    }
    void add(const EventCosts& more, unsigned events) {
        for (unsigned i = 0; i < events; ++i) {
            exact[i] += more.exact[i];
            samples[i] += more.samples[i];
        }
    }
};

// One (call site, callee) pair's calls and costs: the table's entry.
struct CallEdge {
    std::uint64_t site = 0;     // the call instruction's address (0: empty slot)
    std::uint64_t callee = 0;   // where the call went (shadow_stack.h: followed through a stub's jumps)
    std::uint64_t calls = 0;
    EventCosts costs;           // each event's exact count and samples while the calls were open (unset in a key)

    bool empty() const { return site == 0; }
    bool same_key(const CallEdge& e) const { return site == e.site && callee == e.callee; }
    void set_key(const CallEdge& e) {
        site = e.site;
        callee = e.callee;
    }
    // Both addresses: one site may call many callees (an indirect call) and the reverse.
    std::uint64_t key_hash() const { return site ^ (callee * 0xC2B2AE3D27D4EB4Full); }
};

// The table itself (for_each, size and clear are AddressTable's).
class CallEdges : public AddressTable<CallEdge> {
public:
    using Entry = CallEdge;

    // `events`: how many events the recording samples (each entry's costs beyond them stay 0). False when memory
    // runs out.
    bool init(Alloc alloc, Free release, unsigned events = 1) {
        events_ = events;
        return AddressTable::init(alloc, release, 256);
    }
    unsigned events() const { return events_; }
    // Adds to the edge site -> callee (made when new). Nothing to add, a site of 0 or no memory: nothing happens.
    void add(std::uint64_t site, std::uint64_t callee, std::uint64_t calls, const EventCosts& costs) {
        if (calls == 0 && costs.zero(events_)) return;
        Entry key;
        key.site = site;
        key.callee = callee;
        if (Entry* e = find_or_add(key)) {
            e->calls += calls;
            e->costs.add(costs, events_);
        }
    }

private:
    unsigned events_ = 1;
};

}  // namespace netburst::emu::vg
