// netburst-emu: the cycle emulator on trace files. See doc/emulator.md and doc/trace-format.md.
#include <getopt.h>

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "emulator/tools/replay.h"
#include "emulator/trace/trace_file.h"
#include "events/status.h"
#include "table/cpu_model.h"
#include "table/hex.h"

namespace {

using namespace netburst;
using namespace netburst::emu;
using json = nlohmann::ordered_json;

const char* kUsage =
    "Usage: netburst-emu replay TRACE [TRACE2] [--model N] [--l3] [--events EV,...] [--msr FILE] [--timing] [--json]\n"
    "       netburst-emu convert IN OUT [--to text|binary]\n"
    "Run instruction traces through the NetBurst cycle emulator (PMU and core model).\n"
    "\n"
    "replay   runs TRACE on logical processor 0 (and TRACE2 on logical processor 1 of the same core),\n"
    "         prints the counters, cycles and uops retired, and any PMI and PEBS records.\n"
    "  --model N        CPU model of family 0FH: 0, 1, 2 (default, Northwood), 3, 4, 6\n"
    "  --l3             the Xeon MP variant of the model, with an L3 cache\n"
    "  --ht             two logical processors even with one trace (its lines say thread=0/1)\n"
    "  --events LIST    comma-separated event strings, programmed as the PAPI component does (allocator and\n"
    "                   encoder); with two logical processors, on each of them\n"
    "  --msr FILE       apply 'wrmsr ADDR VALUE [thread=T]' and 'poke ADDR VALUE' lines before the trace\n"
    "  --pmi-skid N     cycles from an overflow to the PMI being taken (default "
    NB_STRINGIFY_VALUE(NB_DEFAULT_PMI_SKID_CYCLES) ")\n"
    "  --no-pebs        report PEBS as unavailable (IA32_MISC_ENABLE bit 12)\n"
    "  --timing         simulate every cycle (by default only while a counter counts something that depends on\n"
    "                   timing; the other counts are the same either way, the cycle and bogus-uop figures not)\n"
    "  --json           print the results as JSON\n"
    "convert  rewrites a trace in the other form (text <-> binary); --to picks the output form (default: the\n"
    "         opposite of the input)\n"
    "  -h, --help       this help\n"
    "\n"
    "Exit status: 0 on success, 1 when the events cannot be counted together, 2 for bad input.\n";

[[noreturn]] void usage_error(const std::string& m) {
    std::cerr << "netburst-emu: " << m << "\nTry 'netburst-emu --help'.\n";
    std::exit(kExitBadInput);
}

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

json to_json(const ReplayOptions& o, const ReplayResult& r) {
    json threads = json::array();
    for (unsigned t = 0; t < r.logical_processors; ++t)
        threads.push_back({{"thread", t},
                           {"instructions", r.threads[t].instructions},
                           {"uops_retired", r.threads[t].uops_retired},
                           {"bogus_uops", r.threads[t].bogus_uops}});
    json events = json::array();
    for (const EventValue& e : r.events) {
        json j = {{"event", e.event}, {"thread", e.thread}, {"counter", e.counter}};
        if (e.unsupported) j["value"] = "unsupported";
        else j["value"] = e.value;
        events.push_back(j);
    }
    json counters = json::array();
    for (const CounterValue& c : r.counters) {
        json j = {{"counter", c.counter}, {"cccr", hex(c.cccr)}};
        if (c.unsupported) j["value"] = "unsupported";
        else j["value"] = c.value;
        counters.push_back(j);
    }
    json pmis = json::array();
    for (const PmiRecord& p : r.pmis)
        pmis.push_back({{"cycle", p.cycle}, {"thread", p.thread}, {"overflowed", hex(p.overflowed)},
                        {"eip", hex(p.eip)}, {"pebs_threshold", p.pebs_threshold}});
    json pebs = json::array();
    for (const PebsRecord& p : r.pebs)
        pebs.push_back({{"cycle", p.cycle}, {"thread", p.thread}, {"eip", hex(p.eip)}, {"address", hex(p.address)}});
    return {{"model", o.emulator.machine.model},
            {"l3", o.emulator.machine.has_l3},
            {"logical_processors", r.logical_processors},
            {"traces", o.traces},
            {"cycles", r.cycles},
            {"timed_instructions", r.timed_instructions},
            {"threads", threads},
            {"events", events},
            {"counters", counters},
            {"pmis", pmis},
            {"pebs_records", pebs},
            {"lost_records", r.lost_records}};
}

void print_text(const ReplayOptions& o, const ReplayResult& r) {
    const EmulatedMachine& m = o.emulator.machine;
    std::cout << "model " << m.model << " (" << model_codename(m.model) << ")" << (m.has_l3 ? " with L3" : "")
              << ", " << r.logical_processors << " logical processor" << (r.logical_processors > 1 ? "s" : "") << "\n";
    std::uint64_t instructions = 0;
    for (unsigned t = 0; t < r.logical_processors; ++t) instructions += r.threads[t].instructions;
    std::cout << "cycles " << r.cycles;
    if (r.timed_instructions < instructions)
        std::cout << " (simulated for " << r.timed_instructions << " of " << instructions
                  << " instructions: no counter needed cycles for the rest; --timing simulates them all)";
    std::cout << "\n";
    for (unsigned t = 0; t < r.logical_processors; ++t)
        std::cout << "thread " << t << ": instructions " << r.threads[t].instructions << ", uops retired "
                  << r.threads[t].uops_retired << ", bogus uops " << r.threads[t].bogus_uops << "\n";
    if (!r.events.empty()) {
        std::cout << "\nevents:\n";
        for (const EventValue& e : r.events) {
            std::string name = e.event;
            if (r.logical_processors > 1) name += " [thread " + std::to_string(e.thread) + "]";
            if (name.size() < 48) name.resize(48, ' ');
            std::cout << "  " << name << " ";
            if (e.unsupported) std::cout << "unsupported (not modelled)";
            else std::cout << e.value;
            std::cout << "   (counter " << e.counter << ")\n";
        }
    }
    if (!r.counters.empty()) {
        std::cout << "\ncounters:\n";
        for (const CounterValue& c : r.counters) {
            std::cout << "  counter " << c.counter << " (CCCR " << hex(c.cccr) << "): ";
            if (c.unsupported) std::cout << "unsupported (not modelled)\n";
            else std::cout << c.value << "\n";
        }
    }
    std::cout << "\nPMIs: " << r.pmis.size() << "\n";
    for (const PmiRecord& p : r.pmis)
        std::cout << "  cycle " << p.cycle << " thread " << int(p.thread) << " eip " << hex(p.eip) << " overflowed "
                  << hex(p.overflowed) << (p.pebs_threshold ? " (PEBS buffer threshold)" : "") << "\n";
    std::cout << "PEBS records: " << r.pebs.size() << "\n";
    for (const PebsRecord& p : r.pebs)
        std::cout << "  cycle " << p.cycle << " thread " << int(p.thread) << " eip " << hex(p.eip) << " at "
                  << hex(p.address) << "\n";
    if (r.lost_records) std::cout << "records lost: " << r.lost_records << "\n";
}

int replay_command(int argc, char** argv) {
    enum { kModel = 1000, kL3, kHt, kEvents, kMsr, kSkid, kNoPebs, kJson, kTiming };
    static const option opts[] = {{"model", required_argument, nullptr, kModel}, {"l3", no_argument, nullptr, kL3},
                                  {"ht", no_argument, nullptr, kHt},           {"events", required_argument, nullptr, kEvents},
                                  {"msr", required_argument, nullptr, kMsr},   {"pmi-skid", required_argument, nullptr, kSkid},
                                  {"no-pebs", no_argument, nullptr, kNoPebs},  {"json", no_argument, nullptr, kJson},
                                  {"timing", no_argument, nullptr, kTiming},
                                  {"help", no_argument, nullptr, 'h'},         {nullptr, 0, nullptr, 0}};
    ReplayOptions o;
    bool as_json = false;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, nullptr)) != -1) {
        char* end = nullptr;
        switch (c) {
        case kModel: {
            const long m = std::strtol(optarg, &end, 10);
            if (*end || m < 0 || !model_exists(static_cast<unsigned>(m)))
                usage_error(std::string("--model ") + optarg + ": family 0FH models are 0, 1, 2, 3, 4 and 6");
            o.emulator.machine.model = static_cast<unsigned>(m);
            break;
        }
        case kL3: o.emulator.machine.has_l3 = true; break;
        case kHt: o.emulator.machine.hyper_threading = true; break;
        case kEvents: {
            for (const std::string& e : split_commas(optarg)) o.events.push_back(e);
            break;
        }
        case kMsr: o.msr_file = optarg; break;
        case kSkid: {
            const long s = std::strtol(optarg, &end, 10);
            if (*end || s < 0 || s > 100000) usage_error(std::string("--pmi-skid ") + optarg + ": 0-100000 cycles");
            o.emulator.machine.pmi_skid_cycles = static_cast<unsigned>(s);
            break;
        }
        case kNoPebs: o.emulator.pebs_available = false; break;
        case kTiming: o.emulator.force_timing = true; break;
        case kJson: as_json = true; break;
        case 'h': std::cout << kUsage; return kExitOk;
        default: usage_error(std::string("unknown option or missing argument: ") + argv[optind - 1]);
        }
    }
    for (int i = optind; i < argc; ++i) o.traces.push_back(argv[i]);
    if (o.traces.empty()) usage_error("replay needs a trace file");
    if (o.traces.size() > 2) usage_error("replay takes one trace, or two for the two logical processors of a core");
    auto r = run_replay(o);
    if (!r) {
        std::cerr << "netburst-emu: " << r.error().message << "\n";
        return r.error().code == ErrorCode::Conflict ? kExitConflict : kExitBadInput;
    }
    if (as_json) std::cout << to_json(o, *r).dump(2) << "\n";
    else print_text(o, *r);
    return kExitOk;
}

int convert_command(int argc, char** argv) {
    static const option opts[] = {{"to", required_argument, nullptr, 't'}, {nullptr, 0, nullptr, 0}};
    std::string to;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, nullptr)) != -1) {
        if (c == 't' && (std::string(optarg) == "text" || std::string(optarg) == "binary")) to = optarg;
        else usage_error("--to takes text or binary");
    }
    if (argc - optind != 2) usage_error("convert needs an input and an output file");
    const std::string in = argv[optind], out = argv[optind + 1];
    std::string error;
    auto reader = trace::TraceReader::open(in, &error);
    if (!reader) {
        std::cerr << "netburst-emu: " << error << "\n";
        return kExitBadInput;
    }
    if (to.empty()) {  // the opposite of the input's form
        FILE* f = std::fopen(in.c_str(), "rb");
        char magic[8] = {};
        const bool binary = f && std::fread(magic, 1, 8, f) == 8 && std::string(magic, 8) == std::string(trace::kBinaryMagic, 8);
        if (f) std::fclose(f);
        to = binary ? "text" : "binary";
    }
    Instruction insn;
    int status;
    if (to == "binary") {
        auto w = trace::BinaryTraceWriter::create(out, &error);
        if (!w) {
            std::cerr << "netburst-emu: " << error << "\n";
            return kExitBadInput;
        }
        while ((status = reader->next(&insn, &error)) == 1) w->write(insn);
        if (status < 0 || !w->close(&error)) {
            std::cerr << "netburst-emu: " << error << "\n";
            return kExitBadInput;
        }
        return kExitOk;
    }
    FILE* f = std::fopen(out.c_str(), "w");
    if (!f) usage_error(out + ": cannot be written");
    std::fputs("netburst-trace 1\n", f);
    while ((status = reader->next(&insn, &error)) == 1) std::fprintf(f, "%s\n", trace::format_text_line(insn).c_str());
    std::fclose(f);
    if (status < 0) {
        std::cerr << "netburst-emu: " << error << "\n";
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) usage_error("give a command: replay or convert");
    const std::string cmd = argv[1];
    if (cmd == "-h" || cmd == "--help") {
        std::cout << kUsage;
        return kExitOk;
    }
    if (cmd == "replay") return replay_command(argc - 1, argv + 1);
    if (cmd == "convert") return convert_command(argc - 1, argv + 1);
    usage_error("unknown command '" + cmd + "'");
}
