// A count per instruction address and sampled event, for the sampler's exact per-instruction counts
// (address_table.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/protocol/program_file.h"
#include "emulator/sampling/address_table.h"

namespace netburst::emu::vg {

class PcCounts {
public:
    struct Entry {
        std::uint64_t pc = 0;     // 0: empty (no instruction lives at address 0)
        std::uint64_t count[kMaxSampledEvents];  // per sampled event (SampleSpec::events' index); a key leaves it unset
        bool sampled = false;     // a sample named this address (its place in the source is wanted too)

        bool empty() const { return pc == 0; }
        bool same_key(const Entry& e) const { return pc == e.pc; }
        void set_key(const Entry& e) { pc = e.pc; }
        std::uint64_t key_hash() const { return pc; }
    };
    using Alloc = AddressTable<Entry>::Alloc;
    using Free = AddressTable<Entry>::Free;

    // False when memory runs out.
    bool init(Alloc alloc, Free release) { return table_.init(alloc, release, 1024); }
    void clear() { table_.clear(); }
    // The entry of `pc`, made when new; nullptr when pc is 0 or memory runs out.
    Entry* find_or_add(std::uint64_t pc) {
        Entry key;
        key.pc = pc;
        return table_.find_or_add(key);
    }
    void add(std::uint64_t pc, unsigned event, std::uint64_t count) {
        if (Entry* e = find_or_add(pc)) e->count[event] += count;
    }
    void mark_sampled(std::uint64_t pc) {
        if (Entry* e = find_or_add(pc)) e->sampled = true;
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
