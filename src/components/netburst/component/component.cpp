#include "component/component.h"

#include <cstring>

namespace netburst::component {

namespace {

std::unique_ptr<ComponentState> g_component;

void copy_text(char* dst, std::size_t size, const std::string& text) {
    if (size == 0) return;
    const std::size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(dst, text.data(), n);
    dst[n] = '\0';
}

nb_cache_geometry to_c(const CacheGeometry& c) { return nb_cache_geometry{c.size, c.ways, c.line}; }

void describe_emulated_cpu(const CpuDescription& cpu, nb_emulated_cpu* out) {
    if (!cpu.emulated) return;
    out->emulated = 1;
    out->model = cpu.model;
    out->stepping = cpu.stepping;
    out->l1d = to_c(cpu.memory.l1d);
    out->l2 = to_c(cpu.memory.l2);
    out->l3 = to_c(cpu.memory.l3);
    out->trace_cache_uops = cpu.memory.trace_cache_uops;
    out->trace_cache_ways = cpu.memory.trace_cache_ways;
    out->itlb_entries = cpu.memory.itlb_entries;
    out->itlb_ways = cpu.memory.itlb_ways;
    out->dtlb_entries = cpu.memory.dtlb_entries;
}

}  // namespace

ComponentState* active_component() { return g_component.get(); }

int initialize_component(const DetectionSources& sources, const char* fp_env, nb_component_info* info) {
    std::memset(info, 0, sizeof *info);
    g_component.reset();
    Detection detection = detect_backend(sources);
    if (!detection.backend) {
        copy_text(info->disabled_reason, sizeof info->disabled_reason, detection.disabled_reason);
        return NB_STATUS_DISABLED;
    }
    PresetChoice presets = choose_presets(detection.cpu.has_l3, fp_env);
    g_component = std::make_unique<ComponentState>(std::move(detection), std::move(presets));
    copy_text(info->description, sizeof info->description, g_component->cpu().description);
    copy_text(info->preset_section, sizeof info->preset_section, g_component->presets.section);
    copy_text(info->preset_warning, sizeof info->preset_warning, g_component->presets.warning);
    info->num_native_events = g_component->registry.num_events();
    info->model = g_component->cpu().model;
    info->cpu_attach = g_component->cpu().cpu_attach ? 1 : 0;
    // The per-thread PMU only: a CPU-wide one would interrupt whichever thread runs when it overflows.
    if (g_component->cpu().per_thread_pmu) info->interrupt_signal = g_component->backend().interrupt_signal();
    copy_text(info->notes, sizeof info->notes, g_component->cpu().notes);
    describe_emulated_cpu(g_component->cpu(), &info->cpu);
    return NB_STATUS_OK;
}

void shutdown_component() { g_component.reset(); }

}  // namespace netburst::component
