#include "emulator/x86/opcode_table.h"

namespace netburst::emu::x86ops {

const OpcodeRow& opcode_row(const X86Decoded& d) {
    static const OpcodeMap* const kMaps[4] = {&kOneByteMap, &kTwoByteMap, &k0F38Map, &k0F3AMap};
    const OpcodeMap& map = *kMaps[d.map & 3];
    const unsigned end = map.start[d.op + 1];
    for (unsigned k = map.start[d.op]; k < end; ++k) {
        const OpcodeRow& row = map.rows[map.order[k]];
        if (row.covers(d)) return row;
    }
    return map.rows[map.count - 1];  // each map's last row covers every opcode
}

}  // namespace netburst::emu::x86ops
