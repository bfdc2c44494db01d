// netburst-msr-allowlist: prints the msr-safe allow-list of the NetBurst PMU registers for one processor model,
// from the hardware table (backend/msr_allowlist.h). `make msr-allowlists` writes data/msr-safe/al_0F_* with it.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend/msr_allowlist.h"
#include "table/cpu_model.h"

namespace {

int usage(FILE* out, int status) {
    std::fprintf(out,
                 "Usage: netburst-msr-allowlist --model N\n"
                 "       netburst-msr-allowlist --name N\n"
                 "Prints the msr-safe allow-list (MSR address, write mask) of the NetBurst performance-monitoring\n"
                 "registers of CPUID family 0FH model N (0-4 or 6), or with --name the file name msr-safe uses for\n"
                 "it. Load a list with: cat FILE > /dev/cpu/msr_allowlist\n");
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) return usage(stdout, 0);
    if (argc != 3 || (std::strcmp(argv[1], "--model") != 0 && std::strcmp(argv[1], "--name") != 0))
        return usage(stderr, 2);
    char* end = nullptr;
    const long model = std::strtol(argv[2], &end, 10);
    if (!*argv[2] || *end || model < 0 || model > 15 || !netburst::model_exists(static_cast<unsigned>(model))) {
        std::fprintf(stderr, "netburst-msr-allowlist: '%s' is not a NetBurst model (family 0FH models 0-4 and 6)\n",
                     argv[2]);
        return 2;
    }
    const auto m = static_cast<unsigned>(model);
    if (!std::strcmp(argv[1], "--name")) {
        std::printf("%s\n", netburst::component::msr_safe_allowlist_name(m).c_str());
        return 0;
    }
    const std::string text = netburst::component::format_msr_safe_allowlist(netburst::component::MsrAllowList(m));
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}
