#include "component/preset_choice.h"

namespace netburst::component {

PresetChoice choose_presets(bool has_l3, const char* fp_env) {
    PresetChoice choice;
    if (fp_env && *fp_env && !parse_fp_variant(fp_env, &choice.fp)) {
        choice.warning = std::string("PAPI_NETBURST_FP=") + fp_env + " is not one of";
        for (unsigned v = 0; v < kNumFpVariants; ++v)
            choice.warning += std::string(v ? ", " : " ") + fp_variant_name(static_cast<FpVariant>(v));
        choice.warning += std::string("; the FP presets count the default, ") + fp_variant_name(choice.fp);
    }
    choice.section = preset_section_name(has_l3, choice.fp);
    return choice;
}

}  // namespace netburst::component
