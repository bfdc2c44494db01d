// Lookups over the event table (events_table.cpp).
#include "table/events.h"

#include "table/ascii.h"

namespace netburst {

const EventDef* find_event(const char* name, std::size_t len) {
    for (const EventDef& e : kEvents) {
        if (ascii_iequal_n(name, len, e.name)) return &e;
        if (e.alias && ascii_iequal_n(name, len, e.alias)) return &e;
    }
    return nullptr;
}

const MaskDef* find_mask(const EventDef& event, const char* name, std::size_t len) {
    for (unsigned i = 0; i < event.num_masks; ++i) {
        const MaskDef& mask = event.masks[i];
        if (ascii_iequal_n(name, len, mask.name)) return &mask;
        if (mask.alias && ascii_iequal_n(name, len, mask.alias)) return &mask;
    }
    return nullptr;
}

const MaskDef* mask_by_bit(const EventDef& event, unsigned bit) {
    for (unsigned i = 0; i < event.num_masks; ++i)
        if (event.masks[i].bit == bit) return &event.masks[i];
    return nullptr;
}

std::uint16_t default_mask_bits(const EventDef& event) {
    std::uint16_t bits = 0;
    for (unsigned i = 0; i < event.num_masks; ++i)
        if (event.masks[i].flags & kMaskDefault) bits = static_cast<std::uint16_t>(bits | (1u << event.masks[i].bit));
    return bits;
}

std::uint16_t valid_mask_bits(const EventDef& event) {
    std::uint16_t bits = 0;
    for (unsigned i = 0; i < event.num_masks; ++i) bits = static_cast<std::uint16_t>(bits | (1u << event.masks[i].bit));
    return bits;
}

bool scope_unverified(EventId id) {
    switch (id) {
    case EventId::ExecutionEvent:
    case EventId::X87Assist:
    case EventId::BranchRetired:
    case EventId::MispredBranchRetired:
    case EventId::UopsRetired:
    case EventId::InstrCompleted:
    case EventId::BsqActiveEntries:
    case EventId::B2bCycles:
    case EventId::Bnr:
    case EventId::Snoop:
    case EventId::Response: return true;
    default: return false;
    }
}

const EventDef* event_for_escr(EscrId escr, std::uint8_t event_select) {
    for (const EventDef& e : kEvents)
        if (e.event_select == event_select && (e.escrs[0] == escr || e.escrs[1] == escr)) return &e;
    return nullptr;
}

}  // namespace netburst
