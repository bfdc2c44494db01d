#include "component/preset_choice.h"

#include <strings.h>

namespace netburst::component {

PresetChoice choose_presets(bool has_l3, const char* fp_env) {
    PresetChoice choice;
    if (fp_env && *fp_env) {
        bool known = false;
        for (unsigned v = 0; v < kNumFpVariants; ++v) {
            if (strcasecmp(fp_env, fp_variant_name(static_cast<FpVariant>(v))) == 0) {
                choice.fp = static_cast<FpVariant>(v);
                known = true;
            }
        }
        if (!known) {
            choice.warning = std::string("PAPI_NETBURST_FP=") + fp_env + " is not one of";
            for (unsigned v = 0; v < kNumFpVariants; ++v)
                choice.warning += std::string(v ? ", " : " ") + fp_variant_name(static_cast<FpVariant>(v));
            choice.warning += std::string("; the FP presets count the default, ") + fp_variant_name(choice.fp);
        }
    }
    choice.section = preset_section_name(has_l3, choice.fp);
    return choice;
}

}  // namespace netburst::component
