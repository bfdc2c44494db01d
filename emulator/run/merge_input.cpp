#include "emulator/run/merge_input.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace netburst::emu::run {

namespace {

using json = nlohmann::ordered_json;  // keeps the events in the order the file lists them

Error bad(const std::string& file, const std::string& message) {
    return make_error(ErrorCode::BadInput, file + ": " + message);
}

// PAPI writes every count as a decimal string.
bool to_int64(const json& v, std::int64_t* out) {
    if (v.is_number_integer()) {
        *out = v.get<std::int64_t>();
        return true;
    }
    if (!v.is_string()) return false;
    const std::string s = v.get<std::string>();
    char* end = nullptr;
    const long long n = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end) return false;
    *out = n;
    return true;
}

// rank_000003.json -> 3: PAPI names each rank's file by the rank it found in the environment.
long rank_from_papi_name(const std::string& file) {
    const std::size_t slash = file.rfind('/');
    const std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
    if (base.rfind("rank_", 0) != 0) return -1;
    char* end = nullptr;
    const long r = std::strtol(base.c_str() + 5, &end, 10);
    return end != base.c_str() + 5 && std::string(end) == ".json" ? r : -1;
}

Result<RankReport> from_netburst_run(const json& j, const std::string& file) {
    RankReport r;
    r.file = file;
    if (j.contains("rank") && j["rank"].is_number_integer()) r.rank = j["rank"].get<long>();
    if (!j["events"].is_array()) return bad(file, "\"events\" is not a list");
    for (const json& e : j["events"]) {
        if (!e.is_object() || !e.contains("event") || !e["event"].is_string() || !e.contains("value"))
            return bad(file, "an event without \"event\" and \"value\"");
        Reading reading;
        reading.event = e["event"].get<std::string>();
        if (e["value"].is_string()) {
            reading.counted = false;
            reading.note = e["value"].get<std::string>();
        } else if (!to_int64(e["value"], &reading.value)) {
            return bad(file, reading.event + ": the value is not a number");
        }
        r.readings.push_back(std::move(reading));
    }
    return r;
}

// threads -> regions -> {name, parent_region_id, event: value or {region_value, read_N...}}. The threads of a rank
// are added: the merged view is per rank.
Result<RankReport> from_papi_hl(const json& j, const std::string& file) {
    RankReport r;
    r.file = file;
    r.rank = rank_from_papi_name(file);
    if (!j["threads"].is_object()) return bad(file, "\"threads\" is not an object");
    std::map<std::pair<std::string, std::string>, std::size_t> seen;  // (region, event) -> index in readings
    for (const auto& [tid, thread] : j["threads"].items()) {
        if (!thread.contains("regions") || !thread["regions"].is_object())
            return bad(file, "thread " + tid + " has no \"regions\"");
        for (const auto& [id, region] : thread["regions"].items()) {
            if (!region.contains("name") || !region["name"].is_string())
                return bad(file, "region " + id + " has no name");
            const std::string name = region["name"].get<std::string>();
            for (const auto& [key, value] : region.items()) {
                if (key == "name" || key == "parent_region_id") continue;
                std::int64_t v = 0;
                const json& raw = value.is_object() && value.contains("region_value") ? value["region_value"] : value;
                if (!to_int64(raw, &v)) return bad(file, "region " + name + ", " + key + ": not a number");
                const auto at = seen.find({name, key});
                if (at != seen.end()) {
                    r.readings[at->second].value += v;
                    continue;
                }
                seen[{name, key}] = r.readings.size();
                Reading reading;
                reading.region = name;
                reading.event = key;
                reading.value = v;
                r.readings.push_back(std::move(reading));
            }
        }
    }
    return r;
}

}  // namespace

Result<RankReport> parse_rank_report(const std::string& text, const std::string& file) {
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return bad(file, "not a JSON object");
    if (j.contains("events")) return from_netburst_run(j, file);
    if (j.contains("threads")) return from_papi_hl(j, file);
    return bad(file, "neither a netburst-run JSON report (--json) nor PAPI high-level output (rank_NNNNNN.json)");
}

Result<RankReport> read_rank_report(const std::string& file) {
    std::ifstream in(file);
    if (!in) return make_error(ErrorCode::System, file + ": cannot be read");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_rank_report(ss.str(), file);
}

}  // namespace netburst::emu::run
