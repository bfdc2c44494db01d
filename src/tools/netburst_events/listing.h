// Human-readable views of the table: the terminal listing of netburst-events and the Markdown reference that
// doc/reference/ is generated from.
#pragma once

#include <ostream>

namespace netburst::tools {

// Every event (those present on `model`, or all when model < 0) and metric, with masks, for a person.
void print_listing(std::ostream& out, int model);

// doc/reference/events.md, generated; a test keeps the committed copy identical to this output.
void print_markdown_reference(std::ostream& out);

}  // namespace netburst::tools
