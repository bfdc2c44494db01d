// Notes:
// - The format and each field's rule are Linux 2.6.32's (arch/x86/kernel/cpu/proc.c, common.c, intel.c,
//   intel_cacheinfo.c and drivers/base/topology.c), the kernel of the distributions that ran on these parts; the
//   values come from the guest's CPUID as that kernel reads them from the processor.
// - "physical id", "siblings", "core id", "cpu cores" and the APIC IDs are printed only when the package has more
//   than one logical processor (--ht), as that kernel did (x86_max_cores * smp_num_siblings > 1).
// - "cpu MHz" and bogomips: the model's nominal clock (guest_cpu_mhz, the rate of --clock=emulated). The kernel
//   calibrated the TSC to within a few hundredths of a MHz and derived bogomips from it (two loops a cycle); here
//   the clock is exact, so bogomips is twice the MHz.
// - Flags are only CPUID's bits: the kernel's synthetic flags (constant_tsc, pebs, bts, rep_good) are not added.
// - The cache tree is leaf 4's (guest_cache_parameters) on every model. Kernels listed it only for processors with
//   leaf 4 (models 3-6); models 0-2 get it too, so that hwloc and PAPI find their caches in the same place.
// - cpufreq: the emulated core has one clock, so its minimum, maximum and current frequency are the nominal one.
#include "emulator/x86/guest_cpu_view.h"

#include <cstdint>
#include <cstdio>

#include "emulator/x86/guest_cpuid.h"
#include "emulator/x86/machine_info.h"

namespace netburst::emu::vg {

namespace {

constexpr std::uint8_t kEcx = 2, kEdx = 3;

// Linux's name for a CPUID feature bit (2.6.32, arch/x86/include/asm/cpufeature.h), in the kernel's word order.
// Only the bits defined on the leaves a NetBurst part answers; a set bit without a name is not printed.
struct FlagName {
    std::uint32_t leaf;
    std::uint8_t reg;
    std::uint8_t bit;
    const char* name;
};
constexpr FlagName kFlagNames[] = {
    // Word 0: leaf 1 EDX
    {1, kEdx, 0, "fpu"}, {1, kEdx, 1, "vme"}, {1, kEdx, 2, "de"}, {1, kEdx, 3, "pse"}, {1, kEdx, 4, "tsc"},
    {1, kEdx, 5, "msr"}, {1, kEdx, 6, "pae"}, {1, kEdx, 7, "mce"}, {1, kEdx, 8, "cx8"}, {1, kEdx, 9, "apic"},
    {1, kEdx, 11, "sep"}, {1, kEdx, 12, "mtrr"}, {1, kEdx, 13, "pge"}, {1, kEdx, 14, "mca"}, {1, kEdx, 15, "cmov"},
    {1, kEdx, 16, "pat"}, {1, kEdx, 17, "pse36"}, {1, kEdx, 18, "pn"}, {1, kEdx, 19, "clflush"},
    {1, kEdx, 21, "dts"}, {1, kEdx, 22, "acpi"}, {1, kEdx, 23, "mmx"}, {1, kEdx, 24, "fxsr"}, {1, kEdx, 25, "sse"},
    {1, kEdx, 26, "sse2"}, {1, kEdx, 27, "ss"}, {1, kEdx, 28, "ht"}, {1, kEdx, 29, "tm"}, {1, kEdx, 30, "ia64"},
    {1, kEdx, 31, "pbe"},
    // Word 1: leaf 0x80000001 EDX (the bits that repeat leaf 1's are not named again)
    {0x80000001, kEdx, 11, "syscall"}, {0x80000001, kEdx, 19, "mp"}, {0x80000001, kEdx, 20, "nx"},
    {0x80000001, kEdx, 22, "mmxext"}, {0x80000001, kEdx, 25, "fxsr_opt"}, {0x80000001, kEdx, 26, "pdpe1gb"},
    {0x80000001, kEdx, 27, "rdtscp"}, {0x80000001, kEdx, 29, "lm"}, {0x80000001, kEdx, 30, "3dnowext"},
    {0x80000001, kEdx, 31, "3dnow"},
    // Word 4: leaf 1 ECX
    {1, kEcx, 0, "pni"}, {1, kEcx, 1, "pclmulqdq"}, {1, kEcx, 2, "dtes64"}, {1, kEcx, 3, "monitor"},
    {1, kEcx, 4, "ds_cpl"}, {1, kEcx, 5, "vmx"}, {1, kEcx, 6, "smx"}, {1, kEcx, 7, "est"}, {1, kEcx, 8, "tm2"},
    {1, kEcx, 9, "ssse3"}, {1, kEcx, 10, "cid"}, {1, kEcx, 12, "fma"}, {1, kEcx, 13, "cx16"}, {1, kEcx, 14, "xtpr"},
    {1, kEcx, 15, "pdcm"}, {1, kEcx, 18, "dca"}, {1, kEcx, 19, "sse4_1"}, {1, kEcx, 20, "sse4_2"},
    {1, kEcx, 21, "x2apic"}, {1, kEcx, 22, "movbe"}, {1, kEcx, 23, "popcnt"}, {1, kEcx, 25, "aes"},
    {1, kEcx, 26, "xsave"}, {1, kEcx, 27, "osxsave"}, {1, kEcx, 28, "avx"}, {1, kEcx, 31, "hypervisor"},
    // Word 6: leaf 0x80000001 ECX
    {0x80000001, kEcx, 0, "lahf_lm"}, {0x80000001, kEcx, 1, "cmp_legacy"}, {0x80000001, kEcx, 2, "svm"},
    {0x80000001, kEcx, 3, "extapic"}, {0x80000001, kEcx, 4, "cr8_legacy"}, {0x80000001, kEcx, 5, "abm"},
    {0x80000001, kEcx, 6, "sse4a"}, {0x80000001, kEcx, 7, "misalignsse"}, {0x80000001, kEcx, 8, "3dnowprefetch"},
    {0x80000001, kEcx, 9, "osvw"},
};

std::string format(const char* fmt, unsigned a, unsigned b = 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return buf;
}

void append4(std::string* s, std::uint32_t r) {
    for (int i = 0; i < 4; ++i) s->push_back(static_cast<char>(r >> (8 * i) & 0xFF));
}

// The identity fields of leaf 1 EAX, with the extended family and model as the kernel combines them.
struct Signature {
    unsigned family, model, stepping;
};
Signature signature(std::uint32_t eax) {
    Signature s{eax >> 8 & 0xF, eax >> 4 & 0xF, eax & 0xF};
    if (s.family == 0xF) s.family += eax >> 20 & 0xFF;
    if (s.family >= 6) s.model += (eax >> 16 & 0xF) << 4;
    return s;
}

// Leaves 0x80000002-4 without the leading blanks, which the kernel strips.
std::string brand_string(const nb_emulator_info& m) {
    std::string text;
    for (std::uint32_t leaf = 0x80000002; leaf <= 0x80000004; ++leaf) {
        const CpuidRegs r = guest_cpuid(m, 0, leaf, 0);
        for (std::uint32_t reg : {r.eax, r.ebx, r.ecx, r.edx}) append4(&text, reg);
    }
    text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
    const std::size_t first = text.find_first_not_of(' ');
    return first == std::string::npos ? std::string() : text.substr(first);
}

// One cache as leaf 4 describes it, decoded the way the kernel's cache tree does.
struct CacheLeaf {
    unsigned type, level, line, partitions, ways, sets, sharing;
    unsigned size() const { return line * partitions * ways * sets; }
};
std::vector<CacheLeaf> caches(const nb_emulator_info& m) {
    std::vector<CacheLeaf> out;
    for (std::uint32_t index = 0;; ++index) {
        const CpuidRegs r = guest_cache_parameters(m, index);
        if ((r.eax & 0x1F) == 0) return out;
        out.push_back({r.eax & 0x1F, r.eax >> 5 & 7, (r.ebx & 0xFFF) + 1, (r.ebx >> 12 & 0x3FF) + 1,
                       (r.ebx >> 22 & 0x3FF) + 1, r.ecx + 1, (r.eax >> 14 & 0xFFF) + 1});
    }
}

// The kernel's "cache size": the last level's size in KB (intel_cacheinfo: the L3 when there is one, else the L2).
unsigned cache_size_kb(const std::vector<CacheLeaf>& all) {
    unsigned kb = 0, level = 0;
    for (const CacheLeaf& c : all)
        if (c.type != 2 && c.level >= level) level = c.level, kb = c.size() / 1024;
    return kb;
}

// A CPU set of the first `n` logical processors, as sysfs prints masks (32-bit hex words) and lists.
std::string cpu_mask(unsigned n) { return format("%08x\n", (1u << n) - 1); }
std::string cpu_list(unsigned n) { return n == 1 ? "0\n" : format("0-%u\n", n - 1); }

nb_emulator_info describe(const EmulatedMachine& machine) {
    nb_emulator_info m;
    describe_machine(machine, &m);
    return m;
}

}  // namespace

std::vector<std::string> guest_cpu_flags(const nb_emulator_info& m) {
    std::vector<std::string> flags;
    for (const FlagName& f : kFlagNames)
        if (guest_has_feature(m, CpuidFeature{f.leaf, f.reg, f.bit})) flags.emplace_back(f.name);
    return flags;
}

std::string guest_proc_cpuinfo(const EmulatedMachine& machine) {
    const nb_emulator_info m = describe(machine);
    const CpuidRegs leaf0 = guest_cpuid(m, 0, 0, 0);
    std::string vendor;
    for (std::uint32_t reg : {leaf0.ebx, leaf0.edx, leaf0.ecx}) append4(&vendor, reg);
    const std::uint32_t max_extended = guest_cpuid(m, 0, 0x80000000, 0).eax;
    // Without leaf 0x80000008, the x86-64 kernel's defaults.
    const std::uint32_t sizes = max_extended >= 0x80000008 ? guest_cpuid(m, 0, 0x80000008, 0).eax : 48u << 8 | 36u;
    const unsigned mhz = guest_cpu_mhz(machine.model);
    const unsigned logical = machine.logical_processors();
    std::string flags;
    for (const std::string& f : guest_cpu_flags(m)) flags += (flags.empty() ? "" : " ") + f;

    std::string out;
    for (unsigned lp = 0; lp < logical; ++lp) {
        const CpuidRegs leaf1 = guest_cpuid(m, lp, 1, 0);
        const Signature sig = signature(leaf1.eax);
        const unsigned clflush = (leaf1.ebx >> 8 & 0xFF) * 8;
        const unsigned apic_id = leaf1.ebx >> 24;
        out += format("processor\t: %u\n", lp);
        out += "vendor_id\t: " + vendor + "\n";
        out += format("cpu family\t: %u\n", sig.family);
        out += format("model\t\t: %u\n", sig.model);
        out += "model name\t: " + brand_string(m) + "\n";
        out += format("stepping\t: %u\n", sig.stepping);
        out += format("cpu MHz\t\t: %u.%03u\n", mhz, 0);
        out += format("cache size\t: %u KB\n", cache_size_kb(caches(m)));
        if (logical > 1) {
            out += "physical id\t: 0\n";
            out += format("siblings\t: %u\n", logical);
            out += "core id\t\t: 0\n";
            out += "cpu cores\t: 1\n";
            out += format("apicid\t\t: %u\n", apic_id);
            out += format("initial apicid\t: %u\n", apic_id);
        }
        out += "fpu\t\t: yes\n";
        out += "fpu_exception\t: yes\n";
        out += format("cpuid level\t: %u\n", leaf0.eax);
        out += "wp\t\t: yes\n";
        out += "flags\t\t: " + flags + "\n";
        out += format("bogomips\t: %u.%02u\n", 2 * mhz, 0);
        out += format("clflush size\t: %u\n", clflush);
        // Family 15 on x86-64: twice the CLFLUSH line (intel.c), the L2's 128-byte line.
        out += format("cache_alignment\t: %u\n", sig.family == 15 ? 2 * clflush : clflush);
        out += format("address sizes\t: %u bits physical, %u bits virtual\n", sizes & 0xFF, sizes >> 8 & 0xFF);
        out += "power management:\n\n";
    }
    return out;
}

std::vector<GuestSysFile> guest_sys_cpu(const EmulatedMachine& machine) {
    const nb_emulator_info m = describe(machine);
    const unsigned logical = machine.logical_processors();
    const unsigned khz = guest_cpu_mhz(machine.model) * 1000;
    const std::vector<CacheLeaf> all = caches(m);
    static const char* const kCacheType[] = {"Null", "Data", "Instruction", "Unified"};

    std::vector<GuestSysFile> files = {
        {"online", cpu_list(logical)}, {"possible", cpu_list(logical)}, {"present", cpu_list(logical)},
        {"offline", "\n"},
    };
    for (unsigned lp = 0; lp < logical; ++lp) {
        const std::string cpu = "cpu" + std::to_string(lp) + "/";
        if (lp != 0) files.push_back({cpu + "online", "1\n"});  // the boot processor cannot be taken off line
        // One package of one core; with --ht its two logical processors are that core's threads.
        files.push_back({cpu + "topology/physical_package_id", "0\n"});
        files.push_back({cpu + "topology/core_id", "0\n"});
        for (const char* set : {"thread_siblings", "core_siblings"}) {
            files.push_back({cpu + "topology/" + set, cpu_mask(logical)});
            files.push_back({cpu + "topology/" + set + "_list", cpu_list(logical)});
        }
        for (std::size_t k = 0; k < all.size(); ++k) {
            const CacheLeaf& c = all[k];
            const std::string dir = cpu + "cache/index" + std::to_string(k) + "/";
            const unsigned sharing = c.sharing < logical ? c.sharing : logical;
            files.push_back({dir + "level", format("%u\n", c.level)});
            files.push_back({dir + "type", std::string(kCacheType[c.type & 3]) + "\n"});
            files.push_back({dir + "size", format("%uK\n", c.size() / 1024)});
            files.push_back({dir + "ways_of_associativity", format("%u\n", c.ways)});
            files.push_back({dir + "coherency_line_size", format("%u\n", c.line)});
            files.push_back({dir + "physical_line_partition", format("%u\n", c.partitions)});
            files.push_back({dir + "number_of_sets", format("%u\n", c.sets)});
            files.push_back({dir + "shared_cpu_map", sharing == 1 ? format("%08x\n", 1u << lp) : cpu_mask(sharing)});
            files.push_back({dir + "shared_cpu_list", sharing == 1 ? format("%u\n", lp) : cpu_list(sharing)});
        }
        for (const char* f : {"cpuinfo_min_freq", "cpuinfo_max_freq", "cpuinfo_cur_freq"})
            files.push_back({cpu + "cpufreq/" + f, format("%u\n", khz)});
    }
    return files;
}

}  // namespace netburst::emu::vg
