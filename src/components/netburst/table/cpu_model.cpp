#include "table/cpu_model.h"

namespace netburst {

const char* model_codename(unsigned model) {
    switch (model) {
    case 0:
    case 1: return "Willamette/Foster";
    case 2: return "Northwood/Prestonia/Gallatin";
    case 3: return "Prescott/Nocona";
    case 4: return "Prescott-2M/Smithfield/Irwindale/Potomac";
    case 6: return "Cedar Mill/Presler/Dempsey";
    default: return "not a NetBurst model";
    }
}

void format_model_set(ModelSet set, char* buf, unsigned buf_size) {
    if (buf_size == 0) return;
    unsigned pos = 0;
    for (unsigned m = 0; m < 8; ++m) {
        if (!model_in(set, m)) continue;
        if (pos != 0 && pos + 2 < buf_size) {
            buf[pos++] = ',';
            buf[pos++] = ' ';
        }
        if (pos + 1 < buf_size) buf[pos++] = static_cast<char>('0' + m);
    }
    buf[pos < buf_size ? pos : buf_size - 1] = '\0';
}

}  // namespace netburst
