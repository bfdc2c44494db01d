// Prints doc/emulator-coverage.md (make doc-coverage).
#include <cstdio>

#include "emulator/core/doc/coverage_markdown.h"

int main() {
    const std::string text = netburst::emu::coverage_markdown();
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}
