#include "backend/errata.h"

namespace netburst::component {

Errata errata_for(unsigned model, unsigned stepping) {
    // No source narrows either erratum to particular models or steppings, so both apply to every NetBurst part;
    // the parameters are where a narrower rule would go.
    (void)model;
    (void)stepping;
    Errata e;
    constexpr unsigned kBrokenCounter = 1;
    e.unavailable_counters = counter_bit(kBrokenCounter);
    e.reason = std::string("counter ") + std::to_string(kBrokenCounter) + " (" + kCounters[kBrokenCounter].cccr_name +
               ") is never used: its Enable bit does not work (processor erratum)";
    e.write_counters_twice = true;
    return e;
}

}  // namespace netburst::component
