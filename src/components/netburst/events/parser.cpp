#include "events/parser.h"

#include <cctype>
#include <string_view>

#include "events/suggest.h"
#include "table/ascii.h"
#include "table/registers.h"

namespace netburst {

namespace {


bool iequal(std::string_view a, const char* b) { return ascii_iequal_n(a.data(), a.size(), b); }

std::vector<std::string_view> split_colons(std::string_view text) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t pos = text.find(':', start);
        if (pos == std::string_view::npos) {
            parts.push_back(text.substr(start));
            return parts;
        }
        parts.push_back(text.substr(start, pos - start));
        start = pos + 1;
    }
}

// Strict decimal (or 0x hex) parse of a small unsigned number; rejects signs, spaces and overflow.
bool parse_small_uint(std::string_view s, unsigned* out) {
    unsigned base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    }
    if (s.empty() || s.size() > 8) return false;
    unsigned value = 0;
    for (char c : s) {
        unsigned digit;
        if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
        else return false;
        value = value * base + digit;
    }
    *out = value;
    return true;
}

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

Error bad(std::string message) { return make_error(ErrorCode::BadInput, std::move(message)); }

// Strips a PMU prefix. PAPI writes "netburst:::", libpfm4 "netburst::" or "netburst_p::".
Result<std::string_view> strip_pmu_prefix(std::string_view text) {
    const std::size_t pos = text.find("::");
    if (pos == std::string_view::npos) return text;
    const std::string_view pmu = text.substr(0, pos);
    if (!iequal(pmu, "netburst") && !iequal(pmu, "netburst_p"))
        return bad("unknown PMU " + quote(pmu) + " in " + quote(text) +
                   ": this table describes the NetBurst PMU; write netburst::EVENT or just EVENT");
    std::string_view rest = text.substr(pos + 2);
    if (!rest.empty() && rest.front() == ':') rest.remove_prefix(1);  // PAPI's third colon
    return rest;
}

std::vector<std::string> mask_names(const EventDef& event) {
    std::vector<std::string> names;
    for (unsigned i = 0; i < event.num_masks; ++i) names.emplace_back(event.masks[i].name);
    return names;
}

std::vector<std::string> metric_mask_names() { return {"NBOGUS", "BOGUS"}; }

std::string list_names(const std::vector<std::string>& names) { return join_alternatives(names); }

bool is_modifier(std::string_view name) {
    for (const char* m : {"u", "k", "e", "cmpl", "thr", "tag", "precise", "p", "pp", "ppp"})
        if (iequal(name, m)) return true;
    return false;
}

class Parser {
public:
    Parser(std::string_view text, unsigned model) : text_(text), model_(model) {}

    Result<EventRequest> run() {
        auto stripped = strip_pmu_prefix(text_);
        if (!stripped) return stripped.error();
        const std::vector<std::string_view> parts = split_colons(*stripped);
        const std::string_view base = parts[0];
        if (base.empty()) return bad("empty event name in " + quote(text_));

        if (Error e = resolve_base(base); e.code != ErrorCode::Ok) return e;
        for (std::size_t i = 1; i < parts.size(); ++i) {
            if (parts[i].empty()) return bad("empty field after ':' in " + quote(text_));
            if (Error e = apply_part(parts[i]); e.code != ErrorCode::Ok) return e;
        }
        if (Error e = finish(); e.code != ErrorCode::Ok) return e;
        return req_;
    }

private:
    Error resolve_base(std::string_view base) {
        if (const MetricDef* metric = find_metric(base.data(), base.size())) {
            req_.metric = metric;
            return {};
        }
        const EventDef* event = find_event(base.data(), base.size());
        if (!event) {
            std::string msg = "unknown event " + quote(base);
            msg += did_you_mean(std::string(base), all_base_names());
            msg += " (netburst-events lists them all)";
            return bad(msg);
        }
        if (!event_on_model(*event, model_)) {
            char models[32];
            format_model_set(event->models, models, sizeof models);
            return make_error(ErrorCode::NotOnModel,
                              std::string(event->name) + " exists only on family 0FH models " + models +
                                  "; the selected CPU is model " + std::to_string(model_) + " (" +
                                  model_codename(model_) + ")");
        }
        req_.event = event;
        return {};
    }

    Error duplicate(std::string_view what) {
        return bad("modifier " + quote(what) + " given twice in " + quote(text_));
    }

    Error set_flag(std::string_view name, bool* seen, bool value, bool* target) {
        if (*seen) return duplicate(name);
        *seen = true;
        *target = value;
        return {};
    }

    Error apply_modifier(std::string_view name, std::string_view value_text, bool has_value) {
        unsigned value = 1;
        if (has_value && !parse_small_uint(value_text, &value))
            return bad("modifier " + quote(name) + " needs a number, got " + quote(value_text));

        const bool is_bool = iequal(name, "u") || iequal(name, "k") || iequal(name, "e") || iequal(name, "cmpl");
        if (is_bool && value > 1) return bad("modifier " + quote(name) + " takes 0 or 1, got " + quote(value_text));

        if (iequal(name, "u")) {
            req_.privilege_explicit = true;
            return set_flag(name, &seen_u_, value != 0, &user_);
        }
        if (iequal(name, "k")) {
            req_.privilege_explicit = true;
            return set_flag(name, &seen_k_, value != 0, &kernel_);
        }
        if (iequal(name, "e")) return set_flag(name, &seen_e_, value != 0, &req_.edge);
        if (iequal(name, "cmpl")) return set_flag(name, &seen_cmpl_, value != 0, &req_.complement);
        if (iequal(name, "thr")) {
            if (!has_value) return bad("modifier 'thr' needs a value, as in thr=2");
            if (seen_thr_) return duplicate(name);
            seen_thr_ = true;
            if (value > kCccrMaxThreshold)
                return bad("threshold " + quote(value_text) + " is out of range: the CCCR threshold field holds 0-15");
            req_.threshold = static_cast<std::uint8_t>(value);
            return {};
        }
        if (iequal(name, "tag")) {
            if (!has_value) return bad("modifier 'tag' needs a value, as in tag=1");
            if (seen_tag_) return duplicate(name);
            seen_tag_ = true;
            if (value >= kNumExecutionTagBits)
                return bad("tag " + quote(value_text) + " is out of range: there are four execution tag bits, 0-3");
            tag_modifier_ = static_cast<int>(value);
            return {};
        }
        if (iequal(name, "precise")) {
            if (!has_value) return bad("modifier 'precise' needs a value, as in precise=1");
            if (seen_precise_) return duplicate(name);
            seen_precise_ = true;
            if (value > 3)
                return bad("precise level " + quote(value_text) + " is out of range: libpfm4's levels are 0-3");
            // Every level above 0 is the same PEBS request: NetBurst's PEBS has no skid to reduce further.
            req_.precise = value > 0 ? 1 : 0;
            req_.precise_asked = static_cast<std::uint8_t>(value);
            return {};
        }
        if (iequal(name, "p") || iequal(name, "pp") || iequal(name, "ppp")) {
            // perf's spelling of precise levels 1-3 (an alias: doc/sampling.md).
            if (has_value) return bad("modifier " + quote(name) + " takes no value (perf's spelling of precise=" +
                                      std::to_string(name.size()) + ")");
            if (seen_precise_) return duplicate("precise");
            seen_precise_ = true;
            req_.precise = 1;
            req_.precise_asked = static_cast<std::uint8_t>(name.size());
            return {};
        }
        return bad("internal: unhandled modifier " + quote(name));
    }

    Error apply_part(std::string_view part) {
        const std::size_t eq = part.find('=');
        const std::string_view name = part.substr(0, eq);
        const bool has_value = eq != std::string_view::npos;
        if (is_modifier(name)) return apply_modifier(name, has_value ? part.substr(eq + 1) : std::string_view{}, has_value);
        if (has_value)
            return bad("unknown modifier " + quote(name) + " in " + quote(text_) +
                       "; modifiers are u, k, cmpl, e, thr=N, tag=N and precise=N (perf's p, pp, ppp)");
        return apply_mask(part);
    }

    Error add_mask_bit(std::string_view name, unsigned bit) {
        const std::uint16_t b = static_cast<std::uint16_t>(1u << bit);
        if (mask_ & b) return bad("mask " + quote(name) + " given twice in " + quote(text_));
        mask_ = static_cast<std::uint16_t>(mask_ | b);
        return {};
    }

    Error apply_mask(std::string_view name) {
        if (req_.metric) {
            if (iequal(name, "NBOGUS")) return add_mask_bit(name, 0);
            if (iequal(name, "BOGUS")) return add_mask_bit(name, 1);
            return unknown_mask(name, metric_mask_names(), req_.metric->name);
        }
        const EventDef& event = *req_.event;
        if (const MaskDef* mask = find_mask(event, name.data(), name.size())) return add_mask_bit(name, mask->bit);

        if (event.tag_role == TagRole::ExecutionUpstream && name.size() == 4 && iequal(name.substr(0, 3), "TAG") &&
            name[3] >= '0' && name[3] < '0' + static_cast<char>(kNumExecutionTagBits)) {
            const std::uint8_t b = static_cast<std::uint8_t>(1u << (name[3] - '0'));
            if (tag_masks_ & b) return bad("mask " + quote(name) + " given twice in " + quote(text_));
            tag_masks_ = static_cast<std::uint8_t>(tag_masks_ | b);
            return {};
        }
        if (event.tag_role == TagRole::ReplayCounter) {
            if (const MetricDef* metric = find_metric_by_replay_mask(name.data(), name.size())) {
                if (replay_metric_)
                    return bad(std::string("replay_event can select one replay metric, but ") +
                               replay_metric_->replay_mask + " and " + metric->replay_mask +
                               " were both given: IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT hold one setting");
                replay_metric_ = metric;
                return {};
            }
        }
        std::vector<std::string> candidates = mask_names(event);
        if (event.tag_role == TagRole::ExecutionUpstream)
            for (const char* t : {"TAG0", "TAG1", "TAG2", "TAG3"}) candidates.emplace_back(t);
        if (event.tag_role == TagRole::ReplayCounter)
            for (const MetricDef& metric : kMetrics)
                if (metric.replay_mask) candidates.emplace_back(metric.replay_mask);
        return unknown_mask(name, candidates, event.name);
    }

    Error unknown_mask(std::string_view name, const std::vector<std::string>& candidates, const char* owner) {
        std::string msg = "unknown mask " + quote(name) + " for " + owner;
        msg += did_you_mean(std::string(name), candidates);
        msg += " Valid masks: " + list_names(candidates) + ".";
        return bad(msg);
    }

    Error finish() {
        if (Error e = finish_fields(); e.code != ErrorCode::Ok) return e;
        if (!req_.precise) return {};
        if (!request_drives_pebs(req_))
            return bad(std::string(req_.base_name()) + " cannot drive PEBS (:precise): only the at-retirement events "
                       "front_end_event, execution_event and replay_event can, that is the metrics " +
                       list_names(pebs_metric_names()) + "; sample it without :precise (overflow interrupt)");
        if (req_.compare())
            return bad(std::string(req_.base_name()) + ":precise: a PEBS counter counts each event, so :cmpl, :e "
                       "and :thr cannot go with it");
        return {};
    }

    Error finish_fields() {
        if (seen_u_ || seen_k_) {
            // Naming only one of u and k restricts counting to that level, as libpfm4 does.
            req_.privilege.user = seen_u_ ? user_ : false;
            req_.privilege.kernel = seen_k_ ? kernel_ : false;
            if (!req_.privilege.user && !req_.privilege.kernel)
                return bad("u=0 and k=0 together in " + quote(text_) + " count nothing; drop one of them");
        }

        if (req_.event && replay_metric_) {  // replay_event:...:L1_LD_MISS means the metric itself
            req_.metric = replay_metric_;
            req_.event = nullptr;
        }

        if (req_.metric) {
            req_.mask = mask_ ? mask_ : 1;  // NBOGUS by default
            if (tag_modifier_ >= 0) {
                if (req_.metric->mechanism != TagMechanism::Execution)
                    return bad(std::string("tag=N applies to execution-tagging metrics; ") + req_.metric->name +
                               " uses " + tag_mechanism_name(req_.metric->mechanism) + " tagging");
                req_.pinned_tag_bit = static_cast<std::int8_t>(tag_modifier_);
            }
            return {};
        }

        const EventDef& event = *req_.event;
        if (tag_modifier_ >= 0 || tag_masks_) {
            if (event.tag_role != TagRole::ExecutionUpstream)
                return bad(std::string("tag=N applies to execution-tagging upstream events (x87_FP_uop, "
                                       "packed_SP_uop, ...) and execution metrics, not to ") + event.name);
            if (tag_modifier_ >= 0 && tag_masks_)
                return bad("give the tag either as TAGn masks or as tag=N, not both, in " + quote(text_));
            req_.tag_value = tag_masks_ ? tag_masks_ : static_cast<std::uint8_t>(1u << tag_modifier_);
        }
        req_.mask = mask_ ? mask_ : default_mask_bits(event);
        if (req_.mask == 0)
            return bad(std::string(event.name) + " has no default mask; name at least one of " +
                       list_names(mask_names(event)));
        return {};
    }

    std::string_view text_;
    unsigned model_;
    EventRequest req_;
    std::uint16_t mask_ = 0;
    std::uint8_t tag_masks_ = 0;
    int tag_modifier_ = -1;
    const MetricDef* replay_metric_ = nullptr;
    bool seen_u_ = false, seen_k_ = false, seen_e_ = false, seen_cmpl_ = false, seen_thr_ = false, seen_tag_ = false;
    bool seen_precise_ = false;
    bool user_ = false, kernel_ = false;
};

}  // namespace

Result<EventRequest> parse_event(const std::string& text, unsigned model) {
    if (text.empty()) return bad("empty event string");
    for (char c : text)
        if (std::isspace(static_cast<unsigned char>(c)) || !std::isprint(static_cast<unsigned char>(c)))
            return bad("event string " + quote(text) + " contains a space or control character");
    return Parser(text, model).run();
}

std::vector<std::string> all_base_names() {
    std::vector<std::string> names;
    for (const EventDef& e : kEvents) {
        names.emplace_back(e.name);
        if (e.alias) names.emplace_back(e.alias);
    }
    for (const MetricDef& metric : kMetrics) names.emplace_back(metric.name);
    return names;
}

bool request_drives_pebs(const EventRequest& r) {
    const EventDef& counting = r.metric ? event_def(r.metric->counting_event) : *r.event;
    return counting.pebs;
}

std::vector<std::string> pebs_metric_names() {
    std::vector<std::string> names;
    for (const MetricDef& m : kMetrics)
        if (event_def(m.counting_event).pebs) names.emplace_back(m.name);
    return names;
}

}  // namespace netburst
