// Renders doc/emulator-coverage.md from the coverage table (core/coverage.cpp) and the hardware table. Hosted
// code (std::string): used by the doc-coverage generator and by the test that keeps the committed file current.
#pragma once

#include <string>

namespace netburst::emu {

std::string coverage_markdown();

}  // namespace netburst::emu
