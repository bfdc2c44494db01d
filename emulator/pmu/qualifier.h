// Thread and privilege qualification of an ESCR (SDM Vol. 3B 18.15.3 and Tables 18-66/18-67; doc/emulator-pmu.md,
// "Detection and qualification"): which (logical processor, CPL) combinations make the ESCR's detector
// report an occurrence.
//
// The four combinations are numbered so that one ESCR's answer fits in four bits, computed once when software
// writes the ESCR and tested with one shift per occurrence:
//   index = thread * 2 + (cpl == 0)       0: T0 user, 1: T0 OS, 2: T1 user, 3: T1 OS
#pragma once

#include <cstdint>

#include "table/events.h"
#include "table/registers.h"

namespace netburst::emu {

constexpr unsigned qualifier_index(unsigned thread, unsigned cpl) { return (thread & 1u) * 2u + (cpl == 0 ? 1u : 0u); }

// Thread-specific (TS): only the bits of the logical processor that caused the occurrence count.
constexpr std::uint8_t accept_thread_specific(const EscrFields& f) {
    return static_cast<std::uint8_t>((f.t0_usr ? 1u : 0u) | (f.t0_os ? 2u : 0u) | (f.t1_usr ? 4u : 0u) |
                                     (f.t1_os ? 8u : 0u));
}

// Thread-independent (TI): the occurrence cannot be attributed to a logical processor, so it counts when any T bit
// of the matching privilege level is set, whichever logical processor happened to cause it.
constexpr std::uint8_t accept_thread_independent(const EscrFields& f) {
    const bool usr = f.t0_usr || f.t1_usr;
    const bool os = f.t0_os || f.t1_os;
    return static_cast<std::uint8_t>((usr ? 5u : 0u) | (os ? 10u : 0u));
}

// The qualification of one programmed ESCR for every mask bit of its event.
struct Qualifier {
    std::uint8_t ts = 0;        // accept bits for thread-specific mask bits
    std::uint8_t ti = 0;        // accept bits for thread-independent mask bits
    std::uint16_t ti_bits = 0;  // mask bits that are thread-independent (whole TI event, or kMaskThreadIndependent)

    bool accepts(unsigned mask_bit, unsigned q) const {
        const std::uint8_t accept = ((ti_bits >> mask_bit) & 1u) ? ti : ts;
        return (accept >> q) & 1u;
    }
    // For an occurrence that sets several mask bits at once (execution_event's tag bits).
    bool accepts_any(std::uint16_t bits, unsigned q) const {
        const std::uint8_t accept = (ti_bits & bits) ? ti : ts;
        return (accept >> q) & 1u;
    }
};

// Reads the TS/TI facts from the event table (Scope, and the per-mask kMaskThreadIndependent flag).
inline Qualifier make_qualifier(const EventDef& event, const EscrFields& f) {
    Qualifier q;
    q.ts = accept_thread_specific(f);
    q.ti = accept_thread_independent(f);
    if (event.scope == Scope::ThreadIndependent) {
        q.ti_bits = 0xFFFF;
    } else {
        for (unsigned i = 0; i < event.num_masks; ++i)
            if (event.masks[i].flags & kMaskThreadIndependent)
                q.ti_bits = static_cast<std::uint16_t>(q.ti_bits | (1u << event.masks[i].bit));
    }
    return q;
}

// The mask bits of `event` that the ESCR's event-mask field selects and that exist on `model`. Undocumented bits
// are reserved (SDM: "must be written as 0"); the detector reports nothing for them.
inline std::uint16_t effective_mask(const EventDef& event, std::uint16_t escr_mask, unsigned model) {
    std::uint16_t valid = 0;
    for (unsigned i = 0; i < event.num_masks; ++i)
        if (model_in(event.masks[i].models, model)) valid = static_cast<std::uint16_t>(valid | (1u << event.masks[i].bit));
    return static_cast<std::uint16_t>(escr_mask & valid);
}

}  // namespace netburst::emu
