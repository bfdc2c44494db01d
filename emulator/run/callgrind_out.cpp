#include "emulator/run/callgrind_out.h"

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "emulator/run/elf_file.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

namespace {

const char* const kKernelObject = "[synthetic kernel path of netburst-run]";

// The file's cost columns: per event, its exact count and samples x period (event i: columns 2i and 2i + 1).
struct Cost {
    std::vector<std::uint64_t> columns;
    void add(std::size_t column, std::uint64_t n) {
        if (columns.size() <= column) columns.resize(column + 1);
        columns[column] += n;
    }
    // The columns as a cost line writes them: every one, zeros included.
    std::string text(std::size_t n) const {
        std::string t;
        for (std::size_t i = 0; i < n; ++i) t += " " + std::to_string(i < columns.size() ? columns[i] : 0);
        return t;
    }
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
        if (p.in_kernel(ip)) {
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

// Event i's two column names: Exact and Sampled for one event (the names a one-event file has always had), with the
// event's number from 1 when there are several.
std::string column_name(const char* kind, std::size_t i, std::size_t events) {
    return events == 1 ? std::string(kind) : kind + std::to_string(i + 1);
}

// The header lines that say what was sampled and name the columns.
void write_events(std::ostringstream& out, const std::vector<SampledEvent>& events) {
    const std::size_t n = events.size();
    for (std::size_t i = 0; i < n; ++i) {
        const SampledEvent& e = events[i];
        out << "desc: Event" << (n == 1 ? "" : " " + std::to_string(i + 1)) << ": " << e.name << " (" << e.native
            << "), one sample every " << e.period << " events, "
            << (e.precise ? "PEBS (the sampled instruction caused the event)"
                          : "IEBS (the sample is where the overflow interrupt returned)")
            << "\n";
    }
    out << "positions: instr line\n";
    std::string names;
    for (std::size_t i = 0; i < n; ++i) {
        const std::string exact = column_name("Exact", i, n), sampled = column_name("Sampled", i, n);
        out << "event: " << exact << " : " << events[i].native << ", exact count of each instruction's events\n";
        out << "event: " << sampled << " : " << events[i].native << ", samples x period at the sampled instruction\n";
        names += " " + exact + " " + sampled;
    }
    out << "events:" << names << "\n";
}

}  // namespace

std::string callgrind_text(const Profile& profile) {
    const std::vector<SampledEvent>& events = profile.events;
    const std::size_t columns = 2 * events.size();
    std::map<Key, Line> lines;
    Placer placer;
    for (const Process& p : profile.processes)
        for (std::size_t i = 0; i < p.exact.size(); ++i)
            for (const auto& [ip, n] : p.exact[i]) {
                Line& l = lines[placer.key(p, ip)];
                l.has_self = true;
                l.self.add(2 * i, n);
            }
    for (const Sample& s : profile.samples) {
        Line& l = lines[placer.key(profile.image_of(s), s.ip)];
        l.has_self = true;
        l.self.add(2 * s.event + 1, events.at(s.event).period);
    }
    // Edges of every image, as the costs: images that share an object and its functions add up.
    for (const Process& p : profile.processes)
        for (const auto& [ends, edge] : p.calls) {
            Call& c = lines[placer.key(p, ends.first)].calls[placer.key(p, ends.second)];
            c.count += edge.calls;
            for (std::size_t i = 0; i < edge.exact.size() && i < events.size(); ++i) {
                c.inclusive.add(2 * i, edge.exact[i]);
                c.inclusive.add(2 * i + 1, edge.samples[i] * events[i].period);
            }
        }

    Cost total;
    for (const auto& [k, l] : lines)
        for (std::size_t i = 0; i < l.self.columns.size(); ++i) total.add(i, l.self.columns[i]);
    std::ostringstream out;
    out << "# callgrind format\n";
    out << "version: 1\n";
    out << "creator: netburst-run record\n";
    if (!profile.processes.empty()) out << "pid: " << profile.processes.front().pid << "\n";
    out << "cmd: " << join(profile.command) << "\n";
    out << "part: 1\n\n";
    const unsigned model = profile.machine.model;
    out << "desc: Emulated processor: Intel Pentium 4, family 0FH model " << model << " (" << model_codename(model)
        << ")\n";
    write_events(out, events);
    out << "summary:" << total.text(columns) << "\n\n";
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
            out << "0x" << std::hex << k.address << std::dec << " " << k.line << l.self.text(columns) << "\n";
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
            out << "0x" << std::hex << k.address << std::dec << " " << k.line << c.inclusive.text(columns) << "\n";
        }
    }
    out << "\ntotals:" << total.text(columns) << "\n";
    return out.str();
}

Result<bool> write_callgrind(const std::string& path, const Profile& profile) {
    std::ofstream out(path, std::ios::trunc);
    if (!(out << callgrind_text(profile)) || !out.flush())
        return make_error(ErrorCode::System, path + ": cannot be written");
    return true;
}

}  // namespace netburst::emu::run
