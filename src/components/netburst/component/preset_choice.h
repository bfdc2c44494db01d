// Which section of the preset CSV the component loads: one per configuration, so PAPI's single preset table
// never sees two definitions of a preset (doc/presets.md). The L3 presets follow the processor; the FP presets'
// variant follows $PAPI_NETBURST_FP, and without it the floating point the programs linking this libpapi use by
// default (kDefaultFpVariant).
#pragma once

#include <string>

#include "presets/preset_table.h"

namespace netburst::component {

// The default FP variant is the compiler's default floating point for the libpapi's own word size, since the
// programs that link a libpapi are built for the same: SSE2 on x86-64, where the ABI passes and computes doubles in
// XMM registers, and x87 on i386, where gcc computes on the x87 stack unless told -mfpmath=sse (and a Pentium 4's
// 32-bit programs did so). A libpapi is one or the other, so the choice is made when it is compiled.
#if defined(__x86_64__)
constexpr FpVariant kDefaultFpVariant = FpVariant::Sse;
#elif defined(__i386__)
constexpr FpVariant kDefaultFpVariant = FpVariant::X87;
#else
// Other hosts build the component only for its unit tests and netburst-events; their programs are not x86.
constexpr FpVariant kDefaultFpVariant = FpVariant::Sse;
#endif

struct PresetChoice {
    FpVariant fp = kDefaultFpVariant;
    std::string section;  // the CSV's CPU line, e.g. "papi-netburst sse L3"
    std::string warning;  // set when $PAPI_NETBURST_FP held something else than a variant name
};

// fp_env is $PAPI_NETBURST_FP (nullptr or empty: the default, kDefaultFpVariant).
PresetChoice choose_presets(bool has_l3, const char* fp_env);

}  // namespace netburst::component
