// Which counters see an occurrence of (event, mask bit), precomputed from the ESCRs and CCCRs whenever software
// writes them, so that the feed looks an occurrence up instead of decoding registers: for each event, the counting
// counters whose selected ESCR detects it.
//
// Each route folds the ESCR's event mask and its thread/privilege qualification into one 64-bit matrix: bit
// (mask_bit * 4 + qualifier index) is set when the counter takes an occurrence of that mask bit from that
// logical processor and privilege level. Routing an occurrence is then one shift and one test.
#pragma once

#include <cstdint>

#include "emulator/pmu/qualifier.h"
#include "table/events.h"
#include "table/msr_map.h"

namespace netburst::emu {

struct Route {
    std::uint64_t accept;  // bit (mask_bit * 4 + q)
    std::uint8_t counter;

    bool takes(unsigned mask_bit, unsigned q) const { return (accept >> (mask_bit * 4 + q)) & 1u; }
};

// The accept matrix of an ESCR selecting `mask` with qualification `qualifier`.
inline std::uint64_t accept_matrix(std::uint16_t mask, const Qualifier& qualifier) {
    std::uint64_t m = 0;
    for (unsigned bit = 0; bit < 16; ++bit) {
        if (!((mask >> bit) & 1u)) continue;
        for (unsigned q = 0; q < 4; ++q)
            if (qualifier.accepts(bit, q)) m |= std::uint64_t{1} << (bit * 4 + q);
    }
    return m;
}

// The mask bits of an accept matrix that qualifier index q takes (for occurrences with several bits at once).
inline std::uint16_t accepted_bits(std::uint64_t accept, unsigned q) {
    std::uint16_t bits = 0;
    for (unsigned bit = 0; bit < 16; ++bit)
        if ((accept >> (bit * 4 + q)) & 1u) bits = static_cast<std::uint16_t>(bits | (1u << bit));
    return bits;
}

struct RouteList {
    unsigned count = 0;
    Route routes[kNumCounters];
};

class RouteTable {
public:
    void clear() {
        for (RouteList& l : lists_) l.count = 0;
    }
    void add(EventId event, const Route& route) {
        RouteList& l = lists_[static_cast<unsigned>(event)];
        if (l.count < kNumCounters) l.routes[l.count++] = route;
    }
    const RouteList& operator[](EventId event) const { return lists_[static_cast<unsigned>(event)]; }
    bool any(EventId event) const { return lists_[static_cast<unsigned>(event)].count != 0; }

private:
    RouteList lists_[kNumEvents];
};

}  // namespace netburst::emu
