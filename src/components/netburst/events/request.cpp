// Canonical spelling and equality of parsed requests.
#include "events/request.h"

namespace netburst {

std::string canonical_name(const EventRequest& r) {
    std::string out = r.base_name();
    if (r.metric) {
        if (r.mask & 1) out += ":NBOGUS";
        if (r.mask & 2) out += ":BOGUS";
    } else {
        for (unsigned bit = 0; bit < 16; ++bit)
            if (r.mask & (1u << bit))
                if (const MaskDef* mask = mask_by_bit(*r.event, bit)) (out += ':') += mask->name;
        for (unsigned bit = 0; bit < kNumExecutionTagBits; ++bit)
            if (r.tag_value & (1u << bit)) out += ":TAG" + std::to_string(bit);
    }
    if (r.privilege_explicit) {
        if (r.privilege.user) out += ":u";
        if (r.privilege.kernel) out += ":k";
    }
    if (r.complement) out += ":cmpl";
    if (r.edge) out += ":e";
    if (r.threshold) out += ":thr=" + std::to_string(r.threshold);
    if (r.pinned_tag_bit >= 0) out += ":tag=" + std::to_string(r.pinned_tag_bit);
    if (r.precise) out += ":precise=" + std::to_string(r.precise);
    return out;
}

bool operator==(const EventRequest& a, const EventRequest& b) {
    return a.event == b.event && a.metric == b.metric && a.mask == b.mask && a.tag_value == b.tag_value &&
           a.pinned_tag_bit == b.pinned_tag_bit && a.privilege_explicit == b.privilege_explicit &&
           (!a.privilege_explicit || a.privilege == b.privilege) && a.complement == b.complement &&
           a.edge == b.edge && a.threshold == b.threshold && a.precise == b.precise;
}

}  // namespace netburst
