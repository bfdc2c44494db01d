// `netburst-run record`: samples one event of a program on the emulated Pentium 4 and writes perf.data (and, on
// request, a callgrind-format file). See doc/netburst-run.md, "record", and doc/sampling.md.
#pragma once

namespace netburst::emu::run {

// argv[0] is "record"; returns the exit status (the program's, or 125-127 for netburst-run's own failures).
int record_main(int argc, char** argv);

}  // namespace netburst::emu::run
