// The call edges of one process image for `netburst-run record --callgrind`: per (call site, callee) pair, how many
// calls were made and what each sampled event cost while they were open, inclusive of everything they called (the
// exact count, and the samples taken). The shadow call stack (shadow_stack.h) adds a call's costs when the call
// returns, or when its thread or the image ends with the call still open. The table is address_table.h's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/valgrind/address_table.h"
#include "emulator/valgrind/program_file.h"

namespace netburst::emu::vg {

// What the recording's events cost over some stretch of a thread: per sampled event (SampleSpec::events, in the
// order of record's -e), its exact count and its samples. Fixed arrays: the shadow stack copies one per call.
struct EventCosts {
    std::uint64_t exact[kMaxSampledEvents] = {};
    std::uint64_t samples[kMaxSampledEvents] = {};

    bool zero() const {
        for (unsigned i = 0; i < kMaxSampledEvents; ++i)
            if ((exact[i] | samples[i]) != 0) return false;
        return true;
    }
    // What came since `before` (the running costs only grow).
    EventCosts since(const EventCosts& before) const {
        EventCosts d;
        for (unsigned i = 0; i < kMaxSampledEvents; ++i) {
            d.exact[i] = exact[i] - before.exact[i];
            d.samples[i] = samples[i] - before.samples[i];
        }
        return d;
    }
    void add(const EventCosts& more) {
        for (unsigned i = 0; i < kMaxSampledEvents; ++i) {
            exact[i] += more.exact[i];
            samples[i] += more.samples[i];
        }
    }
};

class CallEdges {
public:
    struct Entry {
        std::uint64_t site = 0;     // the call instruction's address (0: empty slot)
        std::uint64_t callee = 0;   // where the call went (shadow_stack.h: followed through a stub's jumps)
        std::uint64_t calls = 0;
        EventCosts costs;           // each event's exact count and samples while the calls were open

        bool empty() const { return site == 0; }
        bool same_key(const Entry& e) const { return site == e.site && callee == e.callee; }
        // Both addresses: one site may call many callees (an indirect call) and the reverse.
        std::uint64_t key_hash() const { return site ^ (callee * 0xC2B2AE3D27D4EB4Full); }
    };
    using Alloc = AddressTable<Entry>::Alloc;
    using Free = AddressTable<Entry>::Free;

    // False when memory runs out.
    bool init(Alloc alloc, Free release) { return table_.init(alloc, release, 256); }
    void clear() { table_.clear(); }
    // Adds to the edge site -> callee (made when new). Nothing to add, a site of 0 or no memory: nothing happens.
    void add(std::uint64_t site, std::uint64_t callee, std::uint64_t calls, const EventCosts& costs) {
        if (calls == 0 && costs.zero()) return;
        Entry key;
        key.site = site;
        key.callee = callee;
        if (Entry* e = table_.find_or_add(key)) {
            e->calls += calls;
            e->costs.add(costs);
        }
    }
    template <typename Fn>
    void for_each(Fn fn) const {
        table_.for_each(fn);
    }
    std::size_t size() const { return table_.size(); }

private:
    AddressTable<Entry> table_;
};

}  // namespace netburst::emu::vg
