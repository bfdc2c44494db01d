#include "emulator/run/perf_data.h"

#include <linux/perf_event.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "emulator/sampling/shadow_stack.h"
#include "emulator/x86/machine_info.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

namespace {

// perf.data's own structures (perf.data-file-format.txt): they are perf's, not the kernel's, so no header has them.
constexpr std::uint64_t kPerfMagic = 0x32454c4946524550ull;  // "PERFILE2", little-endian
constexpr std::size_t kFileHeaderSize = 104;                 // magic, size, attr_size, 3 sections, 256 feature bits
constexpr std::size_t kFileSectionSize = 16;                 // { u64 offset; u64 size; }
// Feature bits (HEADER_*), in the order their sections follow the data.
enum Feature : unsigned {
    kHeaderHostname = 3,
    kHeaderOsRelease = 4,
    kHeaderVersion = 5,
    kHeaderArch = 6,
    kHeaderNrCpus = 7,
    kHeaderCpuDesc = 8,
    kHeaderCpuId = 9,
    kHeaderCmdline = 11,
    kHeaderEventDesc = 12,
};
// perf's own record types start at 64; FINISHED_ROUND tells it that no later record is older than this point.
constexpr std::uint32_t kRecordFinishedRound = 68;
// perf pads the strings of feature sections to this many bytes (NAME_ALIGN).
constexpr std::size_t kStringAlign = 64;

// The sample id of event i (the attrs' ids sections, EVENT_DESC, and every record's IDENTIFIER): any unique number
// does; perf's own are the kernel's event ids.
std::uint64_t event_id(std::size_t i) { return i + 1; }

class Bytes {
public:
    void u16(std::uint16_t v) { raw(&v, 2); }
    void u32(std::uint32_t v) { raw(&v, 4); }
    void u64(std::uint64_t v) { raw(&v, 8); }
    void raw(const void* p, std::size_t n) {
        const auto* b = static_cast<const std::uint8_t*>(p);
        data_.insert(data_.end(), b, b + n);
    }
    // A NUL-terminated string padded with NULs to a multiple of `align` bytes.
    void padded(const std::string& s, std::size_t align) {
        raw(s.data(), s.size());
        std::size_t n = s.size() + 1;
        n = (n + align - 1) / align * align;
        data_.insert(data_.end(), n - s.size(), 0);
    }
    // perf's feature-section string: { u32 len; char str[len]; } with len the padded size.
    void perf_string(const std::string& s) {
        const std::size_t len = (s.size() + 1 + kStringAlign - 1) / kStringAlign * kStringAlign;
        u32(static_cast<std::uint32_t>(len));
        padded(s, kStringAlign);
    }
    void patch_u16(std::size_t at, std::uint16_t v) { std::memcpy(&data_[at], &v, 2); }
    void patch_u64(std::size_t at, std::uint64_t v) { std::memcpy(&data_[at], &v, 8); }
    std::size_t size() const { return data_.size(); }
    std::vector<std::uint8_t>& data() { return data_; }

private:
    std::vector<std::uint8_t> data_;
};

perf_event_attr make_attr(const SampledEvent& e) {
    perf_event_attr a;
    std::memset(&a, 0, sizeof a);
    // A raw PMU event: Linux's P4 driver packs the ESCR into the upper and the CCCR into the lower half of config.
    a.type = PERF_TYPE_RAW;
    a.size = sizeof a;
    a.config = e.raw_config;
    // -F: recorded as perf records it (freq and sample_freq, a union with sample_period); every sample carries
    // its period (PERF_SAMPLE_PERIOD), here the fixed clock / FREQ.
    if (e.frequency != 0) {
        a.freq = 1;
        a.sample_freq = e.frequency;
    } else {
        a.sample_period = e.period;
    }
    a.sample_type = perf_sample_type(e);
    a.inherit = 1;
    a.exclude_kernel = e.user_only ? 1 : 0;
    a.exclude_user = e.kernel_only ? 1 : 0;
    a.exclude_hv = 1;
    a.mmap = 1;
    a.comm = 1;
    a.mmap2 = 1;
    a.mmap_data = e.precise ? 1 : 0;
    a.sample_id_all = 1;
    a.precise_ip = e.precise ? (e.precise_level > 3 ? 3 : e.precise_level) : 0;
    // perf record -g's limit on the chain's length (the shadow stack holds no more: shadow_stack.h).
    if (e.callchain) a.sample_max_stack = vg::ShadowStack::kCapacity;
    return a;
}

// The sample_id trailer of non-sample records (sample_id_all with TID, TIME and IDENTIFIER): pid, tid, time, id.
// Every attr has these three bits, so perf reads the trailer alike whichever event it names; they name the first.
void sample_id(Bytes& b, std::uint32_t pid, std::uint32_t tid, std::uint64_t time) {
    b.u32(pid);
    b.u32(tid);
    b.u64(time);
    b.u64(event_id(0));
}

// Starts a record; returns where its header is so that end_record() can fill in its size.
std::size_t begin_record(Bytes& b, std::uint32_t type, std::uint16_t misc) {
    const std::size_t at = b.size();
    b.u32(type);
    b.u16(misc);
    b.u16(0);
    return at;
}
void end_record(Bytes& b, std::size_t at) { b.patch_u16(at + 6, static_cast<std::uint16_t>(b.size() - at)); }

// An image after an exec says so (PERF_RECORD_MISC_COMM_EXEC): perf then names the thread anew from that time on.
void comm_record(Bytes& b, std::uint32_t pid, std::uint32_t tid, const std::string& comm, std::uint64_t time,
                 bool exec) {
    const std::size_t at = begin_record(b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
    b.u32(pid);
    b.u32(tid);
    b.padded(comm, 8);
    sample_id(b, pid, tid, time);
    end_record(b, at);
}

// Mappings are dated at their image's start: an exec'd image's replace the earlier image's at the same addresses
// from then on (perf orders records by time).
void mmap2_record(Bytes& b, std::uint32_t pid, const Mapping& m, std::uint64_t time) {
    // Mappings that are not executable carry the data bit: perf then uses them for data addresses only
    // (machine__process_mmap2_event), as it does with the data mmaps of `perf record -d`.
    const std::uint16_t misc = PERF_RECORD_MISC_USER | (m.executable() ? 0 : PERF_RECORD_MISC_MMAP_DATA);
    const std::size_t at = begin_record(b, PERF_RECORD_MMAP2, misc);
    b.u32(pid);
    b.u32(pid);
    b.u64(m.start);
    b.u64(m.length);
    b.u64(m.pgoff);
    b.u32(major(static_cast<dev_t>(m.dev)));
    b.u32(minor(static_cast<dev_t>(m.dev)));
    b.u64(m.inode);
    b.u64(0);  // inode generation
    std::uint32_t prot = 0;
    if (m.prot & 1) prot |= 0x1;  // PROT_READ
    if (m.prot & 2) prot |= 0x2;  // PROT_WRITE
    if (m.prot & 4) prot |= 0x4;  // PROT_EXEC
    b.u32(prot);
    b.u32(m.path == "//anon" ? 0x22 : 0x02);  // MAP_PRIVATE, and MAP_ANONYMOUS for anonymous memory
    b.padded(m.path, 8);
    sample_id(b, pid, pid, time);
    end_record(b, at);
}

// perf_mem_data_src of the event (the same for every sample: a NetBurst metric tells its kind of miss).
std::uint64_t data_source_bits(const DataSource& d) {
    std::uint64_t op = PERF_MEM_OP_NA, lvl = PERF_MEM_LVL_NA, tlb = PERF_MEM_TLB_NA;
    std::uint64_t lvlnum = 0;
    if (!d.none) {
        op = (d.load ? PERF_MEM_OP_LOAD : 0) | (d.store ? PERF_MEM_OP_STORE : 0);
        if (op == 0) op = PERF_MEM_OP_NA;
        if (d.level == DataSource::Level::L1Miss) {
            lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS;
            lvlnum = 0;
        } else if (d.level == DataSource::Level::L2Miss) {
            lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_MISS;
            lvlnum = 0;
        }
        if (d.tlb_miss) tlb = PERF_MEM_TLB_L1 | PERF_MEM_TLB_MISS;
    }
    return (op << PERF_MEM_OP_SHIFT) | (lvl << PERF_MEM_LVL_SHIFT) | (tlb << PERF_MEM_TLB_SHIFT) |
           (std::uint64_t{PERF_MEM_SNOOP_NA} << PERF_MEM_SNOOP_SHIFT) |
           (std::uint64_t{PERF_MEM_LOCK_NA} << PERF_MEM_LOCK_SHIFT) | (lvlnum << PERF_MEM_LVLNUM_SHIFT);
}

// kernel: the sample is in the synthetic kernel paths (Process::in_kernel).
void sample_record(Bytes& b, const SampledEvent& e, std::uint64_t type, const Sample& s, bool kernel) {
    std::uint16_t misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
    if (s.precise) misc |= PERF_RECORD_MISC_EXACT_IP;
    const std::size_t at = begin_record(b, PERF_RECORD_SAMPLE, misc);
    // In the order of the sample_type bits (perf_event.h, "PERF_RECORD_SAMPLE"). IDENTIFIER comes first, so that
    // perf finds the sample's event before it knows the event's layout.
    b.u64(event_id(s.event));
    b.u64(s.ip);
    b.u32(s.pid);
    b.u32(s.tid);
    b.u64(s.time);
    if (type & PERF_SAMPLE_ADDR) b.u64(s.has_addr ? s.addr : 0);
    b.u64(e.period);
    if (type & PERF_SAMPLE_CALLCHAIN) {
        // As the kernel writes a chain: a context marker, then the sample's own instruction pointer first and the
        // callers after it, innermost first. A sample in the synthetic kernel path has the program's callers below a
        // user marker.
        b.u64(s.callers.size() + (kernel ? 3 : 2));
        b.u64(kernel ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER);
        b.u64(s.ip);
        if (kernel) b.u64(PERF_CONTEXT_USER);
        for (std::uint64_t ret : s.callers) b.u64(ret);
    }
    if (type & PERF_SAMPLE_DATA_SRC) b.u64(data_source_bits(s.has_addr ? e.data_source : DataSource{}));
    end_record(b, at);
}

void finished_round(Bytes& b) {
    const std::size_t at = begin_record(b, kRecordFinishedRound, 0);
    end_record(b, at);
}

}  // namespace

std::uint64_t perf_sample_type(const SampledEvent& event) {
    std::uint64_t t = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
    if (event.precise) t |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
    if (event.callchain) t |= PERF_SAMPLE_CALLCHAIN;
    return t;
}

PerfHeaderInfo perf_header_info(unsigned model, const std::vector<std::string>& cmdline) {
    PerfHeaderInfo info;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) info.hostname = host;
    utsname u{};
    if (uname(&u) == 0) info.os_release = u.release;
    nb_emulator_info machine{};
    vg::describe_machine(EmulatedMachine{}.with_model(model), &machine);
    info.cpu_description = std::string("Intel(R) Pentium(R) 4, family 0FH model ") + std::to_string(model) + " (" +
                           model_codename(model) + "), emulated by netburst-run";
    info.cpuid = "GenuineIntel,15," + std::to_string(model) + "," + std::to_string(machine.stepping);
    info.cmdline = cmdline;
    return info;
}

std::vector<std::uint8_t> perf_data_bytes(const Profile& profile, const PerfHeaderInfo& info) {
    std::vector<perf_event_attr> attrs;
    for (const SampledEvent& e : profile.events) attrs.push_back(make_attr(e));
    Bytes b;
    // The header, filled in at the end.
    for (std::size_t i = 0; i < kFileHeaderSize; ++i) b.raw("", 1);
    // Each event's ids (one id each), then the attrs section: each attr with the place of its ids.
    const std::size_t ids_at = b.size();
    for (std::size_t i = 0; i < attrs.size(); ++i) b.u64(event_id(i));
    const std::size_t attrs_at = b.size();
    for (std::size_t i = 0; i < attrs.size(); ++i) {
        b.raw(&attrs[i], sizeof attrs[i]);
        b.u64(ids_at + 8 * i);
        b.u64(8);
    }
    const std::size_t attrs_size = b.size() - attrs_at;

    const std::size_t data_at = b.size();
    for (const Process& p : profile.processes) {
        const std::string comm = p.comm();
        comm_record(b, p.pid, p.pid, comm, p.time_offset, p.after_exec);
        for (std::uint32_t tid : p.tids)
            if (tid != p.pid) comm_record(b, p.pid, tid, comm, p.time_offset, false);
        for (const Mapping& m : p.maps) mmap2_record(b, p.pid, m, p.time_offset);
    }
    for (const Sample& s : profile.samples)
        sample_record(b, profile.events.at(s.event), attrs.at(s.event).sample_type, s,
                      profile.processes.at(s.image).in_kernel(s.ip));
    finished_round(b);
    const std::size_t data_size = b.size() - data_at;

    // Feature sections: a table of { offset, size } in bit order, then each section.
    const unsigned features[] = {kHeaderHostname, kHeaderOsRelease, kHeaderVersion, kHeaderArch,   kHeaderNrCpus,
                                 kHeaderCpuDesc,  kHeaderCpuId,     kHeaderCmdline, kHeaderEventDesc};
    const std::size_t n_features = sizeof features / sizeof features[0];
    const std::size_t table_at = b.size();
    for (std::size_t i = 0; i < n_features; ++i) {
        b.u64(0);
        b.u64(0);
    }
    for (std::size_t i = 0; i < n_features; ++i) {
        const std::size_t at = b.size();
        switch (features[i]) {
        case kHeaderHostname: b.perf_string(info.hostname); break;
        case kHeaderOsRelease: b.perf_string(info.os_release); break;
        case kHeaderVersion: b.perf_string("netburst-run"); break;
        case kHeaderArch: b.perf_string("x86_64"); break;  // the guest programs are x86-64 (the tool is amd64)
        case kHeaderNrCpus:
            b.u32(1);  // available
            b.u32(1);  // online: one emulated logical processor
            break;
        case kHeaderCpuDesc: b.perf_string(info.cpu_description); break;
        case kHeaderCpuId: b.perf_string(info.cpuid); break;
        case kHeaderCmdline:
            b.u32(static_cast<std::uint32_t>(info.cmdline.size()));
            for (const std::string& arg : info.cmdline) b.perf_string(arg);
            break;
        case kHeaderEventDesc:
            b.u32(static_cast<std::uint32_t>(attrs.size()));
            b.u32(static_cast<std::uint32_t>(sizeof(perf_event_attr)));
            for (std::size_t e = 0; e < attrs.size(); ++e) {
                b.raw(&attrs[e], sizeof attrs[e]);
                b.u32(1);  // ids
                b.perf_string(profile.events[e].name);
                b.u64(event_id(e));
            }
            break;
        }
        b.patch_u64(table_at + i * kFileSectionSize, at);
        b.patch_u64(table_at + i * kFileSectionSize + 8, b.size() - at);
    }

    // The header: magic, its size, the size of an attrs entry, the attrs, data and (unused) event_types sections,
    // and the bitmap of features present.
    std::size_t h = 0;
    const auto put = [&](std::uint64_t v) {
        b.patch_u64(h, v);
        h += 8;
    };
    put(kPerfMagic);
    put(kFileHeaderSize);
    put(sizeof(perf_event_attr) + kFileSectionSize);
    put(attrs_at);
    put(attrs_size);
    put(data_at);
    put(data_size);
    put(0);
    put(0);
    std::uint64_t bits[4] = {};
    for (unsigned f : features) bits[f / 64] |= std::uint64_t{1} << (f % 64);
    for (std::uint64_t w : bits) put(w);
    return std::move(b.data());
}

Result<bool> write_perf_data(const std::string& path, const Profile& profile, const PerfHeaderInfo& info) {
    const std::vector<std::uint8_t> bytes = perf_data_bytes(profile, info);
    struct stat st;
    const bool exists = stat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        // A device or a pipe (/dev/null, a FIFO a reader waits on) is written to, never moved or replaced: renaming
        // over /dev/null would leave a regular file in its place for everyone.
        std::ofstream out(path, std::ios::binary);
        if (!out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())) ||
            !out.flush())
            return make_error(ErrorCode::System, path + ": cannot be written");
        return true;
    }
    // perf's habit: a new recording does not silently destroy the last one, which becomes PATH.old.
    if (exists && std::rename(path.c_str(), (path + ".old").c_str()) != 0)
        return make_error(ErrorCode::System, path + ".old: " + std::strerror(errno));
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())) ||
            !out.flush())
            return make_error(ErrorCode::System, temporary + ": cannot be written");
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
        return make_error(ErrorCode::System, path + ": " + std::strerror(errno));
    return true;
}

}  // namespace netburst::emu::run
