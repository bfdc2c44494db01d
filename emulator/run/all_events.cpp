#include "emulator/run/all_events.h"

#include "emulator/model/coverage.h"
#include "table/cpu_model.h"
#include "table/events.h"
#include "table/metrics.h"

namespace netburst::emu::run {

std::vector<std::string> all_modelled_events(unsigned model) {
    std::vector<std::string> out;
    for (const EventDef& e : kEvents) {
        if (!event_on_model(e, model)) continue;
        std::string name = e.name;
        bool any = false;
        for (unsigned i = 0; i < e.num_masks; ++i) {
            const MaskDef& m = e.masks[i];
            if (!model_in(m.models, model) || coverage(e.id, m.bit) == Coverage::NotModelled) continue;
            name += std::string(":") + m.name;
            any = true;
        }
        if (any) out.push_back(name);
    }
    for (const MetricDef& m : kMetrics) out.emplace_back(m.name);
    return out;
}

}  // namespace netburst::emu::run
