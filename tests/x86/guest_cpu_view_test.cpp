// The guest's /proc/cpuinfo and /sys/devices/system/cpu (emulator/x86/guest_cpu_view.h): what they say must be
// what the guest's CPUID says (family, model, stepping, flags, topology), the model's clock, and the core model's
// caches (the machine description the emulator runs with).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "emulator/x86/guest_cpu_view.h"
#include "emulator/x86/guest_cpuid.h"
#include "emulator/x86/machine_info.h"

using namespace netburst::emu;
using namespace netburst::emu::vg;

namespace {

using Block = std::map<std::string, std::string>;

// The blocks of /proc/cpuinfo, one per processor: "key" -> "value" (the tabs before the colon dropped).
std::vector<Block> parse_cpuinfo(const std::string& text) {
    std::vector<Block> blocks;
    std::istringstream in(text);
    std::string line;
    Block current;
    while (std::getline(in, line)) {
        if (line.empty()) {
            if (!current.empty()) blocks.push_back(current);
            current.clear();
            continue;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        key.erase(key.find_last_not_of(" \t") + 1);
        std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
        current[key] = value;
    }
    if (!current.empty()) blocks.push_back(current);
    return blocks;
}

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& w) { return std::find(v.begin(), v.end(), w) != v.end(); }

std::string sys_file(const std::vector<GuestSysFile>& files, const std::string& path) {
    for (const GuestSysFile& f : files)
        if (f.path == path) return f.text;
    return "(no " + path + ")";
}

nb_emulator_info info(const EmulatedMachine& machine) {
    nb_emulator_info m;
    describe_machine(machine, &m);
    return m;
}

// Checks one processor's block against the guest's CPUID for that logical processor.
void expect_block_matches_cpuid(const Block& b, const EmulatedMachine& machine, unsigned lp) {
    const nb_emulator_info m = info(machine);
    const CpuidRegs leaf1 = guest_cpuid(m, lp, 1, 0);
    EXPECT_EQ(b.at("processor"), std::to_string(lp));
    EXPECT_EQ(b.at("vendor_id"), "GenuineIntel");
    EXPECT_EQ(b.at("cpu family"), std::to_string(leaf1.eax >> 8 & 0xF));
    EXPECT_EQ(b.at("cpu family"), "15");
    EXPECT_EQ(b.at("model"), std::to_string(leaf1.eax >> 4 & 0xF));
    EXPECT_EQ(b.at("model"), std::to_string(machine.model));
    EXPECT_EQ(b.at("stepping"), std::to_string(leaf1.eax & 0xF));
    EXPECT_EQ(b.at("cpuid level"), std::to_string(guest_cpuid(m, 0, 0, 0).eax));
    EXPECT_EQ(b.at("cpu MHz"), std::to_string(guest_cpu_mhz(machine.model)) + ".000");
    EXPECT_EQ(b.at("bogomips"), std::to_string(2 * guest_cpu_mhz(machine.model)) + ".00");
    EXPECT_EQ(b.at("clflush size"), "64");
    EXPECT_EQ(b.at("cache_alignment"), "128");
    // The kernel's "cache size" is the last level's: the core model's L2 here (no --l3).
    EXPECT_EQ(b.at("cache size"), std::to_string(m.l2_size / 1024) + " KB");

    // Each flag the kernel names for a bit is there exactly when the guest's CPUID sets that bit.
    const std::vector<std::string> flags = words(b.at("flags"));
    struct Bit {
        const char* name;
        std::uint32_t reg;
        unsigned bit;
    };
    const CpuidRegs ext = guest_cpuid(m, lp, 0x80000001, 0);
    const bool has_ext = guest_cpuid(m, 0, 0x80000000, 0).eax >= 0x80000001;
    for (const Bit& bit : {Bit{"fpu", leaf1.edx, 0}, Bit{"tsc", leaf1.edx, 4}, Bit{"cmov", leaf1.edx, 15},
                           Bit{"mmx", leaf1.edx, 23}, Bit{"sse", leaf1.edx, 25}, Bit{"sse2", leaf1.edx, 26},
                           Bit{"ht", leaf1.edx, 28}, Bit{"pni", leaf1.ecx, 0}, Bit{"monitor", leaf1.ecx, 3},
                           Bit{"est", leaf1.ecx, 7}, Bit{"cx16", leaf1.ecx, 13}, Bit{"ssse3", leaf1.ecx, 9},
                           Bit{"lm", has_ext ? ext.edx : 0, 29}, Bit{"nx", has_ext ? ext.edx : 0, 20},
                           Bit{"lahf_lm", has_ext ? ext.ecx : 0, 0}})
        EXPECT_EQ(has(flags, bit.name), (bit.reg >> bit.bit & 1) != 0) << bit.name;
    std::vector<std::string> sorted = flags;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "a flag twice: " << b.at("flags");
}

std::string brand_without_padding(unsigned model) {
    std::string brand = guest_cpu_identity(model)->brand;
    return brand.substr(brand.find_first_not_of(' '));
}

}  // namespace

TEST(GuestCpuView, Model2CpuinfoIsTheNorthwood) {
    const EmulatedMachine machine = EmulatedMachine{}.with_model(2);
    const std::vector<Block> blocks = parse_cpuinfo(guest_proc_cpuinfo(machine));
    ASSERT_EQ(blocks.size(), 1u);
    expect_block_matches_cpuid(blocks[0], machine, 0);
    EXPECT_EQ(blocks[0].at("model name"), "Intel(R) Pentium(R) 4 CPU 2.80GHz");
    EXPECT_EQ(blocks[0].at("model name"), brand_without_padding(2));
    EXPECT_EQ(blocks[0].at("stepping"), "9");
    EXPECT_EQ(blocks[0].at("cpu MHz"), "2800.000");
    EXPECT_EQ(blocks[0].at("cache size"), "512 KB");
    const std::vector<std::string> flags = words(blocks[0].at("flags"));
    EXPECT_TRUE(has(flags, "sse2"));
    EXPECT_FALSE(has(flags, "pni")) << "Northwood has no SSE3";
    EXPECT_FALSE(has(flags, "lm")) << "Northwood has no Intel 64";
    EXPECT_FALSE(has(flags, "ht")) << "HTT is set only with --ht";
    // One logical processor: a 2.6 kernel prints no topology lines.
    EXPECT_EQ(blocks[0].count("siblings"), 0u);
    EXPECT_EQ(blocks[0].at("address sizes"), "36 bits physical, 48 bits virtual");
}

TEST(GuestCpuView, Model2HtCpuinfoHasTwoSiblings) {
    const EmulatedMachine machine = EmulatedMachine{}.with_model(2).with_ht();
    const std::vector<Block> blocks = parse_cpuinfo(guest_proc_cpuinfo(machine));
    ASSERT_EQ(blocks.size(), 2u);
    for (unsigned lp = 0; lp < 2; ++lp) {
        expect_block_matches_cpuid(blocks[lp], machine, lp);
        EXPECT_EQ(blocks[lp].at("physical id"), "0");
        EXPECT_EQ(blocks[lp].at("siblings"), "2");
        EXPECT_EQ(blocks[lp].at("core id"), "0");
        EXPECT_EQ(blocks[lp].at("cpu cores"), "1");
        EXPECT_EQ(blocks[lp].at("apicid"), std::to_string(lp));
        EXPECT_TRUE(has(words(blocks[lp].at("flags")), "ht"));
    }
}

TEST(GuestCpuView, Model4HtCpuinfoIsThePrescott2M) {
    const EmulatedMachine machine = EmulatedMachine{}.with_model(4).with_ht();
    const std::vector<Block> blocks = parse_cpuinfo(guest_proc_cpuinfo(machine));
    ASSERT_EQ(blocks.size(), 2u);
    for (unsigned lp = 0; lp < 2; ++lp) {
        expect_block_matches_cpuid(blocks[lp], machine, lp);
        EXPECT_EQ(blocks[lp].at("model name"), "Intel(R) Pentium(R) 4 CPU 3.20GHz");
        EXPECT_EQ(blocks[lp].at("stepping"), "3");
        EXPECT_EQ(blocks[lp].at("cpu MHz"), "3200.000");
        EXPECT_EQ(blocks[lp].at("cache size"), "2048 KB");
        EXPECT_EQ(blocks[lp].at("siblings"), "2");
        EXPECT_EQ(blocks[lp].at("initial apicid"), std::to_string(lp));
        const std::vector<std::string> flags = words(blocks[lp].at("flags"));
        for (const char* f : {"pni", "monitor", "cx16", "lm", "nx", "ht", "est"}) EXPECT_TRUE(has(flags, f)) << f;
        for (const char* f : {"ssse3", "sse4_1", "popcnt", "avx", "lahf_lm"}) EXPECT_FALSE(has(flags, f)) << f;
        EXPECT_EQ(blocks[lp].at("address sizes"), "36 bits physical, 48 bits virtual");
    }
}

TEST(GuestCpuView, Model4WithoutHtIsOneProcessor) {
    const EmulatedMachine machine = EmulatedMachine{}.with_model(4);
    const std::vector<Block> blocks = parse_cpuinfo(guest_proc_cpuinfo(machine));
    ASSERT_EQ(blocks.size(), 1u);
    expect_block_matches_cpuid(blocks[0], machine, 0);
    EXPECT_FALSE(has(words(blocks[0].at("flags")), "ht"));
    const std::vector<GuestSysFile> sys = guest_sys_cpu(machine);
    EXPECT_EQ(sys_file(sys, "online"), "0\n");
    EXPECT_EQ(sys_file(sys, "cpu0/topology/thread_siblings_list"), "0\n");
    EXPECT_EQ(sys_file(sys, "cpu1/topology/core_id"), "(no cpu1/topology/core_id)");
}

TEST(GuestCpuView, EveryModelNamesItsBrandAndClock) {
    for (unsigned model : {0u, 1u, 2u, 3u, 4u, 6u}) {
        const EmulatedMachine machine = EmulatedMachine{}.with_model(model);
        const std::vector<Block> blocks = parse_cpuinfo(guest_proc_cpuinfo(machine));
        ASSERT_EQ(blocks.size(), 1u) << model;
        expect_block_matches_cpuid(blocks[0], machine, 0);
        EXPECT_EQ(blocks[0].at("model name"), brand_without_padding(model)) << model;
        EXPECT_NE(guest_cpu_mhz(model), 0u) << model;
    }
}

// The cache tree is the core model's caches: the L1 data cache and the L2 (leaf 4's sectors as lines).
TEST(GuestCpuView, Model2SysfsCachesAreTheCoreModels) {
    const EmulatedMachine machine = EmulatedMachine{}.with_model(2);
    const nb_emulator_info m = info(machine);
    const std::vector<GuestSysFile> sys = guest_sys_cpu(machine);
    EXPECT_EQ(sys_file(sys, "online"), "0\n");
    EXPECT_EQ(sys_file(sys, "possible"), "0\n");
    EXPECT_EQ(sys_file(sys, "present"), "0\n");
    EXPECT_EQ(sys_file(sys, "cpu0/topology/physical_package_id"), "0\n");
    EXPECT_EQ(sys_file(sys, "cpu0/topology/core_siblings"), "00000001\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index0/level"), "1\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index0/type"), "Data\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index0/size"), std::to_string(m.l1d_size / 1024) + "K\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index0/size"), "8K\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index0/ways_of_associativity"), std::to_string(m.l1d_ways) + "\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index0/number_of_sets"),
              std::to_string(m.l1d_size / m.l1d_ways / m.l1d_line) + "\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index1/level"), "2\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index1/type"), "Unified\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index1/size"), "512K\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index1/size"), std::to_string(m.l2_size / 1024) + "K\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index1/ways_of_associativity"), std::to_string(m.l2_ways) + "\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index1/coherency_line_size"), "64\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index1/physical_line_partition"), "2\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index1/shared_cpu_list"), "0\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cache/index2/level"), "(no cpu0/cache/index2/level)");
    EXPECT_EQ(sys_file(sys, "cpu0/cpufreq/cpuinfo_max_freq"), "2800000\n");
    EXPECT_EQ(sys_file(sys, "cpu0/cpufreq/cpuinfo_min_freq"), "2800000\n");
}

TEST(GuestCpuView, Model4HtSysfsHasTwoThreadsSharingTheCaches) {
    const EmulatedMachine machine = EmulatedMachine{}.with_model(4).with_ht();
    const nb_emulator_info m = info(machine);
    const std::vector<GuestSysFile> sys = guest_sys_cpu(machine);
    EXPECT_EQ(sys_file(sys, "online"), "0-1\n");
    EXPECT_EQ(sys_file(sys, "cpu1/online"), "1\n");
    for (const char* cpu : {"cpu0/", "cpu1/"}) {
        const std::string c = cpu;
        EXPECT_EQ(sys_file(sys, c + "topology/physical_package_id"), "0\n");
        EXPECT_EQ(sys_file(sys, c + "topology/core_id"), "0\n");
        EXPECT_EQ(sys_file(sys, c + "topology/thread_siblings"), "00000003\n");
        EXPECT_EQ(sys_file(sys, c + "topology/thread_siblings_list"), "0-1\n");
        EXPECT_EQ(sys_file(sys, c + "topology/core_siblings_list"), "0-1\n");
        EXPECT_EQ(sys_file(sys, c + "cache/index0/size"), "16K\n");
        EXPECT_EQ(sys_file(sys, c + "cache/index0/size"), std::to_string(m.l1d_size / 1024) + "K\n");
        EXPECT_EQ(sys_file(sys, c + "cache/index0/shared_cpu_list"), "0-1\n");
        EXPECT_EQ(sys_file(sys, c + "cache/index1/size"), "2048K\n");
        EXPECT_EQ(sys_file(sys, c + "cache/index1/shared_cpu_map"), "00000003\n");
        EXPECT_EQ(sys_file(sys, c + "cpufreq/cpuinfo_max_freq"), "3200000\n");
    }
}

TEST(GuestCpuView, L3IsTheCacheSizeWhenPresent) {
    const EmulatedMachine machine = EmulatedMachine{}.with_model(2).with_l3();
    const nb_emulator_info m = info(machine);
    const std::vector<Block> blocks = parse_cpuinfo(guest_proc_cpuinfo(machine));
    ASSERT_EQ(blocks.size(), 1u);
    EXPECT_EQ(blocks[0].at("cache size"), std::to_string(m.l3_size / 1024) + " KB");
    EXPECT_EQ(sys_file(guest_sys_cpu(machine), "cpu0/cache/index2/level"), "3\n");
}
