// Which section of the preset CSV the component loads: one per configuration, so PAPI's single preset table
// never sees two definitions of a preset (doc/presets.md). The L3 presets follow the processor; the FP presets'
// variant follows $PAPI_NETBURST_FP.
#pragma once

#include <string>

#include "presets/preset_table.h"

namespace netburst::component {

struct PresetChoice {
    FpVariant fp = FpVariant::Sse;
    std::string section;  // the CSV's CPU line, e.g. "papi-netburst sse L3"
    std::string warning;  // set when $PAPI_NETBURST_FP held something else than a variant name
};

// fp_env is $PAPI_NETBURST_FP (nullptr or empty: the default, sse).
PresetChoice choose_presets(bool has_l3, const char* fp_env);

}  // namespace netburst::component
