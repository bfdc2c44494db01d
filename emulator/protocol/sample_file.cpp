#include "emulator/protocol/sample_file.h"

namespace netburst::emu::vg {

void append_text(TextWriter& w, const char* text) {
    // One line per record: a line break inside a name would start a record of its own.
    for (std::size_t i = 0; text && text[i] && i < SampleWriter::kMaxText; ++i)
        w.ch(text[i] == '\n' || text[i] == '\r' ? ' ' : text[i]);
}

}  // namespace netburst::emu::vg
