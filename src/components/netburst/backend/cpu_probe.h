// Is this a NetBurst processor? CPUID vendor GenuineIntel with base family 0FH (SDM Vol. 2A, CPUID leaf 1). Used
// when the program does not run under the emulator; under Valgrind CPUID describes the host, which is why the
// emulator is asked first.
#pragma once

#include <string>

namespace netburst::component {

struct CpuIdentity {
    std::string vendor;     // "GenuineIntel", "AuthenticAMD", ...
    unsigned family = 0;    // base family (EAX[11:8]), plus the extended family when the base is 0FH
    unsigned base_family = 0;
    unsigned model = 0;     // base model; NetBurst has no extended model
    unsigned stepping = 0;
    bool known = false;     // false when CPUID is not available (not x86)
};

CpuIdentity identify_cpu();

// NetBurst: Intel, base family 0FH, extended family 0 (family 0FH with extended family 1 is Itanium 2 in IA-32 mode,
// and later x86 families report base family 6).
bool is_netburst(const CpuIdentity& cpu);

// "GenuineIntel family 6 model 85" for messages.
std::string describe(const CpuIdentity& cpu);

}  // namespace netburst::component
