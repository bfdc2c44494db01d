// The component while PAPI has it initialised: the backend it counts through, the processor, the native events
// and the preset section. One per process, made by PAPI's init_component and dropped by shutdown_component.
#pragma once

#include <memory>

#include "backend/detect.h"
#include "component/glue_api.h"
#include "component/native_registry.h"
#include "component/preset_choice.h"

namespace netburst::component {

struct ComponentState {
    ComponentState(Detection d, PresetChoice p)
        : detection(std::move(d)), registry(detection.cpu.model), presets(std::move(p)) {}
    Detection detection;
    NativeRegistry registry;
    PresetChoice presets;

    Backend& backend() { return *detection.backend; }
    const CpuDescription& cpu() const { return detection.cpu; }
};

// The enabled component, or nullptr (not initialised, or disabled).
ComponentState* active_component();

// Detects the PMU through `sources` and, when there is one, makes the component active. Fills *info (the reason
// when disabled) and returns NB_STATUS_OK or NB_STATUS_DISABLED. fp_env is $PAPI_NETBURST_FP.
int initialize_component(const DetectionSources& sources, const char* fp_env, nb_component_info* info);
void shutdown_component();

}  // namespace netburst::component
