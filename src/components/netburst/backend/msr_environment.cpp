#include "backend/msr_environment.h"

#include <cstdlib>
#include <string>

namespace netburst::component {

namespace {

const char* real_getenv(const char* name) { return std::getenv(name); }

// One decimal number in [0, limit]; advances *p past it.
bool parse_number(const char** p, unsigned limit, unsigned* out) {
    const char* s = *p;
    if (*s < '0' || *s > '9') return false;
    unsigned v = 0;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + static_cast<unsigned>(*s - '0');
        if (v > limit) return false;
        ++s;
    }
    *p = s;
    *out = v;
    return true;
}

}  // namespace

MsrEnvironment read_msr_environment(const char* (*get)(const char*)) {
    if (!get) get = real_getenv;
    MsrEnvironment env;

    const char* dir = get("PAPI_NETBURST_MSR_DEVICE_DIR");
    if (dir && *dir) {
        env.device_root = dir;
        env.fake_devices = true;
        env.rdpmc_allowed = false;
    }

    const char* rdpmc = get("PAPI_NETBURST_RDPMC");
    if (rdpmc && std::string(rdpmc) == "0") env.rdpmc_allowed = false;
    else if (rdpmc && *rdpmc && std::string(rdpmc) != "1")
        env.error = std::string("PAPI_NETBURST_RDPMC=") + rdpmc + " is neither 0 (pread only) nor 1 (RDPMC when allowed)";

    const char* assume = get("PAPI_NETBURST_ASSUME_CPU");
    if (assume && *assume) {
        const char* p = assume;
        const bool ok = parse_number(&p, 255, &env.family) && *p++ == ':' && parse_number(&p, 255, &env.model) &&
                        *p++ == ':' && parse_number(&p, 15, &env.stepping) && *p == '\0';
        if (!ok) {
            env.error = std::string("PAPI_NETBURST_ASSUME_CPU=") + assume +
                        " is not family:model:stepping in decimal (for example 15:2:9 for a Northwood)";
        } else if (!env.fake_devices) {
            env.error = std::string("PAPI_NETBURST_ASSUME_CPU=") + assume +
                        " is a test hook and needs PAPI_NETBURST_MSR_DEVICE_DIR (a directory of fake MSR device "
                        "files); it is never applied to the real /dev/cpu devices";
        } else {
            env.assume_cpu = true;
        }
    }
    return env;
}

}  // namespace netburst::component
