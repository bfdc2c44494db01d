// The presets as netburst-events shows them: for a person (--presets), as Markdown (doc/reference/presets.md)
// and as PAPI CSV sections (--papi-csv, which the PAPI build appends to papi_events.csv).
#pragma once

#include <ostream>

namespace netburst::tools {

void print_preset_listing(std::ostream& out);
void print_preset_markdown(std::ostream& out);

}  // namespace netburst::tools
