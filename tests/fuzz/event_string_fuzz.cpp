// libFuzzer harness for event strings and the allocator (`make fuzz` in a clang build; CI runs it for a bounded
// time). Input: one event string per line; the first byte picks the CPU model and logical processor.
//
// Properties checked, beyond "no crash, no sanitizer report":
//  - a string that parses has a canonical spelling that parses back to the same request;
//  - a set the allocator accepts passes the independent legality check;
//  - a set it refuses gets a conflict explanation naming at least one request.
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

#include "../alloc/schedule_checker.h"
#include "alloc/allocator.h"
#include "events/parser.h"

using namespace netburst;

namespace {
[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "property violated: %s: %s\n", what, detail.c_str());
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const unsigned kModels[] = {0, 1, 2, 3, 4, 6};
    AllocContext ctx;
    ctx.model = kModels[data[0] % 6];
    ctx.hyper_threading = data[0] & 0x40;
    ctx.thread = ctx.hyper_threading ? (data[0] >> 7) : 0;
    const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);

    std::vector<EventRequest> requests;
    std::size_t start = 0;
    while (start <= input.size() && requests.size() < 20) {
        std::size_t end = input.find('\n', start);
        if (end == std::string::npos) end = input.size();
        const std::string line = input.substr(start, end - start);
        start = end + 1;
        auto r = parse_event(line, ctx.model);
        if (!r.ok()) {
            if (r.error().message.empty()) fail("error without message", line);
            continue;
        }
        const std::string canonical = canonical_name(*r);
        auto again = parse_event(canonical, ctx.model);
        if (!again.ok() || !(again.value() == r.value())) fail("canonical name does not round-trip", line + " -> " + canonical);
        requests.push_back(*r);
    }
    if (requests.empty()) return 0;
    Schedule s;
    if (try_schedule(requests, ctx, &s)) {
        const std::string broken = checks::check_schedule(requests, ctx, s);
        if (!broken.empty()) fail("illegal schedule", broken);
    } else if (requests.size() <= 8) {  // the deletion filter is quadratic; keep the fuzzer fast
        const Conflict k = diagnose_conflict(requests, ctx);
        if (k.kind == ConflictKind::None || k.requests.empty()) fail("refusal without explanation", input);
        if (describe_conflict(k, requests).empty()) fail("empty conflict message", input);
    }
    return 0;
}
