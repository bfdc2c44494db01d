// The PAPI presets on NetBurst: one table from which the component's section of PAPI's preset CSV, the preset
// reference (doc/reference/presets.md) and netburst-run's -e PAPI_* are all generated.
//
// Each recipe is written to count what the preset means, from the SDM event that measures it; the `why` text says
// how, and `fixes` what PAPI's own `CPU,netburst` line got wrong.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace netburst {

// PAPI's derivation types for presets (papi_internal.h). Cmpd: PAPI counts several native events and reports the
// first; the others only set up tagging.
enum class PresetDerivation : std::uint8_t { NotDerived, Add, Sub, Cmpd };
const char* papi_derivation_name(PresetDerivation d);

// Variants of the FP presets: the two FIRM ESCRs hold two upstream event kinds per logical processor, so the FP
// presets must choose which kinds they count (PAPI 3 chose with $PAPI_PENTIUM4_FP; we choose with
// $PAPI_NETBURST_FP).
enum class FpVariant : std::uint8_t { Sse, X87, X87SseDp };
// Without $PAPI_NETBURST_FP, the floating point a program of that word size does by default: SSE2 on x86-64, where
// the ABI passes and computes doubles in XMM registers, and x87 on i386, where gcc computes on the x87 stack unless
// told -mfpmath=sse (as a Pentium 4's 32-bit programs did). The component asks for its own build's word size,
// netburst-run for the program's (its ELF class).
constexpr FpVariant default_fp_variant(bool i386) { return i386 ? FpVariant::X87 : FpVariant::Sse; }
constexpr unsigned kNumFpVariants = 3;
const char* fp_variant_name(FpVariant v);  // "sse", "x87", "x87_sse_dp"
// The variant `text` names, in any case, as $PAPI_NETBURST_FP spells it; false when it names none.
bool parse_fp_variant(const char* text, FpVariant* out);

struct PresetDef {
    const char* name;  // PAPI_TOT_CYC
    PresetDerivation derivation;
    std::vector<const char*> terms;  // native events in canonical spelling, as the component names them
    const char* note;                // PAPI NOTE (papi_avail -d), or nullptr; no commas (PAPI splits CSV lines at every comma)
    const char* why;                 // why this recipe counts what the preset means
    const char* sdm;                 // the SDM table(s) the native events come from
    const char* fixes;               // what PAPI's own CPU,netburst line got wrong, or nullptr
    bool needs_l3 = false;           // only on processors with an L3 (Xeon MP)
    bool fp_dependent = false;       // the recipe depends on the FP variant (terms given for kFpSse here)
};

// The presets for one configuration: the base table, the L3 presets when with_l3, and the FP presets of `fp`.
std::vector<PresetDef> presets_for(bool with_l3, FpVariant fp);
// All presets of every configuration, for the documentation (FP presets once per variant).
std::vector<std::pair<PresetDef, FpVariant>> all_preset_variants();

// The name of the CSV section (the "CPU," line) for a configuration, e.g. "papi-netburst sse L3".
std::string preset_section_name(bool with_l3, FpVariant fp);

// PAPI CSV text: every section, one per configuration, ready to append to papi_events.csv.
std::string papi_csv_sections();

const PresetDef* find_preset(const std::vector<PresetDef>& table, const std::string& name);

}  // namespace netburst
