#include "emulator/run/callgrind_out.h"

#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "emulator/run/elf_file.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

namespace {

constexpr std::uint64_t kKernelStart = 0xffff800000000000ull;
const char* const kKernelObject = "[synthetic kernel path of netburst-run]";

struct Cost {
    std::uint64_t exact = 0;
    std::uint64_t sampled = 0;
};

// One instruction's place in the output: object, file, function, then its address in the object's terms.
struct Key {
    std::string object, file, function;
    std::uint64_t address = 0;
    unsigned line = 0;
    bool operator<(const Key& o) const {
        return std::tie(object, file, function, address, line) < std::tie(o.object, o.file, o.function, o.address, o.line);
    }
};

class Placer {
public:
    Key key(const Process& p, std::uint64_t ip) {
        Key k;
        k.address = ip;
        if (ip >= kKernelStart) {
            k.object = kKernelObject;
        } else if (const Mapping* m = p.map_of(ip)) {
            k.object = m->path;
            const ElfInfo& elf = elf_of(m->path);
            std::uint64_t vaddr = 0;
            if (elf.valid && elf.vaddr_of(ip - m->start + m->pgoff, &vaddr)) k.address = vaddr;
        } else {
            k.object = "???";
        }
        const auto place = p.places.find(ip);
        if (place != p.places.end()) {
            k.function = place->second.function;
            k.file = place->second.file;
            k.line = place->second.line;
        }
        if (k.function.empty()) k.function = "???";
        if (k.file.empty()) k.file = "???";
        return k;
    }

private:
    const ElfInfo& elf_of(const std::string& path) {
        auto it = elves_.find(path);
        if (it == elves_.end()) it = elves_.emplace(path, read_elf(path)).first;
        return it->second;
    }
    std::map<std::string, ElfInfo> elves_;
};

// The calls from one instruction to one callee, and their inclusive cost.
struct Call {
    std::uint64_t count = 0;
    Cost inclusive;
};

// What the file says at one instruction: its own cost (when it has one) and its calls, by callee.
struct Line {
    bool has_self = false;
    Cost self;
    std::map<Key, Call> calls;
};

std::string join(const std::vector<std::string>& words) {
    std::string s;
    for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

}  // namespace

std::string callgrind_text(const Profile& profile) {
    const SampledEvent& e = profile.event;
    std::map<Key, Line> lines;
    Placer placer;
    for (const Process& p : profile.processes)
        for (const auto& [ip, n] : p.exact) {
            Line& l = lines[placer.key(p, ip)];
            l.has_self = true;
            l.self.exact += n;
        }
    for (const Sample& s : profile.samples) {
        Line& l = lines[placer.key(profile.image_of(s), s.ip)];
        l.has_self = true;
        l.self.sampled += e.period;
    }
    // Edges of every image, as the costs: images that share an object and its functions add up.
    for (const Process& p : profile.processes)
        for (const auto& [ends, edge] : p.calls) {
            Call& c = lines[placer.key(p, ends.first)].calls[placer.key(p, ends.second)];
            c.count += edge.calls;
            c.inclusive.exact += edge.exact;
            c.inclusive.sampled += edge.samples * e.period;
        }

    Cost total;
    for (const auto& [k, l] : lines) {
        total.exact += l.self.exact;
        total.sampled += l.self.sampled;
    }
    std::ostringstream out;
    out << "# callgrind format\n";
    out << "version: 1\n";
    out << "creator: netburst-run record\n";
    if (!profile.processes.empty()) out << "pid: " << profile.processes.front().pid << "\n";
    out << "cmd: " << join(profile.command) << "\n";
    out << "part: 1\n\n";
    out << "desc: Emulated processor: Intel Pentium 4, family 0FH model " << e.model << " ("
        << model_codename(e.model) << ")\n";
    out << "desc: Event: " << e.name << " (" << e.native << "), one sample every " << e.period << " events, "
        << (e.precise ? "PEBS (the sampled instruction caused the event)"
                      : "IEBS (the sample is where the overflow interrupt returned)")
        << "\n";
    out << "positions: instr line\n";
    out << "event: Exact : " << e.native << ", exact count of each instruction's events\n";
    out << "event: Sampled : " << e.native << ", samples x period at the sampled instruction\n";
    out << "events: Exact Sampled\n";
    out << "summary: " << total.exact << " " << total.sampled << "\n\n";
    std::string object, file, function;
    for (const auto& [k, l] : lines) {
        if (k.object != object) {
            out << "ob=" << k.object << "\n";
            object = k.object;
            file.clear();
            function.clear();
        }
        if (k.file != file) {
            out << "fl=" << k.file << "\n";
            file = k.file;
            function.clear();
        }
        if (k.function != function) {
            out << "fn=" << k.function << "\n";
            function = k.function;
        }
        if (l.has_self)
            out << "0x" << std::hex << k.address << std::dec << " " << k.line << " " << l.self.exact << " "
                << l.self.sampled << "\n";
        // Each call after the caller's own line: the callee's object, file and function, the call count with the
        // callee's entry position, then the inclusive cost at the call site's position. Every call line names all
        // three, so that no reader depends on what an earlier call line set.
        for (const auto& [callee, c] : l.calls) {
            // The tool counts every call once, so no edge is without one; callgrind_annotate would read the cost
            // line of a `calls=0` as the caller's own cost.
            if (c.count == 0) continue;
            out << "cob=" << callee.object << "\n";
            out << "cfi=" << callee.file << "\n";
            out << "cfn=" << callee.function << "\n";
            out << "calls=" << c.count << " 0x" << std::hex << callee.address << std::dec << " " << callee.line << "\n";
            out << "0x" << std::hex << k.address << std::dec << " " << k.line << " " << c.inclusive.exact << " "
                << c.inclusive.sampled << "\n";
        }
    }
    out << "\ntotals: " << total.exact << " " << total.sampled << "\n";
    return out.str();
}

Result<bool> write_callgrind(const std::string& path, const Profile& profile) {
    std::ofstream out(path, std::ios::trunc);
    if (!(out << callgrind_text(profile)) || !out.flush())
        return make_error(ErrorCode::System, path + ": cannot be written");
    return true;
}

}  // namespace netburst::emu::run
