#include "backend/cpu_probe.h"

#include <cstring>

#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>
#endif

namespace netburst::component {

CpuIdentity identify_cpu() {
    CpuIdentity id;
#if defined(__i386__) || defined(__x86_64__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return id;
    char vendor[13];
    std::memcpy(vendor, &ebx, 4);
    std::memcpy(vendor + 4, &edx, 4);
    std::memcpy(vendor + 8, &ecx, 4);
    vendor[12] = '\0';
    id.vendor = vendor;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return id;
    id.base_family = (eax >> 8) & 0xF;
    id.family = id.base_family == 0xF ? id.base_family + ((eax >> 20) & 0xFF) : id.base_family;
    id.model = (eax >> 4) & 0xF;
    id.stepping = eax & 0xF;
    id.known = true;
#endif
    return id;
}

bool is_netburst(const CpuIdentity& cpu) {
    return cpu.known && cpu.vendor == "GenuineIntel" && cpu.base_family == 0xF && cpu.family == 0xF;
}

std::string describe(const CpuIdentity& cpu) {
    if (!cpu.known) return "a processor without CPUID";
    return cpu.vendor + " family " + std::to_string(cpu.family) + " model " + std::to_string(cpu.model);
}

}  // namespace netburst::component
