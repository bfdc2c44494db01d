// The call edges of one process image for `netburst-run record --callgrind`: per (call site, callee) pair, how many
// calls were made and what the sampled event cost while they were open, inclusive of everything they called (the
// exact count, and the samples taken). The shadow call stack (shadow_stack.h) adds a call's costs when the call
// returns, or when its thread or the image ends with the call still open. The table is address_table.h's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/valgrind/address_table.h"

namespace netburst::emu::vg {

class CallEdges {
public:
    struct Entry {
        std::uint64_t site = 0;     // the call instruction's address (0: empty slot)
        std::uint64_t callee = 0;   // where the call went (shadow_stack.h: followed through a stub's jumps)
        std::uint64_t calls = 0;
        std::uint64_t exact = 0;    // the exact count while the calls were open
        std::uint64_t samples = 0;  // samples taken while they were open

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
    void add(std::uint64_t site, std::uint64_t callee, std::uint64_t calls, std::uint64_t exact, std::uint64_t samples) {
        if ((calls | exact | samples) == 0) return;
        Entry key;
        key.site = site;
        key.callee = callee;
        if (Entry* e = table_.find_or_add(key)) {
            e->calls += calls;
            e->exact += exact;
            e->samples += samples;
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
