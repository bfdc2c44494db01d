#include "encode/unit_encoding.h"

#include "table/registers.h"

namespace netburst {

std::uint64_t escr_value(const EscrContent& c, ThreadSelect threads) {
    EscrFields f;
    const EventDef& event = event_def(c.event);
    f.event_select = event.event_select;
    f.event_mask = c.mask;
    f.tag_enable = c.tag_enable;
    f.tag_value = c.tag_value;
    if (threads != ThreadSelect::Thread1) {
        f.t0_usr = c.privilege.user;
        f.t0_os = c.privilege.kernel;
    }
    if (threads != ThreadSelect::Thread0) {
        f.t1_usr = c.privilege.user;
        f.t1_os = c.privilege.kernel;
    }
    return encode_escr(f);
}

std::uint64_t cccr_value(std::uint8_t escr_select, const CounterFilter& filter) {
    CccrFields f;
    f.enable = true;
    f.escr_select = escr_select;
    f.active_thread = ActiveThread::Any;
    f.compare = filter.compare;
    f.complement = filter.complement;
    f.edge = filter.edge;
    f.threshold = filter.threshold;
    return encode_cccr(f);
}

}  // namespace netburst
