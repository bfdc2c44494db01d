// Which section of the preset CSV the component loads: one per configuration, so PAPI's single preset table
// never sees two definitions of a preset (doc/presets.md). The L3 presets follow the processor; the FP presets'
// variant follows $PAPI_NETBURST_FP, and without it the floating point the programs linking this libpapi use by
// default (kDefaultFpVariant).
#pragma once

#include <string>

#include "presets/preset_table.h"

namespace netburst::component {

// The default FP variant follows what this libpapi is compiled for (default_fp_variant): the programs that link a
// libpapi are built for the same. Hosts other than x86 build the component only for its unit tests and
// netburst-events, and take x86-64's.
#if defined(__i386__)
constexpr FpVariant kDefaultFpVariant = default_fp_variant(true);
#else
constexpr FpVariant kDefaultFpVariant = default_fp_variant(false);
#endif

struct PresetChoice {
    FpVariant fp = kDefaultFpVariant;
    std::string section;  // the CSV's CPU line, e.g. "papi-netburst sse L3"
    std::string warning;  // set when $PAPI_NETBURST_FP held something else than a variant name
};

// fp_env is $PAPI_NETBURST_FP (nullptr or empty: the default, kDefaultFpVariant).
PresetChoice choose_presets(bool has_l3, const char* fp_env);

}  // namespace netburst::component
