#include "emulator/run/sample_input.h"

#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "emulator/protocol/plain_text.h"
#include "emulator/protocol/sample_file.h"

namespace netburst::emu::run {

namespace {

using vg::LineScanner;

Error bad_line(unsigned line, const std::string& what) {
    return make_error(ErrorCode::BadInput, "samples file, line " + std::to_string(line) + ": " + what);
}

std::string rest(LineScanner& s) {
    const char* b = nullptr;
    std::size_t n = 0;
    s.rest(&b, &n);
    return std::string(b ? b : "", n);
}

// Exactly n numbers up to the end of the line.
bool numbers(LineScanner& s, std::size_t n, std::vector<std::uint64_t>* out) {
    out->assign(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        if (!s.number(&(*out)[i])) return false;
    return s.at_line_end();
}

void note_thread(Process& p, std::uint32_t tid) {
    if (std::find(p.tids.begin(), p.tids.end(), tid) == p.tids.end()) p.tids.push_back(tid);
}

// The zero-filled end of an object's data segment (.bss) is anonymous memory right after its writable file
// mapping. Named after the object, continuing its file offsets, it lets perf put the object's static data symbols
// on data addresses (perf mem report's "Data Symbol").
void name_bss(Process* p) {
    for (std::size_t i = 1; i < p->maps.size(); ++i) {
        Mapping& m = p->maps[i];
        const Mapping& before = p->maps[i - 1];
        if (m.path != "//anon" || before.path == "//anon" || !(before.prot & 2) ||
            before.start + before.length != m.start)
            continue;
        m.path = before.path;
        m.pgoff = before.pgoff + before.length;
        m.dev = before.dev;
        m.inode = before.inode;
    }
}

}  // namespace

const Mapping* Process::map_of(std::uint64_t address) const {
    for (const Mapping& m : maps)
        if (m.contains(address)) return &m;
    return nullptr;
}

std::string Process::comm() const {
    const std::size_t slash = exe.rfind('/');
    std::string name = slash == std::string::npos ? exe : exe.substr(slash + 1);
    if (name.size() > 15) name.resize(15);  // TASK_COMM_LEN - 1: what the kernel would report
    return name;
}

Result<bool> parse_samples_text(const std::string& text, Profile* profile) {
    LineScanner s(text.data(), text.size());
    if (!s.next_line() || !s.keyword("netburst-samples")) return bad_line(1, "not a samples file");
    std::uint64_t version = 0;
    if (!s.number(&version) || version != vg::kSamplesFileVersion)
        return bad_line(1, "unsupported samples-file version");
    std::size_t events = 0;  // the `events` line's N: how many numbers `count` and `call` lines hold
    Process* current = nullptr;
    std::size_t image = 0;
    std::size_t last_sample = 0;  // 1 + the index of the sample a `chain` line may follow (0: none)
    while (s.next_line()) {
        const unsigned line = s.line();
        const char* w;
        std::size_t n;
        s.word(&w, &n);
        const std::string key(w, n);
        const std::size_t chain_of = last_sample;  // a `chain` line belongs to the sample on the line before
        last_sample = 0;
        std::uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
        if (key == "netburst-samples") {  // a later image of the same process, appended
            if (!s.number(&a) || a != vg::kSamplesFileVersion)
                return bad_line(line, "unsupported samples-file version");
            continue;
        }
        if (key == "events") {
            if (!s.number(&a) || a == 0 || !s.at_line_end()) return bad_line(line, "expected 'events N'");
            if ((events != 0 && a != events) || (!profile->events.empty() && a != profile->events.size()))
                return bad_line(line, "the file samples " + std::to_string(a) + " events, the recording " +
                                          std::to_string(events != 0 ? events : profile->events.size()));
            events = a;
            continue;
        }
        if (key == "process") {
            if (events == 0) return bad_line(line, "'process' before the 'events' line");
            if (!s.number(&a) || a == 0 || a > 0xFFFFFFFFu) return bad_line(line, "expected 'process PID EXE'");
            if (current) return bad_line(line, "a second 'process' line (one process image per file)");
            image = profile->processes.size();
            profile->processes.emplace_back();
            current = &profile->processes.back();
            current->pid = static_cast<std::uint32_t>(a);
            current->exe = rest(s);
            current->exact.resize(events);
            continue;
        }
        if (key == "end") continue;
        if (!current) return bad_line(line, "'" + key + "' before any 'process' line");
        if (key == "i" || key == "p") {
            if (!s.number(&e) || !s.number(&a) || !s.number(&b) || !s.number(&c))
                return bad_line(line, "expected '" + key + " EVENT TID CYCLE IP'");
            if (e >= events) return bad_line(line, "event " + std::to_string(e) + " is not one of the recording's");
            Sample sample;
            sample.event = static_cast<unsigned>(e);
            sample.image = image;
            sample.pid = current->pid;
            sample.tid = static_cast<std::uint32_t>(a);
            sample.time = b;
            sample.ip = c;
            sample.precise = key == "p";
            if (sample.precise && !s.at_line_end()) {
                if (!s.number(&d)) return bad_line(line, "expected a data address");
                sample.has_addr = true;
                sample.addr = d;
            }
            if (!s.at_line_end()) return bad_line(line, "trailing words");
            note_thread(*current, sample.tid);
            profile->samples.push_back(sample);
            last_sample = profile->samples.size();
        } else if (key == "chain") {
            if (chain_of == 0) return bad_line(line, "a 'chain' line that follows no sample");
            std::vector<std::uint64_t>& callers = profile->samples[chain_of - 1].callers;
            while (!s.at_line_end()) {
                if (!s.number(&a)) return bad_line(line, "expected 'chain [RET...]'");
                callers.push_back(a);
            }
        } else if (key == "kernel") {
            if (!s.number(&a) || !s.number(&b) || !s.at_line_end() || b <= a)
                return bad_line(line, "expected 'kernel LO HI' with LO < HI");
            current->kernel_low = a;
            current->kernel_high = b;
        } else if (key == "chain-overflow") {
            if (!s.number(&a) || !s.at_line_end()) return bad_line(line, "expected 'chain-overflow N'");
            current->chain_overflow += a;
        } else if (key == "cycles") {
            if (!s.number(&a) || !s.at_line_end()) return bad_line(line, "expected 'cycles N'");
            if (a > current->cycles) current->cycles = a;
        } else if (key == "lost") {
            if (!s.number(&a) || !s.at_line_end()) return bad_line(line, "expected 'lost N'");
            current->lost += a;
        } else if (key == "count") {
            std::vector<std::uint64_t> counts;
            if (!s.number(&a) || !numbers(s, events, &counts))
                return bad_line(line, "expected 'count IP C...' with " + std::to_string(events) + " counts");
            for (std::size_t i = 0; i < events; ++i)
                if (counts[i] != 0) current->exact[i][a] += counts[i];
        } else if (key == "call") {
            std::vector<std::uint64_t> costs;
            if (!s.number(&a) || !s.number(&b) || !s.number(&c) || !numbers(s, 2 * events, &costs))
                return bad_line(line, "expected 'call SITE CALLEE CALLS EXACT SAMPLES...' with " +
                                          std::to_string(events) + " pairs");
            CallEdge& edge = current->calls[{a, b}];
            edge.calls += c;
            edge.exact.resize(events);
            edge.samples.resize(events);
            for (std::size_t i = 0; i < events; ++i) {
                edge.exact[i] += costs[2 * i];
                edge.samples[i] += costs[2 * i + 1];
            }
        } else if (key == "fn") {
            if (!s.number(&a)) return bad_line(line, "expected 'fn IP NAME'");
            current->places[a].function = rest(s);
        } else if (key == "src") {
            if (!s.number(&a) || !s.number(&b)) return bad_line(line, "expected 'src IP LINE FILE'");
            SourcePlace& place = current->places[a];
            place.line = static_cast<unsigned>(b);
            place.file = rest(s);
        } else if (key == "map") {
            if (!s.number(&a) || !s.number(&b) || !s.number(&c) || !s.number(&d) || !s.number(&e) || !s.number(&f))
                return bad_line(line, "expected 'map START LEN PGOFF PROT DEV INO PATH'");
            Mapping m{a, b, c, static_cast<std::uint32_t>(d), e, f, rest(s)};
            if (m.path.empty() || m.length == 0) return bad_line(line, "a mapping needs a length and a path");
            const bool known = std::any_of(current->maps.begin(), current->maps.end(), [&](const Mapping& x) {
                return x.start == m.start && x.length == m.length && x.path == m.path;
            });
            if (!known) current->maps.push_back(m);
        } else {
            return bad_line(line, "unknown line '" + key + "'");
        }
    }
    return true;
}

Result<bool> read_samples_dir(const std::string& dir, Profile* profile) {
    struct File {
        unsigned long pid, k;
        std::string path;
    };
    std::vector<File> files;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            unsigned long pid = 0, k = 0;
            if (std::sscanf(e->d_name, "samples-%lu-%lu", &pid, &k) == 2) files.push_back({pid, k, dir + "/" + e->d_name});
        }
        closedir(d);
    }
    std::sort(files.begin(), files.end(),
              [](const File& a, const File& b) { return a.pid != b.pid ? a.pid < b.pid : a.k < b.k; });
    for (const File& file : files) {
        std::ifstream in(file.path);
        std::stringstream text;
        text << in.rdbuf();
        auto parsed = parse_samples_text(text.str(), profile);
        if (!parsed) return make_error(ErrorCode::BadInput, file.path + ": " + parsed.error().message);
    }
    // A pid's later images start where the one before ended.
    for (std::size_t i = 1; i < profile->processes.size(); ++i) {
        Process& p = profile->processes[i];
        const Process& before = profile->processes[i - 1];
        if (p.pid != before.pid) continue;
        p.after_exec = true;
        p.time_offset = before.time_offset + before.cycles + 1;
    }
    for (Sample& s : profile->samples) s.time += profile->processes[s.image].time_offset;
    for (Process& p : profile->processes) {
        std::sort(p.maps.begin(), p.maps.end(), [](const Mapping& a, const Mapping& b) { return a.start < b.start; });
        name_bss(&p);
        // The main thread (tid == pid) first: perf names a process after it.
        std::stable_sort(p.tids.begin(), p.tids.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return (a == p.pid) > (b == p.pid); });
    }
    std::stable_sort(profile->samples.begin(), profile->samples.end(),
                     [](const Sample& a, const Sample& b) { return a.time < b.time; });
    return true;
}

}  // namespace netburst::emu::run
