// The shape of a set-associative array sized from the configuration: the entries and ways asked for, held within
// the array's fixed capacity, with at least one way and one set.
#pragma once

namespace netburst::emu {

struct SetGeometry {
    unsigned sets;
    unsigned ways;
};

constexpr SetGeometry set_geometry(unsigned entries, unsigned ways, unsigned max_entries, unsigned max_ways) {
    if (entries > max_entries) entries = max_entries;
    if (ways > max_ways) ways = max_ways;
    if (ways == 0) ways = 1;
    const unsigned sets = entries / ways;
    return SetGeometry{sets == 0 ? 1 : sets, ways};
}

}  // namespace netburst::emu
