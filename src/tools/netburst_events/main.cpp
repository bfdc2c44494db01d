// netburst-events: the command-line face of the NetBurst hardware table. See doc/netburst-events.md.
#include <getopt.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "alloc/allocator.h"
#include "events/parser.h"
#include "events/status.h"
#include "listing.h"
#include "preset_listing.h"
#include "presets/preset_table.h"
#include "table_json.h"

namespace {

using namespace netburst;

const char* kUsage =
    "Usage: netburst-events [OPTION]...\n"
    "       netburst-events --encode EVENT [--model N] [--thread 0|1] [--domain D]\n"
    "       netburst-events --schedule EVENT... [--model N] [--thread 0|1] [--ht] [--domain D]\n"
    "List, export, encode and schedule Intel NetBurst (Pentium 4) performance-monitoring events.\n"
    "\n"
    "Without an action, list every event, mask and at-retirement metric for a person.\n"
    "\n"
    "Actions:\n"
    "  --json              export the whole hardware table (MSRs, events, masks, metrics) as JSON\n"
    "  --encode EVENT      print, as JSON, every MSR address and value EVENT needs\n"
    "  --schedule EVENT... place the events as one event set and print the assignment as JSON\n"
    "  --markdown          print the Markdown event reference (doc/reference/events.md)\n"
    "  --presets           list the PAPI presets and their recipes\n"
    "  --presets-markdown  print the Markdown preset reference (doc/reference/presets.md)\n"
    "  --papi-csv          print the component's sections of PAPI's preset table (papi_events.csv)\n"
    "\n"
    "Options:\n"
    "  --model N           CPU model (family 0FH): 0, 1, 2, 3, 4 or 6 (default 2, Northwood);\n"
    "                      with no action, list only the events of model N\n"
    "  --thread T          logical processor 0 or 1 (1 implies --ht)\n"
    "  --ht                the package has Hyper-Threading enabled\n"
    "  --domain D          privilege levels for events without :u or :k: user, kernel or all (default all)\n"
    "  -h, --help          show this help and exit\n"
    "  --version           show the version and exit\n"
    "\n"
    "Event syntax: " NETBURST_EVENT_SYNTAX "\n"
    "\n"
    "Exit status: 0 when the events were scheduled (or the action succeeded), 1 when they cannot be counted\n"
    "together (the reason is printed), 2 for bad input.\n";

struct Options {
    enum class Action { List, Json, Encode, Schedule, Markdown, Presets, PresetsMarkdown, PapiCsv } action = Action::List;
    int model = -1;
    unsigned thread = 0;
    bool ht = false;
    Privilege domain{};
    std::vector<std::string> events;
};

[[noreturn]] void usage_error(const std::string& message) {
    std::cerr << "netburst-events: " << message << "\nTry 'netburst-events --help'.\n";
    std::exit(kExitBadInput);
}

bool parse_number(const char* text, long* out) {
    char* end = nullptr;
    *out = std::strtol(text, &end, 10);
    return end != text && *end == '\0';
}

Options parse_options(int argc, char** argv) {
    enum { kJson = 1000, kEncode, kSchedule, kMarkdown, kModel, kThread, kHt, kDomain, kVersion, kPresets, kPresetsMd, kPapiCsv };
    static const option long_options[] = {
        {"json", no_argument, nullptr, kJson},         {"encode", required_argument, nullptr, kEncode},
        {"schedule", no_argument, nullptr, kSchedule}, {"markdown", no_argument, nullptr, kMarkdown},
        {"model", required_argument, nullptr, kModel}, {"thread", required_argument, nullptr, kThread},
        {"ht", no_argument, nullptr, kHt},             {"domain", required_argument, nullptr, kDomain},
        {"help", no_argument, nullptr, 'h'},           {"version", no_argument, nullptr, kVersion},
        {"presets", no_argument, nullptr, kPresets},   {"presets-markdown", no_argument, nullptr, kPresetsMd},
        {"papi-csv", no_argument, nullptr, kPapiCsv},
        {nullptr, 0, nullptr, 0}};
    Options o;
    int action_count = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", long_options, nullptr)) != -1) {
        long n = 0;
        switch (c) {
        case kJson: o.action = Options::Action::Json; ++action_count; break;
        case kMarkdown: o.action = Options::Action::Markdown; ++action_count; break;
        case kPresets: o.action = Options::Action::Presets; ++action_count; break;
        case kPresetsMd: o.action = Options::Action::PresetsMarkdown; ++action_count; break;
        case kPapiCsv: o.action = Options::Action::PapiCsv; ++action_count; break;
        case kEncode:
            o.action = Options::Action::Encode;
            o.events.push_back(optarg);
            ++action_count;
            break;
        case kSchedule: o.action = Options::Action::Schedule; ++action_count; break;
        case kModel:
            if (!parse_number(optarg, &n) || !model_exists(static_cast<unsigned>(n)) || n < 0)
                usage_error(std::string("--model ") + optarg + ": family 0FH models are 0, 1, 2, 3, 4 and 6");
            o.model = static_cast<int>(n);
            break;
        case kThread:
            if (!parse_number(optarg, &n) || (n != 0 && n != 1))
                usage_error(std::string("--thread ") + optarg + ": a logical processor is 0 or 1");
            o.thread = static_cast<unsigned>(n);
            if (n == 1) o.ht = true;
            break;
        case kHt: o.ht = true; break;
        case kDomain:
            if (std::string(optarg) == "user") o.domain = {true, false};
            else if (std::string(optarg) == "kernel") o.domain = {false, true};
            else if (std::string(optarg) == "all") o.domain = {true, true};
            else usage_error(std::string("--domain ") + optarg + ": use user, kernel or all");
            break;
        case 'h': std::cout << kUsage; std::exit(kExitOk);
        case kVersion: std::cout << "netburst-events " PACKAGE_VERSION "\n"; std::exit(kExitOk);
        case '?':
        default:
            usage_error(optopt ? std::string("option needs an argument or is unknown: ") + argv[optind - 1]
                               : std::string("unknown option ") + argv[optind - 1]);
        }
    }
    if (action_count > 1) usage_error("give one action: --json, --encode, --schedule, --markdown, --presets ...");
    for (int i = optind; i < argc; ++i) {
        if (o.action != Options::Action::Schedule) usage_error(std::string("unexpected argument '") + argv[i] + "'");
        o.events.push_back(argv[i]);
    }
    if (o.action == Options::Action::Schedule && o.events.empty()) usage_error("--schedule needs at least one event");
    return o;
}

int schedule_and_print(const Options& o, bool encode_only) {
    AllocContext ctx;
    ctx.model = o.model < 0 ? kDefaultModel : static_cast<unsigned>(o.model);
    ctx.hyper_threading = o.ht;
    ctx.thread = o.thread;
    ctx.default_privilege = o.domain;
    std::vector<EventRequest> requests;
    for (const std::string& text : o.events) {
        auto r = parse_event(text, ctx.model);
        if (!r) {
            std::cerr << "netburst-events: " << r.error().message << "\n";
            return kExitBadInput;
        }
        requests.push_back(*r);
    }
    auto s = schedule_events(requests, ctx);
    if (!s) {
        std::cerr << "netburst-events: " << s.error().message << "\n";
        if (s.error().code != ErrorCode::Conflict) return kExitBadInput;
        const Conflict k = diagnose_conflict(requests, ctx);
        nlohmann::ordered_json events = nlohmann::ordered_json::array();
        for (std::size_t i : k.requests) events.push_back(canonical_name(requests[i]));
        std::cout << nlohmann::ordered_json{{"scheduled", false},
                                    {"conflict", {{"resource", k.detail}, {"events", events}, {"message", s.error().message}}}}
                         .dump(2)
                  << "\n";
        return kExitConflict;
    }
    nlohmann::ordered_json out;
    if (encode_only) {
        out = {{"event", canonical_name(requests[0])},
               {"model", ctx.model},
               {"thread", ctx.thread},
               {"counter", s->requests[0].result_counter},
               {"writes", tools::writes_json(start_writes(*s))}};
    } else {
        out = tools::schedule_json(requests, *s);
    }
    out["model"] = ctx.model;
    out["thread"] = ctx.thread;
    out["hyper_threading"] = ctx.hyper_threading;
    std::cout << out.dump(2) << "\n";
    return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse_options(argc, argv);
    switch (o.action) {
    case Options::Action::List: tools::print_listing(std::cout, o.model); return kExitOk;
    case Options::Action::Json: std::cout << tools::table_json().dump(2) << "\n"; return kExitOk;
    case Options::Action::Markdown: tools::print_markdown_reference(std::cout); return kExitOk;
    case Options::Action::Presets: tools::print_preset_listing(std::cout); return kExitOk;
    case Options::Action::PresetsMarkdown: tools::print_preset_markdown(std::cout); return kExitOk;
    case Options::Action::PapiCsv: std::cout << papi_csv_sections(); return kExitOk;
    case Options::Action::Encode: return schedule_and_print(o, true);
    case Options::Action::Schedule: return schedule_and_print(o, false);
    }
    return kExitOk;
}
