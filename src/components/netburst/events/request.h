// What the user asked for, once an event string has been parsed: one event or at-retirement metric, its masks,
// and its modifiers. The allocator turns requests into registers; canonical_name() turns them back into text.
#pragma once

#include <cstdint>
#include <string>

#include "table/events.h"
#include "table/metrics.h"

namespace netburst {

// Which privilege levels an ESCR counts: USR (CPL 1-3) and OS (CPL 0), as the T0/T1 USR and OS bits.
struct Privilege {
    bool user = true;
    bool kernel = true;
    bool operator==(const Privilege& o) const { return user == o.user && kernel == o.kernel; }
    bool operator!=(const Privilege& o) const { return !(*this == o); }
};

struct EventRequest {
    // Exactly one of event and metric is set. replay_event with a libpfm4 virtual mask (L1_LD_MISS, ...) parses
    // to its metric, since that is what it means.
    const EventDef* event = nullptr;
    const MetricDef* metric = nullptr;

    // For events: the ESCR event-mask bits. For metrics: bit 0 NBOGUS, bit 1 BOGUS.
    std::uint16_t mask = 0;

    // Execution tagging. For an upstream event (x87_FP_uop, ...): the ESCR tag value (TAGn masks set bit n), 0 when
    // it does not tag. For an execution metric: the tag bit the user pinned with :tag=N, or -1 to let the
    // allocator choose.
    std::uint8_t tag_value = 0;
    std::int8_t pinned_tag_bit = -1;

    // :u and :k. When neither is given, privilege_explicit is false and the caller's default domain applies.
    bool privilege_explicit = false;
    Privilege privilege;

    // CCCR filtering: :cmpl, :e and :thr=N each also set the compare bit.
    bool complement = false;
    bool edge = false;
    std::uint8_t threshold = 0;
    bool compare() const { return complement || edge || threshold != 0; }

    // libpfm4's :precise=N (N 0-3), or perf's :p, :pp, :ppp: sample by PEBS. On NetBurst PEBS has no skid at any
    // level, so every N > 0 asks for the same thing, precise = 1; the parser accepts it only for an event that can
    // drive PEBS. `precise_asked` is the level as written (perf.data's precise_ip), not part of the request.
    std::uint8_t precise = 0;
    std::uint8_t precise_asked = 0;

    bool is_metric() const { return metric != nullptr; }
    const char* base_name() const { return metric ? metric->name : event->name; }
};

// The one canonical spelling: the event or metric name as the table spells it, its masks in bit order (tag masks
// last), then :u, :k, :cmpl, :e, :thr=N and :tag=N where they apply. Parsing it yields an equal request.
std::string canonical_name(const EventRequest& request);

bool operator==(const EventRequest& a, const EventRequest& b);
inline bool operator!=(const EventRequest& a, const EventRequest& b) { return !(a == b); }

}  // namespace netburst
