// Which package and which hardware thread each logical CPU is, from hwloc.
//
// On a Hyper-Threaded Pentium 4 the two logical processors of a package share one PMU: every counter, CCCR and
// ESCR exists once per package, and the ESCR's T0_*/T1_* bits choose which logical processor's events it counts.
// So for each logical CPU the backend needs its package (which registers) and its thread index within the core
// (which bits). The thread index is the CPU's rank within its core by operating-system number: the first CPU of
// a core is thread 0, as in Linux's own P4 driver (the first CPU of the sibling mask).
//
// hwloc reads the running system, or an XML topology: $HWLOC_XMLFILE (hwloc's own variable) or an explicit path,
// which is how tests describe a two-package Hyper-Threaded Xeon on a machine that is neither.
#pragma once

#include <string>
#include <vector>

namespace netburst::component {

struct LogicalCpu {
    unsigned os_index = 0;  // the N of /dev/cpu/N
    unsigned package = 0;   // hwloc's logical index of the package, 0-based and dense
    unsigned thread = 0;    // 0 or 1: the logical processor within the package's core
};

struct Topology {
    std::vector<LogicalCpu> cpus;  // ordered by os_index
    unsigned num_packages = 0;
    bool hyper_threading = false;  // some core has two logical processors
    bool has_l3 = false;           // hwloc found an L3 cache (Xeon MP, Pentium 4 Extreme Edition)

    const LogicalCpu* find(unsigned os_index) const;
    // The lowest-numbered CPU of a package: the one whose device saves and restores the package's registers.
    unsigned first_cpu_of_package(unsigned package) const;
};

// Loads the topology (from xml_path when not empty). On failure returns false and says why in *error.
bool load_topology(const std::string& xml_path, Topology* out, std::string* error);

// What a logical processor's thread index decides in the PMU registers (SDM Vol. 3B 18.15.4, 18.16):
struct ThreadRole {
    unsigned usr_bit;        // ESCR T0_USR (2) or T1_USR (0)
    unsigned os_bit;         // ESCR T0_OS (3) or T1_OS (1)
    unsigned ovf_pmi_bit;    // CCCR OVF_PMI_T0 (26) or OVF_PMI_T1 (27)
    unsigned pebs_counter;   // IQ_COUNTER4 (16) for logical processor 0, IQ_COUNTER5 (17) for 1
};
ThreadRole thread_role(unsigned thread);

}  // namespace netburst::component
