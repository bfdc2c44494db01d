#include "backend/topology.h"

#include <algorithm>
#include <hwloc.h>

#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst::component {

namespace {

struct TopologyHandle {
    hwloc_topology_t t = nullptr;
    ~TopologyHandle() {
        if (t) hwloc_topology_destroy(t);
    }
};

}  // namespace

const LogicalCpu* Topology::find(unsigned os_index) const {
    for (const LogicalCpu& c : cpus)
        if (c.os_index == os_index) return &c;
    return nullptr;
}

unsigned Topology::first_cpu_of_package(unsigned package) const {
    for (const LogicalCpu& c : cpus)  // ordered by os_index
        if (c.package == package) return c.os_index;
    return 0;
}

namespace {

unsigned find_counter(const char* name) {
    for (unsigned c = 0; c < kNumCounters; ++c)
        if (std::string(kCounters[c].counter_name) == name) return c;
    return kNumCounters;
}

}  // namespace

bool load_topology(const std::string& xml_path, Topology* out, std::string* error) {
    TopologyHandle h;
    if (hwloc_topology_init(&h.t) != 0) {
        *error = "hwloc could not initialise a topology";
        return false;
    }
    if (!xml_path.empty() && hwloc_topology_set_xml(h.t, xml_path.c_str()) != 0) {
        *error = "hwloc could not read the topology file " + xml_path;
        return false;
    }
    if (hwloc_topology_load(h.t) != 0) {
        *error = "hwloc could not load the machine's topology" +
                 (xml_path.empty() ? std::string() : " from " + xml_path);
        return false;
    }

    Topology t;
    for (hwloc_obj_t pu = hwloc_get_next_obj_by_type(h.t, HWLOC_OBJ_PU, nullptr); pu;
         pu = hwloc_get_next_obj_by_type(h.t, HWLOC_OBJ_PU, pu)) {
        LogicalCpu cpu;
        cpu.os_index = pu->os_index;
        hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(h.t, HWLOC_OBJ_PACKAGE, pu);
        cpu.package = package ? package->logical_index : 0;
        // The core's CPUs in OS order; without a core object (some XML files), the PU's parent groups them.
        hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(h.t, HWLOC_OBJ_CORE, pu);
        if (!core) core = pu->parent;
        const int weight = core ? hwloc_bitmap_weight(core->cpuset) : 1;
        if (weight > 2) {
            *error = "hwloc reports " + std::to_string(weight) + " logical processors in the core of CPU " +
                     std::to_string(cpu.os_index) + "; a NetBurst core has one or two";
            return false;
        }
        if (weight == 2) t.hyper_threading = true;
        cpu.thread = (core && static_cast<unsigned>(hwloc_bitmap_first(core->cpuset)) != cpu.os_index) ? 1 : 0;
        t.cpus.push_back(cpu);
    }
    if (t.cpus.empty()) {
        *error = "hwloc found no logical processors";
        return false;
    }
    std::sort(t.cpus.begin(), t.cpus.end(),
              [](const LogicalCpu& a, const LogicalCpu& b) { return a.os_index < b.os_index; });
    const int packages = hwloc_get_nbobjs_by_type(h.t, HWLOC_OBJ_PACKAGE);
    t.num_packages = packages > 0 ? static_cast<unsigned>(packages) : 1;
    t.has_l3 = hwloc_get_nbobjs_by_type(h.t, HWLOC_OBJ_L3CACHE) > 0;
    *out = std::move(t);
    return true;
}

namespace {

// The bit a register layout puts a single flag at, taken from the table's own encoders.
unsigned only_bit(std::uint64_t value) { return static_cast<unsigned>(__builtin_ctzll(value)); }

}  // namespace

ThreadRole thread_role(unsigned thread) {
    EscrFields usr, os;
    CccrFields pmi;
    (thread == 0 ? usr.t0_usr : usr.t1_usr) = true;
    (thread == 0 ? os.t0_os : os.t1_os) = true;
    (thread == 0 ? pmi.ovf_pmi_t0 : pmi.ovf_pmi_t1) = true;
    pmi.active_thread = ActiveThread::None;
    // PEBS: IQ_CCCR4 serves logical processor 0 and IQ_CCCR5 logical processor 1 (SDM 18.16.3).
    const unsigned pebs = find_counter("MSR_IQ_COUNTER4") + thread;
    return ThreadRole{only_bit(encode_escr(usr)), only_bit(encode_escr(os)), only_bit(encode_cccr(pmi)), pebs};
}

}  // namespace netburst::component
