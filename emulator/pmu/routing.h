// Which counters see an occurrence of (event, mask bit), precomputed from the ESCRs and CCCRs whenever software
// writes them, so that the feed looks an occurrence up instead of decoding registers: for each event, the counting
// counters whose selected ESCR detects it, with the ESCR's mask bits and thread/privilege qualification.
#pragma once

#include <cstdint>

#include "emulator/pmu/qualifier.h"
#include "table/events.h"
#include "table/msr_map.h"

namespace netburst::emu {

struct Route {
    std::uint8_t counter;
    std::uint16_t mask;  // the event-mask bits the counter's ESCR selects (valid ones only)
    Qualifier qualifier;
};

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
