// A count per instruction address and sampled event, for the sampler's exact per-instruction counts
// (address_table.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/protocol/program_file.h"
#include "emulator/sampling/address_table.h"

namespace netburst::emu::vg {

// One instruction's counts: the table's entry.
struct PcCount {
    std::uint64_t pc = 0;     // 0: empty (no instruction lives at address 0)
    std::uint64_t count[kMaxSampledEvents];  // per sampled event (SampleSpec::events' index); a key leaves it unset
    bool sampled = false;     // a sample named this address (its place in the source is wanted too)

    bool empty() const { return pc == 0; }
    bool same_key(const PcCount& e) const { return pc == e.pc; }
    void set_key(const PcCount& e) { pc = e.pc; }
    std::uint64_t key_hash() const { return pc; }
};

// The table itself (for_each, size and clear are AddressTable's).
class PcCounts : public AddressTable<PcCount> {
public:
    using Entry = PcCount;

    // False when memory runs out.
    bool init(Alloc alloc, Free release) { return AddressTable::init(alloc, release, 1024); }
    // The entry of `pc`, made when new; nullptr when pc is 0 or memory runs out.
    Entry* find_or_add(std::uint64_t pc) {
        Entry key;
        key.pc = pc;
        return AddressTable::find_or_add(key);
    }
    void add(std::uint64_t pc, unsigned event, std::uint64_t count) {
        if (Entry* e = find_or_add(pc)) e->count[event] += count;
    }
    void mark_sampled(std::uint64_t pc) {
        if (Entry* e = find_or_add(pc)) e->sampled = true;
    }
};

}  // namespace netburst::emu::vg
