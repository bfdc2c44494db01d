// netburst-run record's files: the tool's samples file read into a Profile, the exact-count table, and the
// perf.data and callgrind writers, read back by the layouts perf and callgrind_annotate expect (the end-to-end
// check with the real tools is tests/integration/record_test.cpp).
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <iterator>
#include <thread>
#include <vector>

#include "emulator/run/callgrind_out.h"
#include "emulator/run/perf_data.h"
#include "emulator/run/sample_input.h"
#include "emulator/sampling/pc_counts.h"

using namespace netburst;
using namespace netburst::emu;
using namespace netburst::emu::run;

namespace {

const char kSamples[] =
    "netburst-samples 3\nevents 1\n"
    "process 100 /opt/app/bin/a-very-long-program-name\n"
    "kernel 0xffffffff81000000 0xffffffff82000000\n"
    "p 0 100 5000 0x401000 0x601760\n"
    "p 0 101 6000 0x401000 0x603760\n"
    "i 0 100 7000 0x401010\n"
    "lost 2\n"
    "count 0x401000 300\n"
    "count 0x401000 5\n"
    "fn 0x401000 kernel_loop\n"
    "src 0x401000 42 /src/app.c\n"
    "map 0x400000 0x2000 0x0 5 0x801 77 /opt/app/bin/a-very-long-program-name\n"
    "map 0x600000 0x1000 0x2000 3 0x801 77 /opt/app/bin/a-very-long-program-name\n"
    "map 0x601000 0x8000 0x0 3 0x0 0 //anon\n"
    "end\n";

// perf.data read back: the layout of perf.data-file-format.txt and the uapi record layouts.
struct PerfFileBytes {
    std::vector<std::uint8_t> b;
    std::uint64_t u64(std::size_t at) const {
        std::uint64_t v;
        std::memcpy(&v, &b.at(at + 7) - 7, 8);
        return v;
    }
    std::uint32_t u32(std::size_t at) const {
        std::uint32_t v;
        std::memcpy(&v, &b.at(at + 3) - 3, 4);
        return v;
    }
    std::uint16_t u16(std::size_t at) const {
        std::uint16_t v;
        std::memcpy(&v, &b.at(at + 1) - 1, 2);
        return v;
    }
};

// The PEBS event both sample profiles below record first.
SampledEvent precise_l1_miss_event() {
    SampledEvent e;
    e.name = "1stL_cache_load_miss_retired:precise=1";
    e.native = "1stL_cache_load_miss_retired:NBOGUS";
    e.period = 1000;
    e.precise = true;
    e.precise_level = 1;
    e.raw_config = 0x1234ull << 32 | 0x5678;
    return e;
}

Profile sample_profile() {
    Profile p;
    EXPECT_TRUE(parse_samples_text(kSamples, &p).ok());
    p.events.resize(1);
    p.events[0] = precise_l1_miss_event();
    p.events[0].data_source.none = false;
    p.events[0].data_source.load = true;
    p.events[0].data_source.level = DataSource::Level::L1Miss;
    p.command = {"app", "7"};
    return p;
}

TEST(SamplesFile, ReadsEveryKindOfLine) {
    const Profile p = sample_profile();
    ASSERT_EQ(p.processes.size(), 1u);
    const Process& proc = p.processes[0];
    EXPECT_EQ(proc.pid, 100u);
    EXPECT_EQ(proc.comm(), "a-very-long-pro");  // 15 characters, as the kernel keeps a name
    EXPECT_EQ(proc.exact[0].at(0x401000), 305u);   // count lines add up
    EXPECT_EQ(proc.places.at(0x401000).function, "kernel_loop");
    EXPECT_EQ(proc.places.at(0x401000).line, 42u);
    EXPECT_EQ(proc.places.at(0x401000).file, "/src/app.c");
    EXPECT_EQ(proc.lost, 2u);
    EXPECT_TRUE(proc.in_kernel(0xffffffff81000010ull));
    EXPECT_FALSE(proc.in_kernel(0x401000));
    ASSERT_EQ(proc.maps.size(), 3u);
    ASSERT_EQ(p.samples.size(), 3u);
    EXPECT_TRUE(p.samples[0].precise);
    EXPECT_TRUE(p.samples[0].has_addr);
    EXPECT_EQ(p.samples[0].addr, 0x601760u);
    EXPECT_EQ(p.samples[1].tid, 101u);
    EXPECT_FALSE(p.samples[2].precise);
    EXPECT_FALSE(p.samples[2].has_addr);
    EXPECT_EQ(proc.tids.size(), 2u);
}

TEST(SamplesFile, BadLinesAreErrorsWithTheirNumber) {
    Profile p;
    auto r = parse_samples_text("netburst-samples 3\nevents 1\ni 1 2 3\n", &p);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("line 3"), std::string::npos) << r.error().message;
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 1\nprocess 5 x\nwhat 1\n", &p).ok());
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 1\nprocess 5 x\np 1 2\n", &p).ok());
    EXPECT_FALSE(parse_samples_text("netburst-samples 2\nevents 1\n", &p).ok());  // before the 'kernel' line
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 1\nprocess 5 x\nkernel 0x20 0x10\n", &p).ok());
    EXPECT_FALSE(parse_samples_text("hello\n", &p).ok());
}

TEST(SamplesFile, TheBssIsNamedAfterItsObject) {
    std::string pattern = ::testing::TempDir() + "nb-record-test.XXXXXX";
    char* dir = mkdtemp(pattern.data());
    ASSERT_NE(dir, nullptr);
    const std::string file = std::string(dir) + "/samples-100-0";
    {
        std::ofstream out(file);
        out << kSamples;
    }
    Profile p;
    ASSERT_TRUE(read_samples_dir(dir, &p).ok());
    unlink(file.c_str());
    rmdir(dir);
    const Process& proc = p.processes.at(0);
    const Mapping* bss = proc.map_of(0x601760);
    ASSERT_NE(bss, nullptr);
    EXPECT_EQ(bss->path, "/opt/app/bin/a-very-long-program-name");
    EXPECT_EQ(bss->pgoff, 0x3000u);  // continues the data segment's file offsets
    EXPECT_EQ(bss->inode, 77u);
}

// An exec keeps the pid: each image has its own file (samples-PID-K), its emulator counts cycles from 0, and its
// times must follow the image before so that perf replaces the maps and the name at the right moment.
TEST(SamplesFile, ExecdImagesFollowOneAnotherInTime) {
    std::string pattern = ::testing::TempDir() + "nb-record-exec.XXXXXX";
    char* dir = mkdtemp(pattern.data());
    ASSERT_NE(dir, nullptr);
    const std::string first = std::string(dir) + "/samples-7-0", second = std::string(dir) + "/samples-7-1";
    std::ofstream(first) << "netburst-samples 3\nevents 1\nprocess 7 /bin/launcher\ni 0 7 900 0x401000\ncycles 1000\n"
                            "map 0x400000 0x1000 0x0 5 0x801 1 /bin/launcher\nend\n";
    std::ofstream(second) << "netburst-samples 3\nevents 1\nprocess 7 /bin/true\ni 0 7 50 0x401000\ncycles 80\n"
                             "map 0x400000 0x1000 0x0 5 0x801 2 /bin/true\nend\n";
    Profile p;
    ASSERT_TRUE(read_samples_dir(dir, &p).ok());
    unlink(first.c_str());
    unlink(second.c_str());
    rmdir(dir);
    ASSERT_EQ(p.processes.size(), 2u);
    EXPECT_FALSE(p.processes[0].after_exec);
    EXPECT_TRUE(p.processes[1].after_exec);
    EXPECT_EQ(p.processes[1].time_offset, 1001u);
    ASSERT_EQ(p.samples.size(), 2u);
    EXPECT_EQ(p.samples[0].time, 900u);
    EXPECT_EQ(p.image_of(p.samples[0]).exe, "/bin/launcher");
    EXPECT_EQ(p.samples[1].time, 1051u);
    EXPECT_EQ(p.image_of(p.samples[1]).exe, "/bin/true");
    // perf.data: the second image's COMM says exec, and it and its maps are dated at its start.
    p.events.resize(1);
    PerfFileBytes f{perf_data_bytes(p, perf_header_info(2, {}))};
    unsigned execs = 0;
    for (std::size_t at = f.u64(40); at < f.u64(40) + f.u64(48); at += f.u16(at + 6)) {
        if (f.u32(at) != PERF_RECORD_COMM || !(f.u16(at + 4) & PERF_RECORD_MISC_COMM_EXEC)) continue;
        ++execs;
        EXPECT_EQ(std::string(reinterpret_cast<const char*>(&f.b[at + 16])), "true");
        EXPECT_EQ(f.u64(at + f.u16(at + 6) - 16), 1001u);  // sample_id's time, before its id at the end
        EXPECT_EQ(f.u64(at + f.u16(at + 6) - 8), 1u);
    }
    EXPECT_EQ(execs, 1u);
}

TEST(PcCounts, GrowsAndKeepsEveryCount) {
    vg::PcCounts counts;
    ASSERT_TRUE(counts.init(std::malloc, std::free));
    for (std::uint64_t pc = 1; pc <= 20000; ++pc) counts.add(0x400000 + pc * 3, 0, pc);
    counts.add(0x400003, 0, 7);
    counts.mark_sampled(0x999999);
    EXPECT_EQ(counts.size(), 20001u);
    std::map<std::uint64_t, std::uint64_t> seen;
    unsigned sampled = 0;
    counts.for_each([&](const vg::PcCounts::Entry& e) {
        seen[e.pc] = e.count[0];
        if (e.sampled) ++sampled;
    });
    EXPECT_EQ(seen.at(0x400003), 8u);
    EXPECT_EQ(seen.at(0x400000 + 20000 * 3), 20000u);
    EXPECT_EQ(seen.at(0x999999), 0u);
    EXPECT_EQ(sampled, 1u);
    counts.add(0, 0, 5);  // no instruction at address 0: ignored
    EXPECT_EQ(counts.size(), 20001u);
}

TEST(PerfData, HeaderAttrAndFeaturesAreWhereTheHeaderSays) {
    const Profile p = sample_profile();
    PerfFileBytes f{perf_data_bytes(p, perf_header_info(2, {"netburst-run", "record"}))};
    EXPECT_EQ(f.u64(0), 0x32454c4946524550ull);  // PERFILE2
    EXPECT_EQ(f.u64(8), 104u);
    EXPECT_EQ(f.u64(16), sizeof(perf_event_attr) + 16);
    const std::uint64_t attrs = f.u64(24), attrs_size = f.u64(32);
    EXPECT_EQ(attrs, 104u + 8);  // after the event's id
    EXPECT_EQ(attrs_size, sizeof(perf_event_attr) + 16);
    perf_event_attr attr;
    std::memcpy(&attr, &f.b[attrs], sizeof attr);
    // The attr's ids section: its one id, which every record carries (IDENTIFIER).
    EXPECT_EQ(f.u64(attrs + sizeof attr), 104u);
    EXPECT_EQ(f.u64(attrs + sizeof attr + 8), 8u);
    EXPECT_EQ(f.u64(104), 1u);
    EXPECT_EQ(attr.type, static_cast<std::uint32_t>(PERF_TYPE_RAW));
    EXPECT_EQ(attr.size, sizeof attr);
    EXPECT_EQ(attr.config, p.events[0].raw_config);
    EXPECT_EQ(attr.sample_period, 1000u);
    EXPECT_EQ(attr.sample_type, static_cast<std::uint64_t>(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
                                                           PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                                                           PERF_SAMPLE_PERIOD | PERF_SAMPLE_ADDR |
                                                           PERF_SAMPLE_DATA_SRC));
    EXPECT_EQ(attr.precise_ip, 1u);
    EXPECT_EQ(attr.sample_id_all, 1u);
    EXPECT_EQ(attr.mmap2, 1u);
    // Features: HEADER_ARCH (perf script needs it) and HEADER_EVENT_DESC (the event's name) among them, each
    // section inside the file, after the data.
    const std::uint64_t data = f.u64(40), data_size = f.u64(48);
    const std::uint64_t bits = f.u64(72);
    EXPECT_TRUE(bits & (1u << 6));
    EXPECT_TRUE(bits & (1u << 12));
    const unsigned features = static_cast<unsigned>(__builtin_popcountll(bits));
    const std::size_t table = data + data_size;
    bool found_name = false, found_arch = false;
    for (unsigned i = 0; i < features; ++i) {
        const std::uint64_t off = f.u64(table + 16 * i), size = f.u64(table + 16 * i + 8);
        ASSERT_GE(off, table + 16 * features);
        ASSERT_LE(off + size, f.b.size());
        const std::string section(f.b.begin() + static_cast<long>(off), f.b.begin() + static_cast<long>(off + size));
        if (section.find(p.events[0].name) != std::string::npos) found_name = true;
        if (section.find("x86_64") != std::string::npos) found_arch = true;
    }
    EXPECT_TRUE(found_name);
    EXPECT_TRUE(found_arch);
}

// -F is recorded as perf records it: freq set and sample_freq (sample_period's union) the frequency asked for.
TEST(PerfData, AFrequencyIsRecordedAsPerfRecordsIt) {
    Profile p = sample_profile();
    p.events[0].frequency = 4000;
    PerfFileBytes f{perf_data_bytes(p, perf_header_info(2, {}))};
    perf_event_attr attr;
    std::memcpy(&attr, &f.b[f.u64(24)], sizeof attr);
    EXPECT_EQ(attr.freq, 1u);
    EXPECT_EQ(attr.sample_freq, 4000u);
    EXPECT_TRUE(attr.sample_type & PERF_SAMPLE_PERIOD);  // each sample's period, the fixed one
}

TEST(PerfData, RecordsCarryTheSamplesInSampleTypeOrder) {
    const Profile p = sample_profile();
    PerfFileBytes f{perf_data_bytes(p, perf_header_info(2, {}))};
    const std::uint64_t data = f.u64(40), end = data + f.u64(48);
    std::map<std::uint32_t, unsigned> types;
    std::vector<std::size_t> samples;
    bool data_map = false, named_comm = false;
    for (std::size_t at = data; at < end;) {
        const std::uint32_t type = f.u32(at);
        const std::uint16_t misc = f.u16(at + 4), size = f.u16(at + 6);
        ASSERT_GE(size, 8u);
        ASSERT_EQ(size % 8, 0u) << "records are 8-byte aligned";
        ++types[type];
        if (type == PERF_RECORD_SAMPLE) samples.push_back(at);
        if (type == PERF_RECORD_COMM && std::string(reinterpret_cast<const char*>(&f.b[at + 16])) == "a-very-long-pro")
            named_comm = true;
        if (type == PERF_RECORD_MMAP2) {
            // pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot, flags, filename.
            EXPECT_EQ(f.u32(at + 8), 100u);
            const std::string path(reinterpret_cast<const char*>(&f.b[at + 72]));
            EXPECT_TRUE(path == "/opt/app/bin/a-very-long-program-name" || path == "//anon") << path;
            const std::uint32_t prot = f.u32(at + 64);
            if (path == "//anon") {
                EXPECT_EQ(f.u32(at + 68), 0x22u);  // MAP_PRIVATE | MAP_ANONYMOUS
            }
            // Mappings that cannot execute are data maps (perf record -d's), for data addresses.
            EXPECT_EQ((misc & PERF_RECORD_MISC_MMAP_DATA) != 0, (prot & 4) == 0);
            if (misc & PERF_RECORD_MISC_MMAP_DATA) data_map = true;
        }
        at += size;
    }
    EXPECT_EQ(types[PERF_RECORD_COMM], 2u);  // the process and its second thread
    EXPECT_EQ(types[PERF_RECORD_MMAP2], 3u);
    EXPECT_TRUE(data_map);
    EXPECT_TRUE(named_comm);
    ASSERT_EQ(samples.size(), 3u);
    // IDENTIFIER, IP, PID/TID, TIME, ADDR, PERIOD, DATA_SRC.
    EXPECT_EQ(f.u64(samples[1] + 8), 1u);
    const std::size_t s = samples[1] + 16;
    EXPECT_EQ(f.u64(s), 0x401000u);
    EXPECT_EQ(f.u32(s + 8), 100u);
    EXPECT_EQ(f.u32(s + 12), 101u);
    EXPECT_EQ(f.u64(s + 16), 6000u);
    EXPECT_EQ(f.u64(s + 24), 0x603760u);
    EXPECT_EQ(f.u64(s + 32), 1000u);
    const std::uint64_t src = f.u64(s + 40);
    EXPECT_EQ((src >> PERF_MEM_OP_SHIFT) & 0x1f, static_cast<std::uint64_t>(PERF_MEM_OP_LOAD));
    EXPECT_EQ((src >> PERF_MEM_LVL_SHIFT) & 0x3fff, static_cast<std::uint64_t>(PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS));
    EXPECT_TRUE(f.u16(samples[1] + 4) & PERF_RECORD_MISC_EXACT_IP);
    EXPECT_FALSE(f.u16(samples[2] + 4) & PERF_RECORD_MISC_EXACT_IP);  // the IEBS one
}

TEST(PerfData, ImpreciseSamplesCarryNoAddress) {
    SampledEvent e;
    e.precise = false;
    EXPECT_EQ(perf_sample_type(e) & (PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC), 0u);
    e.precise = true;
    EXPECT_EQ(perf_sample_type(e) & (PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC),
              static_cast<std::uint64_t>(PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC));
}

TEST(SamplesFile, AChainLineBelongsToTheSampleBeforeIt) {
    Profile p;
    ASSERT_TRUE(parse_samples_text("netburst-samples 3\nevents 1\nprocess 5 x\np 0 5 10 0x401000 0x600000\nchain 0x401105 0x401205\n"
                                   "i 0 5 20 0x401010\nchain\nchain-overflow 3\nchain-overflow 4\n",
                                   &p)
                    .ok());
    ASSERT_EQ(p.samples.size(), 2u);
    EXPECT_EQ(p.samples[0].callers, (std::vector<std::uint64_t>{0x401105, 0x401205}));
    EXPECT_TRUE(p.samples[1].callers.empty());
    EXPECT_EQ(p.processes[0].chain_overflow, 7u);
    Profile q;
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 1\nprocess 5 x\nchain 0x1\n", &q).ok());  // no sample before
    Profile r;
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 1\nprocess 5 x\ni 0 5 1 0x1\ncycles 9\nchain 0x1\n", &r).ok());
}

// An i386 program's kernel paths lie at 32-bit addresses (0xc0...), which an x86-64 program could map too: what is
// the kernel's is what its image's 'kernel' line says, not a fixed boundary.
TEST(PerfData, SamplesInTheImagesKernelRangeAreMarkedKernel) {
    Profile p = sample_profile();
    p.processes[0].kernel_low = 0xc0100000;
    p.processes[0].kernel_high = 0xc0104000;
    p.samples[2].ip = 0xc0102058;
    PerfFileBytes f{perf_data_bytes(p, perf_header_info(2, {}))};
    std::vector<std::uint16_t> misc;
    for (std::size_t at = f.u64(40); at < f.u64(40) + f.u64(48);) {
        const auto type = f.u32(at);
        if (type == PERF_RECORD_SAMPLE) misc.push_back(static_cast<std::uint16_t>(f.u16(at + 4) & PERF_RECORD_MISC_CPUMODE_MASK));
        at += f.u16(at + 6);
    }
    ASSERT_EQ(misc.size(), 3u);
    EXPECT_EQ(misc[0], PERF_RECORD_MISC_USER);
    EXPECT_EQ(misc[2], PERF_RECORD_MISC_KERNEL);
}

TEST(PerfData, ACallChainFollowsThePeriodWithItsContextMarkerAndTheIpFirst) {
    Profile p = sample_profile();
    p.events[0].callchain = true;
    p.samples[1].callers = {0x401105, 0x401205};
    p.samples[2].ip = 0xffffffff81000010ull;  // a sample in the synthetic kernel path
    p.samples[2].callers = {0x401305};
    EXPECT_TRUE(perf_sample_type(p.events[0]) & PERF_SAMPLE_CALLCHAIN);
    PerfFileBytes f{perf_data_bytes(p, perf_header_info(2, {}))};
    // The attr: sample_type with CALLCHAIN, and perf record -g's chain limit.
    perf_event_attr attr;
    std::memcpy(&attr, &f.b.at(f.u64(24)), sizeof attr);
    EXPECT_TRUE(attr.sample_type & PERF_SAMPLE_CALLCHAIN);
    EXPECT_EQ(attr.sample_max_stack, 127u);
    const std::uint64_t data = f.u64(40), end = data + f.u64(48);
    std::vector<std::size_t> samples;
    for (std::size_t at = data; at < end; at += f.u16(at + 6))
        if (f.u32(at) == PERF_RECORD_SAMPLE) samples.push_back(at);
    ASSERT_EQ(samples.size(), 3u);
    // IDENTIFIER, IP, PID/TID, TIME, ADDR, PERIOD, CALLCHAIN (nr, ips), DATA_SRC.
    std::size_t s = samples[1] + 16;
    EXPECT_EQ(f.u64(s + 32), 1000u);
    EXPECT_EQ(f.u64(s + 40), 4u);
    EXPECT_EQ(f.u64(s + 48), static_cast<std::uint64_t>(PERF_CONTEXT_USER));
    EXPECT_EQ(f.u64(s + 56), 0x401000u);
    EXPECT_EQ(f.u64(s + 64), 0x401105u);
    EXPECT_EQ(f.u64(s + 72), 0x401205u);
    const std::uint64_t src = f.u64(s + 80);
    EXPECT_EQ((src >> PERF_MEM_OP_SHIFT) & 0x1f, static_cast<std::uint64_t>(PERF_MEM_OP_LOAD));
    EXPECT_EQ(f.u16(samples[1] + 6), 8u + 96u);
    // The first sample has no callers: the marker and its own ip.
    s = samples[0] + 16;
    EXPECT_EQ(f.u64(s + 40), 2u);
    EXPECT_EQ(f.u64(s + 56), 0x401000u);
    // A kernel sample: its ip under the kernel marker, the program's callers under the user marker.
    s = samples[2] + 16;
    EXPECT_EQ(f.u64(s + 40), 4u);
    EXPECT_EQ(f.u64(s + 48), static_cast<std::uint64_t>(PERF_CONTEXT_KERNEL));
    EXPECT_EQ(f.u64(s + 56), 0xffffffff81000010ull);
    EXPECT_EQ(f.u64(s + 64), static_cast<std::uint64_t>(PERF_CONTEXT_USER));
    EXPECT_EQ(f.u64(s + 72), 0x401305u);
    // Without -g: no chain.
    p.events[0].callchain = false;
    EXPECT_FALSE(perf_sample_type(p.events[0]) & PERF_SAMPLE_CALLCHAIN);
}

TEST(SamplesFile, CallLinesAddUpPerSiteAndCallee) {
    Profile p;
    const char text[] =
        "netburst-samples 3\nevents 1\nprocess 7 /bin/app\n"
        "call 0x401000 0x402000 3 300 2\n"
        "call 0x401000 0x403000 1 10 0\n"
        "end\n"
        "call 0x401000 0x402000 0 5 1\n"  // the same image after a failed exec: the open call's further cost
        "end\n";
    ASSERT_TRUE(parse_samples_text(text, &p).ok());
    const Process& proc = p.processes.at(0);
    ASSERT_EQ(proc.calls.size(), 2u);
    EXPECT_EQ(proc.calls.at({0x401000, 0x402000}).calls, 3u);
    EXPECT_EQ(proc.calls.at({0x401000, 0x402000}).exact[0], 305u);
    EXPECT_EQ(proc.calls.at({0x401000, 0x402000}).samples[0], 3u);
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 1\nprocess 7 x\ncall 0x401000 0x402000 3 300\n", &p).ok());
}

TEST(Callgrind, CallsFollowTheCallersLineWithTheInclusiveCostAtTheCallSite) {
    Profile p = sample_profile();
    Process& proc = p.processes[0];
    // kernel_loop (0x401000, line 42) calls helper at 0x401800 (line 7 of /src/helper.c) twice and an unnamed
    // function once, from a call site without a cost of its own (0x401020, line 43).
    proc.places[0x401800] = SourcePlace{"helper", "/src/helper.c", 7};
    proc.places[0x401020] = SourcePlace{"kernel_loop", "/src/app.c", 43};
    proc.calls[{0x401000, 0x401800}] = CallEdge{2, {120}, {1}};
    proc.calls[{0x401020, 0x401900}] = CallEdge{1, {9}, {0}};
    const std::string text = callgrind_text(p);
    // The object's own addresses: the mapping starts at file offset 0 but no ELF file is there, so the run-time
    // addresses stand.
    EXPECT_NE(text.find("fn=kernel_loop\n0x401000 42 305 2000\n"
                        "cob=/opt/app/bin/a-very-long-program-name\ncfi=/src/helper.c\ncfn=helper\n"
                        "calls=2 0x401800 7\n0x401000 42 120 1000\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("cfi=???\ncfn=???\ncalls=1 0x401900 0\n0x401020 43 9 0\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("\n0x401020 43 0 0\n"), std::string::npos) << "a call site without a cost has no cost line";
    // The totals are the instructions' own costs; inclusive costs are not added to them.
    EXPECT_NE(text.find("\nsummary: 305 3000\n"), std::string::npos) << text;
}

TEST(Callgrind, ExactAndSampledSideBySide) {
    Profile p = sample_profile();
    p.processes[0].exact[0][0xffffffff81000010ull] = 3;  // the synthetic kernel path
    const std::string text = callgrind_text(p);
    EXPECT_EQ(text.rfind("# callgrind format\n", 0), 0u);
    EXPECT_NE(text.find("\npositions: instr line\n"), std::string::npos);
    EXPECT_NE(text.find("\nevents: Exact Sampled\n"), std::string::npos);
    // 305 + 3 exact; three samples of period 1000.
    EXPECT_NE(text.find("\nsummary: 308 3000\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nfl=/src/app.c\nfn=kernel_loop\n0x401000 42 305 2000\n"), std::string::npos) << text;
    EXPECT_NE(text.find("fn=???\n0x401010 0 0 1000\n"), std::string::npos) << text;
    EXPECT_NE(text.find("ob=[synthetic kernel path of netburst-run]"), std::string::npos);
    EXPECT_NE(text.find("cmd: app 7\n"), std::string::npos);
}

// Several sampled events: each sample line names its event, count lines hold a count per event and call lines a
// pair (exact, samples) per event.
const char kTwoEvents[] =
    "netburst-samples 3\nevents 2\n"
    "process 100 /opt/app/bin/app\n"
    "p 0 100 5000 0x401000 0x601760\n"
    "i 1 100 6000 0x401010\n"
    "i 1 100 7000 0x401010\n"
    "count 0x401000 300 7\n"
    "count 0x401010 0 40\n"
    "call 0x401000 0x402000 3 300 1 20 2\n"
    "fn 0x401000 kernel_loop\n"
    "src 0x401000 42 /src/app.c\n"
    "map 0x400000 0x2000 0x0 5 0x801 77 /opt/app/bin/app\n"
    "end\n";

Profile two_event_profile() {
    Profile p;
    p.events.resize(2);
    EXPECT_TRUE(parse_samples_text(kTwoEvents, &p).ok());
    p.events[0] = precise_l1_miss_event();
    p.events[1].name = "PAPI_TOT_CYC";
    p.events[1].native = "global_power_events:RUNNING";
    p.events[1].period = 20;
    p.events[1].raw_config = 0x9abcull << 32 | 0xdef0;
    p.command = {"app"};
    return p;
}

TEST(SamplesFile, SeveralEventsKeepTheirSamplesAndCountsApart) {
    const Profile p = two_event_profile();
    ASSERT_EQ(p.samples.size(), 3u);
    EXPECT_EQ(p.samples[0].event, 0u);
    EXPECT_EQ(p.samples[1].event, 1u);
    EXPECT_EQ(p.samples[2].event, 1u);
    const Process& proc = p.processes.at(0);
    ASSERT_EQ(proc.exact.size(), 2u);
    EXPECT_EQ(proc.exact[0].at(0x401000), 300u);
    EXPECT_EQ(proc.exact[0].count(0x401010), 0u);  // no count of its own for event 0
    EXPECT_EQ(proc.exact[1].at(0x401000), 7u);
    EXPECT_EQ(proc.exact[1].at(0x401010), 40u);
    const CallEdge& edge = proc.calls.at({0x401000, 0x402000});
    EXPECT_EQ(edge.calls, 3u);
    EXPECT_EQ(edge.exact, (std::vector<std::uint64_t>{300, 20}));
    EXPECT_EQ(edge.samples, (std::vector<std::uint64_t>{1, 2}));
    // The file must agree with the recording, and every line with the file's `events`.
    Profile one;
    one.events.resize(1);
    EXPECT_FALSE(parse_samples_text(kTwoEvents, &one).ok());
    Profile q;
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 2\nprocess 5 x\ni 2 5 1 0x1\n", &q).ok());
    Profile r;
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 2\nprocess 5 x\ncount 0x1 5\n", &r).ok());
    Profile t;
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nevents 2\nprocess 5 x\ncall 0x1 0x2 1 5 0\n", &t).ok());
    Profile u;
    EXPECT_FALSE(parse_samples_text("netburst-samples 3\nprocess 5 x\n", &u).ok());  // no `events` line
}

// perf.data with two events: an attr each with its own id (the ids sections), every sample led by its event's id
// (IDENTIFIER) and laid out by its own attr (ADDR and DATA_SRC for the PEBS event only), and EVENT_DESC naming both.
TEST(PerfData, EachEventHasItsAttrItsIdAndItsName) {
    const Profile p = two_event_profile();
    PerfFileBytes f{perf_data_bytes(p, perf_header_info(2, {}))};
    const std::size_t entry = sizeof(perf_event_attr) + 16;
    EXPECT_EQ(f.u64(16), entry);
    const std::uint64_t attrs = f.u64(24);
    ASSERT_EQ(f.u64(32), 2 * entry);
    std::vector<std::uint64_t> ids;
    std::vector<perf_event_attr> attr(2);
    for (std::size_t i = 0; i < 2; ++i) {
        std::memcpy(&attr[i], &f.b[attrs + i * entry], sizeof(perf_event_attr));
        EXPECT_EQ(attr[i].config, p.events[i].raw_config);
        EXPECT_EQ(attr[i].sample_period, p.events[i].period);
        EXPECT_TRUE(attr[i].sample_type & PERF_SAMPLE_IDENTIFIER);
        ASSERT_EQ(f.u64(attrs + i * entry + sizeof(perf_event_attr) + 8), 8u);  // one id
        ids.push_back(f.u64(f.u64(attrs + i * entry + sizeof(perf_event_attr))));
    }
    EXPECT_NE(ids[0], ids[1]);
    EXPECT_TRUE(attr[0].sample_type & PERF_SAMPLE_ADDR);
    EXPECT_FALSE(attr[1].sample_type & PERF_SAMPLE_ADDR);
    const std::uint64_t data = f.u64(40), end = data + f.u64(48);
    std::vector<std::size_t> samples;
    for (std::size_t at = data; at < end; at += f.u16(at + 6)) {
        if (f.u32(at) == PERF_RECORD_SAMPLE) {
            samples.push_back(at);
        } else if (f.u32(at) != 68) {  // all but FINISHED_ROUND end with the sample_id trailer and its id
            EXPECT_EQ(f.u64(at + f.u16(at + 6) - 8), ids[0]);
        }
    }
    ASSERT_EQ(samples.size(), 3u);
    EXPECT_EQ(f.u64(samples[0] + 8), ids[0]);
    EXPECT_EQ(f.u64(samples[1] + 8), ids[1]);
    EXPECT_EQ(f.u64(samples[2] + 8), ids[1]);
    // IDENTIFIER, IP, PID/TID, TIME, ADDR, PERIOD, DATA_SRC for the PEBS event; no ADDR or DATA_SRC for the other.
    EXPECT_EQ(f.u16(samples[0] + 6), 8u + 56u);
    EXPECT_EQ(f.u64(samples[0] + 48), 1000u);
    EXPECT_EQ(f.u16(samples[1] + 6), 8u + 40u);
    EXPECT_EQ(f.u64(samples[1] + 16), 0x401010u);
    EXPECT_EQ(f.u64(samples[1] + 40), 20u);
    // EVENT_DESC (feature 12, the last of the sections written): two events, each name followed by its id.
    const std::uint64_t bits = f.u64(72);
    const unsigned features = static_cast<unsigned>(__builtin_popcountll(bits));
    const std::size_t table = end;
    const std::uint64_t desc = f.u64(table + 16 * (features - 1));
    EXPECT_EQ(f.u32(desc), 2u);
    EXPECT_EQ(f.u32(desc + 4), sizeof(perf_event_attr));
    std::size_t at = desc + 8;
    for (std::size_t i = 0; i < 2; ++i) {
        at += sizeof(perf_event_attr);
        EXPECT_EQ(f.u32(at), 1u);  // ids
        const std::uint32_t len = f.u32(at + 4);
        EXPECT_EQ(std::string(reinterpret_cast<const char*>(&f.b[at + 8])), p.events[i].name);
        EXPECT_EQ(f.u64(at + 8 + len), ids[i]);
        at += 8 + len + 8;
    }
}

// The callgrind file: two columns per event (Exact1 Sampled1 Exact2 Sampled2), every cost line with all four.
TEST(Callgrind, TwoColumnsPerEvent) {
    const Profile p = two_event_profile();
    const std::string text = callgrind_text(p);
    EXPECT_NE(text.find("\nevents: Exact1 Sampled1 Exact2 Sampled2\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nevent: Sampled2 : global_power_events:RUNNING, samples x period"), std::string::npos) << text;
    EXPECT_NE(text.find("\ndesc: Event 1: 1stL_cache_load_miss_retired:precise=1 "), std::string::npos) << text;
    EXPECT_NE(text.find("\ndesc: Event 2: PAPI_TOT_CYC "), std::string::npos) << text;
    // 0x401000: 300 and 7 exact, one PEBS sample (1000); 0x401010: 40 exact of event 2, two of its samples (2 x 20).
    EXPECT_NE(text.find("\nfn=kernel_loop\n0x401000 42 300 1000 7 0\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n0x401010 0 0 0 40 40\n"), std::string::npos) << text;
    // The call's inclusive costs: 300 exact and one sample of event 1, 20 exact and two samples of event 2.
    EXPECT_NE(text.find("calls=3 0x402000 0\n0x401000 42 300 1000 20 40\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nsummary: 300 1000 47 40\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\ntotals: 300 1000 47 40\n"), std::string::npos) << text;
}

}  // namespace

// A recording replaces a regular file, which it keeps as PATH.old, and writes a pipe or a device in place: renaming
// over /dev/null once left a regular file there for the whole machine.
TEST(PerfData, WritesAPipeInPlaceAndKeepsAnOldFile) {
    const Profile p = sample_profile();
    const PerfHeaderInfo info = perf_header_info(2, {});
    const std::string dir = ::testing::TempDir() + "perf-data-" + std::to_string(getpid());
    ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
    const std::string file = dir + "/perf.data";
    std::ofstream(file) << "the last recording";
    ASSERT_TRUE(write_perf_data(file, p, info));
    std::ifstream old(file + ".old");
    std::string kept((std::istreambuf_iterator<char>(old)), std::istreambuf_iterator<char>());
    EXPECT_EQ(kept, "the last recording");
    const std::vector<std::uint8_t> bytes = perf_data_bytes(p, info);
    struct stat st {};
    ASSERT_EQ(stat(file.c_str(), &st), 0);
    EXPECT_EQ(static_cast<std::size_t>(st.st_size), bytes.size());

    const std::string fifo = dir + "/pipe";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    // The reader opens without waiting for a writer, and reads until it has the file or 10 s have passed: a writer
    // that replaced the pipe instead of writing it fails the test rather than hanging it.
    const int in = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(in, 0);
    std::string read_back;
    std::thread reader([&] {
        char buf[4096];
        for (int waited = 0; read_back.size() < bytes.size() && waited < 10000;) {
            const ssize_t n = read(in, buf, sizeof buf);
            if (n > 0) read_back.append(buf, static_cast<std::size_t>(n));
            else usleep(1000), ++waited;
        }
    });
    const Result<bool> written = write_perf_data(fifo, p, info);
    reader.join();
    close(in);
    EXPECT_TRUE(written);
    EXPECT_EQ(read_back.size(), bytes.size());
    ASSERT_EQ(stat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the pipe is still a pipe";
    EXPECT_NE(access((fifo + ".old").c_str(), F_OK), 0) << "nothing was moved aside";
    EXPECT_NE(access((fifo + ".tmp").c_str(), F_OK), 0);
}

