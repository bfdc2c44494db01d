// Logical CPU -> package and thread, from hwloc, on the synthetic topologies in tests/data/topology; and what the
// thread index decides in the registers.
#include <gtest/gtest.h>

#include "backend/topology.h"
#include "fake_machine.h"
#include "table/registers.h"

using namespace netburst;
using namespace netburst::component;
using netburst::component::test::topology_file;

TEST(Topology, TwoPackageHyperThreadedXeonNumberedTheLinuxWay) {
    Topology t;
    std::string error;
    ASSERT_TRUE(load_topology(topology_file("xeon-dp-2pkg-ht.xml"), &t, &error)) << error;
    ASSERT_EQ(t.cpus.size(), 4u);
    EXPECT_EQ(t.num_packages, 2u);
    EXPECT_TRUE(t.hyper_threading);
    EXPECT_FALSE(t.has_l3);
    // CPU 0 and 1 are the first logical processors of packages 0 and 1; CPU 2 and 3 the second ones.
    const unsigned package[] = {0, 1, 0, 1}, thread[] = {0, 0, 1, 1};
    for (unsigned cpu = 0; cpu < 4; ++cpu) {
        const LogicalCpu* c = t.find(cpu);
        ASSERT_TRUE(c) << cpu;
        EXPECT_EQ(c->package, package[cpu]) << cpu;
        EXPECT_EQ(c->thread, thread[cpu]) << cpu;
    }
    EXPECT_EQ(t.first_cpu_of_package(0), 0u);
    EXPECT_EQ(t.first_cpu_of_package(1), 1u);
    EXPECT_EQ(t.find(4), nullptr);
}

TEST(Topology, SinglePentium4AndXeonMpWithL3) {
    Topology p4, mp;
    std::string error;
    ASSERT_TRUE(load_topology(topology_file("pentium4-1pkg.xml"), &p4, &error)) << error;
    EXPECT_EQ(p4.cpus.size(), 1u);
    EXPECT_FALSE(p4.hyper_threading);
    EXPECT_EQ(p4.cpus[0].thread, 0u);
    ASSERT_TRUE(load_topology(topology_file("xeon-mp-l3-ht.xml"), &mp, &error)) << error;
    EXPECT_TRUE(mp.has_l3);
    EXPECT_TRUE(mp.hyper_threading);
    EXPECT_EQ(mp.num_packages, 1u);
    EXPECT_EQ(mp.find(1)->thread, 1u);
}

TEST(Topology, AMissingFileIsExplained) {
    Topology t;
    std::string error;
    EXPECT_FALSE(load_topology("/nonexistent/topology.xml", &t, &error));
    EXPECT_NE(error.find("/nonexistent/topology.xml"), std::string::npos) << error;
}

TEST(Topology, TheRunningMachineLoads) {
    Topology t;
    std::string error;
    // This machine is no Pentium 4, but hwloc must describe it; a core with more than two threads is refused.
    if (!load_topology("", &t, &error)) {
        EXPECT_NE(error.find("a NetBurst core has one or two"), std::string::npos) << error;
        return;
    }
    EXPECT_FALSE(t.cpus.empty());
}

TEST(Topology, TheThreadIndexChoosesT0OrT1BitsPmiAndPebsCounter) {
    const ThreadRole t0 = thread_role(0), t1 = thread_role(1);
    EscrFields f;
    f.t0_usr = true;
    EXPECT_EQ(encode_escr(f), 1ull << t0.usr_bit);
    EXPECT_EQ(t0.usr_bit, 2u);
    EXPECT_EQ(t0.os_bit, 3u);
    EXPECT_EQ(t1.usr_bit, 0u);
    EXPECT_EQ(t1.os_bit, 1u);
    EXPECT_EQ(t0.ovf_pmi_bit, 26u);
    EXPECT_EQ(t1.ovf_pmi_bit, 27u);
    EXPECT_EQ(t0.pebs_counter, 16u) << "IQ_COUNTER4 for logical processor 0";
    EXPECT_EQ(t1.pebs_counter, 17u) << "IQ_COUNTER5 for logical processor 1";
}
