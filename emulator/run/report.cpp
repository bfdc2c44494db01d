#include "emulator/run/report.h"

#include <dirent.h>

#include <algorithm>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "emulator/protocol/results_file.h"
#include "table/cpu_model.h"

namespace netburst::emu::run {

std::string with_commas(std::int64_t v) {
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return v < 0 ? "-" + out : out;
}

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
    return out;
}

std::string signal_name(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

// Adds one process image's event values to the totals, and each estimate's half-width to `estimates` (per program
// event); false when an event's index is outside the program.
bool add_events(const vg::ProcessResults& r, RunTotals* t, std::vector<std::vector<std::uint64_t>>* estimates) {
    for (unsigned i = 0; i < r.num_events; ++i) {
        const vg::EventResult& e = r.events[i];
        if (e.index >= t->values.size()) return false;
        t->values[e.index] += e.value;
        if (e.unsupported) t->unsupported[e.index] = true;
        if (e.estimated) {
            t->estimated[e.index] = true;
            (*estimates)[e.index].push_back(e.half_width);
        }
    }
    return true;
}

// What a user event's value adds up of its terms (combine_terms): all of them for Add and Sub, else the first.
std::size_t contributing_terms(const UserEvent& u, std::size_t terms) {
    const bool all = u.derivation == PresetDerivation::Add || u.derivation == PresetDerivation::Sub;
    return all ? terms : std::min<std::size_t>(terms, 1);
}

// The program events that read a user event's terms on one logical processor, in the order of its terms.
struct Terms {
    std::vector<std::uint64_t> values, half_widths;
    std::vector<bool> estimated;
    bool unsupported = false;
};
Terms terms_on(const EventPlan& plan, const RunTotals& totals, const UserEvent& u, unsigned lp) {
    Terms t;
    for (std::size_t request : u.terms) {
        for (std::size_t k = 0; k < plan.program_request.size(); ++k) {
            if (plan.program_request[k] != request || plan.program.events[k].lp != lp) continue;
            t.values.push_back(totals.values[k]);
            t.half_widths.push_back(totals.half_widths[k]);
            t.estimated.push_back(totals.estimated[k]);
            if (totals.unsupported[k]) t.unsupported = true;
        }
    }
    return t;
}

// Columns on a terminal: UTF-8 continuation bytes take none (the interval's plus-minus sign is two bytes).
std::size_t display_width(const std::string& text) {
    auto takes_a_column = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), takes_a_column));
}

bool shows_value(const EventValue& e) { return !e.unsupported && !e.not_counted; }

// The event lines of the text report: the count right-aligned, then (when any event is an estimate) the intervals
// in a column of their own, then the event and its natives.
std::string event_lines(const RunDescription& run, const std::vector<EventValue>& events, unsigned pmus) {
    std::size_t interval_width = 0;
    for (const EventValue& e : events)
        if (e.estimated && shows_value(e))
            interval_width = std::max(interval_width, display_width(format_interval(e.value, e.half_width)));
    std::ostringstream o;
    for (const EventValue& e : events) {
        char line[512];
        const std::string value = e.not_counted ? "not counted" : e.unsupported ? "unsupported" : with_commas(e.value);
        std::string interval = e.estimated && shows_value(e) ? format_interval(e.value, e.half_width) : "";
        if (interval_width != 0)
            interval = " " + interval + std::string(interval_width - display_width(interval), ' ');
        std::string what = join(e.natives, " + ");
        if (e.natives.size() == 1 && e.natives[0] == e.name) what.clear();
        if (pmus > 1) what = "[PMU " + std::to_string(e.pmu) + "] " + what;
        std::snprintf(line, sizeof line, "  %20s%s   %-22s %s\n", value.c_str(), interval.c_str(), e.name.c_str(),
                      what.c_str());
        o << line;
        if (run.machine.hyper_threading && shows_value(e))
            for (std::size_t lp = 0; lp < e.per_processor.size(); ++lp)
                o << "  " << std::string(20 - std::min<std::size_t>(20, with_commas(e.per_processor[lp]).size()), ' ')
                  << with_commas(e.per_processor[lp]) << "     on logical processor " << lp << "\n";
    }
    return o.str();
}

}  // namespace

std::uint64_t combine_in_quadrature(const std::vector<std::uint64_t>& half_widths) {
    // long double holds the square of any half-width below 2^32 exactly, so one part comes back unchanged.
    long double squares = 0;
    for (std::uint64_t h : half_widths) {
        if (h == vg::kUnboundedHalfWidth) return h;  // one part unbounded: the sum is too
        squares += static_cast<long double>(h) * static_cast<long double>(h);
    }
    return static_cast<std::uint64_t>(std::ceil(std::sqrt(squares)));
}

std::string format_interval(std::int64_t value, std::uint64_t half_width) {
    if (half_width == vg::kUnboundedHalfWidth) return "\u00b1 ? (too rare in the sampled units to bound: --timing=exact)";
    std::string text = "\u00b1 " + with_commas(static_cast<std::int64_t>(half_width)) + " (";
    if (value != 0) {
        char relative[32];
        std::snprintf(relative, sizeof relative, "%.1f %%, ",
                      100.0 * static_cast<double>(half_width) / std::abs(static_cast<double>(value)));
        text += relative;
    }
    return text + "99.7 %)";
}

Result<RunTotals> read_results(const std::string& dir, std::size_t program_events) {
    RunTotals t;
    t.values.assign(program_events, 0);
    t.unsupported.assign(program_events, false);
    t.estimated.assign(program_events, false);
    std::vector<std::vector<std::uint64_t>> estimates(program_events);  // each process's half-width
    DIR* d = opendir(dir.c_str());
    if (!d) return make_error(ErrorCode::System, dir + ": cannot be read");
    std::set<std::uint64_t> pids;
    std::vector<std::string> files;
    while (dirent* e = readdir(d))
        if (std::strncmp(e->d_name, "nb-", 3) == 0) files.push_back(dir + "/" + e->d_name);
    closedir(d);
    for (const std::string& path : files) {
        std::ifstream in(path);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        if (text.empty()) continue;  // created, but the image ended before writing (killed)
        vg::ProcessResults r;
        unsigned line = 0;
        if (const char* error = vg::parse_results(text.data(), text.size(), &r, &line))
            return make_error(ErrorCode::System, path + ":" + std::to_string(line) + ": " + error);
        ++t.images;
        pids.insert(r.pid);
        t.threads += r.threads;
        t.instructions += r.instructions;
        t.syscalls += r.syscalls;
        t.timer_interrupts += r.timer_interrupts;
        t.pmu_taken = t.pmu_taken || r.pmu_taken;
        if (r.missing.count != 0 && (t.missing == 0 || r.pid < t.missing_first_pid)) {
            t.missing_first_pid = r.pid;
            t.missing_first_pc = r.missing.first_pc;
            t.missing_first_extension = r.missing.first_extension;
            t.missing_first_symbol = r.missing.first_symbol;
        }
        t.missing += r.missing.count;
        if (!add_events(r, &t, &estimates)) return make_error(ErrorCode::System, path + ": unknown event index");
    }
    t.processes = static_cast<unsigned>(pids.size());
    for (const std::vector<std::uint64_t>& parts : estimates) t.half_widths.push_back(combine_in_quadrature(parts));
    return t;
}

std::vector<EventValue> event_values(const EventPlan& plan, const RunTotals& totals, unsigned lps) {
    std::vector<EventValue> out;
    for (const UserEvent& u : plan.events) {
        EventValue v;
        v.name = u.name;
        v.natives = u.natives;
        v.pmu = u.pmu;
        v.not_counted = totals.pmu_taken && u.pmu == 0;  // the program reaches only PMU 0
        for (unsigned lp = 0; lp < lps; ++lp) {
            const Terms terms = terms_on(plan, totals, u, lp);
            if (terms.unsupported) v.unsupported = true;
            v.per_processor.push_back(combine_terms(u, terms.values));
            v.value += v.per_processor.back();
            // The terms, and both logical processors, are measured in the same sampled units, so their errors may
            // be correlated: their half-widths add, a bound whatever the correlation.
            for (std::size_t i = 0; i < contributing_terms(u, terms.values.size()); ++i) {
                v.estimated = v.estimated || terms.estimated[i];
                const bool unbounded = terms.half_widths[i] == vg::kUnboundedHalfWidth ||
                                       v.half_width == vg::kUnboundedHalfWidth;
                v.half_width = unbounded ? vg::kUnboundedHalfWidth : v.half_width + terms.half_widths[i];
            }
        }
        out.push_back(std::move(v));
    }
    return out;
}

std::string describe_missing(unsigned model, const RunTotals& t) {
    char pc[32];
    std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(t.missing_first_pc));
    return with_commas(static_cast<std::int64_t>(t.missing)) + (t.missing == 1 ? " instruction" : " instructions") +
           " that Pentium 4 model " + std::to_string(model) + " does not have ran (counted as executed); the first, " +
           t.missing_first_extension + ", at " + pc +
           (t.missing_first_symbol.empty() ? "" : " in " + t.missing_first_symbol);
}

std::string format_text(const RunDescription& run, const std::vector<EventValue>& events, const RunTotals& t) {
    unsigned pmus = 1;
    for (const EventValue& e : events) pmus = std::max(pmus, e.pmu + 1);
    std::ostringstream o;
    o << "\n netburst-run: " << join(run.command, " ") << "\n";
    o << " (emulated Pentium 4 model " << run.machine.model << ", " << model_codename(run.machine.model)
      << (run.machine.has_l3 ? ", with L3" : "") << (run.machine.hyper_threading ? ", two logical processors" : "")
      << (run.cpu_wide ? ", CPU-wide counts" : "") << "; " << t.processes << (t.processes == 1 ? " process, " : " processes, ")
      << t.threads << (t.threads == 1 ? " thread" : " threads")
      << (run.rank >= 0 ? "; MPI rank " + std::to_string(run.rank) + " on " + run.host : std::string()) << ")\n";
    if (pmus > 1)
        o << " (the events need " << pmus
          << " PMUs: PMU 0 is the one the program sees, the others watch the same core)\n";
    o << "\n" << event_lines(run, events, pmus);
    if (!events.empty()) o << "\n";
    bool any_not_counted = false;
    for (const EventValue& e : events) any_not_counted = any_not_counted || e.not_counted;
    if (any_not_counted)
        o << "  not counted: the program programs the PMU itself (PAPI, or wrmsr through the emulator) and wrote the\n"
             "  registers of these events, so their counters hold its counts. Run it without -e to let it count, or\n"
             "  count these events in a program that leaves the PMU alone.\n\n";
    o << "  " << with_commas(static_cast<std::int64_t>(t.instructions)) << " guest instructions emulated, "
      << with_commas(static_cast<std::int64_t>(t.syscalls)) << " system calls"
      << (run.kernel_model ? " (each ran the synthetic kernel path)" : " (kernel model off)");
    if (run.timer_tick != 0)
        o << ", " << with_commas(static_cast<std::int64_t>(t.timer_interrupts)) << " timer interrupts";
    o << "\n";
    if (run.sampled_timing)
        o << "  --timing=sampled: architectural events are exact; cycle-driven ones (cycles, stalls, replays...) are\n"
             "  estimates from sampled units, shown \u00b1 the half-width of their 99.7 % confidence interval\n";
    if (t.missing != 0) o << "  " << describe_missing(run.machine.model, t) << "\n";
    if (run.signaled)
        o << "  the program was killed by " << signal_name(run.status) << "; the counts are up to that point\n";
    o << "\n";
    return o.str();
}

std::string format_json(const RunDescription& run, const std::vector<EventValue>& events, const RunTotals& t) {
    using json = nlohmann::ordered_json;
    json j;
    j["command"] = run.command;
    // Which process of a parallel job this is: the key `netburst-run merge` joins the ranks' reports on.
    if (run.rank >= 0) j["rank"] = run.rank;
    j["host"] = run.host;
    j["emulator"] = {{"model", run.machine.model},
                     {"codename", model_codename(run.machine.model)},
                     {"l3", run.machine.has_l3},
                     {"hyper_threading", run.machine.hyper_threading},
                     {"per_thread", !run.cpu_wide},
                     {"kernel_model", run.kernel_model},
                     {"timer_tick", run.timer_tick},
                     {"timing", run.sampled_timing ? "sampled" : "exact"}};
    if (run.signaled) j["exit"] = {{"signal", run.status}, {"name", signal_name(run.status)}};
    else j["exit"] = {{"status", run.status}};
    j["processes"] = t.processes;
    j["threads"] = t.threads;
    j["instructions"] = t.instructions;
    j["syscalls"] = t.syscalls;
    j["timer_interrupts"] = t.timer_interrupts;
    j["pmu_taken"] = t.pmu_taken;
    json missing = {{"count", t.missing}};
    if (t.missing != 0) {
        char pc[32];
        std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(t.missing_first_pc));
        missing["first"] = {{"address", pc}, {"extension", t.missing_first_extension}};
        if (!t.missing_first_symbol.empty()) missing["first"]["symbol"] = t.missing_first_symbol;
    }
    j["missing_instructions"] = missing;
    json list = json::array();
    for (const EventValue& e : events) {
        json v = {{"event", e.name}, {"native", e.natives}, {"pmu", e.pmu}};
        if (e.not_counted) v["value"] = "not counted";
        else if (e.unsupported) v["value"] = "unsupported";
        else v["value"] = e.value;
        if (e.estimated && shows_value(e)) {
            v["estimated"] = true;
            // null: the sample does not bound it (too few events in its units)
            if (e.half_width == vg::kUnboundedHalfWidth) v["ci_half_width"] = nullptr;
            else v["ci_half_width"] = e.half_width;
        }
        if (run.machine.hyper_threading && !e.unsupported && !e.not_counted) v["logical_processors"] = e.per_processor;
        list.push_back(v);
    }
    j["events"] = list;
    return j.dump(2) + "\n";
}

}  // namespace netburst::emu::run
