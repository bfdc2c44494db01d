#include "component/native_registry.h"

#include "events/parser.h"
#include "table/events.h"
#include "table/metrics.h"

namespace netburst::component {

namespace {

std::string event_description(const EventDef& e) {
    std::string d = e.description;
    d += e.at_retirement ? " (at-retirement" : " (non-retirement";
    d += e.scope == Scope::ThreadIndependent ? ", counts both logical processors" : "";
    d += std::string("; SDM Table ") + e.sdm_table + ")";
    if (e.note) (d += ". ") += e.note;
    return d;
}

std::string metric_description(const MetricDef& m) {
    return std::string(m.description) + " (at-retirement metric, " + tag_mechanism_name(m.mechanism) +
           " tagging; SDM Table " + m.sdm_table + ")";
}

// PAPI's short description holds 64 characters: the first clause of the description, cut at a word if needed.
std::string short_of(const char* description) {
    constexpr std::size_t kMax = 63;
    std::string s = description;
    const std::size_t clause = s.find_first_of(",(;");
    if (clause != std::string::npos) s.erase(clause);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    if (s.size() > kMax) {
        std::size_t cut = s.rfind(' ', kMax - 4);
        s.erase(cut == std::string::npos ? kMax - 4 : cut);
        s += "...";
    }
    return s;
}

std::string with_mask(const std::string& event_description, const std::string& mask_description) {
    return event_description + ", masks:" + mask_description;
}

// What a parsed request counts, for names that are not enumerated: the base description and each mask's.
std::string describe_request(const EventRequest& r) {
    if (r.metric) {
        std::string masks;
        if (r.mask & 1) masks = "retiring on the correct path (NBOGUS)";
        if (r.mask & 2) masks += std::string(masks.empty() ? "" : "; ") + "on a mispredicted path (BOGUS)";
        return with_mask(metric_description(*r.metric), masks);
    }
    std::string masks;
    for (unsigned bit = 0; bit < 16; ++bit)
        if (r.mask & (1u << bit))
            if (const MaskDef* m = mask_by_bit(*r.event, bit)) masks += std::string(masks.empty() ? "" : "; ") + m->description;
    if (r.tag_value) masks += std::string(masks.empty() ? "" : "; ") + "sets execution tag bits " + std::to_string(r.tag_value);
    return masks.empty() ? event_description(*r.event) : with_mask(event_description(*r.event), masks);
}

Error not_alone(const std::string& name, const Error& parse_error) {
    return make_error(ErrorCode::BadInput, name + " cannot be counted without a mask: " + parse_error.message);
}

}  // namespace

NativeRegistry::NativeRegistry(unsigned model) : model_(model) {
    for (unsigned i = 0; i < kNumEvents; ++i)
        if (event_on_model(kEvents[i], model_)) enumerate_event(i);
    for (unsigned i = 0; i < kNumMetrics; ++i) enumerate_metric(i);
    num_enumerated_ = static_cast<unsigned>(entries_.size());
    index_canonical_names();
}

unsigned NativeRegistry::push(Entry entry) {
    entries_.push_back(std::move(entry));
    return static_cast<unsigned>(entries_.size() - 1);
}

void NativeRegistry::enumerate_name(std::string name, std::string description, std::string short_description,
                                    unsigned base) {
    Entry entry;
    entry.request = parse_event(name, model_);
    entry.name = std::move(name);
    entry.description = std::move(description);
    entry.short_description = std::move(short_description);
    entry.base = base;
    push(std::move(entry));
}

void NativeRegistry::enumerate_event(unsigned event_index) {
    const EventDef& e = kEvents[event_index];
    const std::string description = event_description(e);
    const unsigned base = static_cast<unsigned>(entries_.size());
    auto add = [&](std::string name, std::string descr, std::string short_descr) {
        enumerate_name(std::move(name), std::move(descr), std::move(short_descr), base);
    };

    add(e.name, description, short_of(e.description));
    if (!entries_[base].request.ok()) entries_[base].request = not_alone(e.name, entries_[base].request.error());
    for (unsigned m = 0; m < e.num_masks; ++m) {
        const MaskDef& mask = e.masks[m];
        if (!model_in(mask.models, model_)) continue;
        add(std::string(e.name) + ":" + mask.name, with_mask(description, mask.description), short_of(mask.description));
    }
    if (e.tag_role == TagRole::ExecutionUpstream) {
        for (unsigned bit = 0; bit < kNumExecutionTagBits; ++bit) {
            const std::string tag = "TAG" + std::to_string(bit);
            add(std::string(e.name) + ":" + tag,
                with_mask(description, "set execution tag bit " + std::to_string(bit) +
                                           " on these uops, for execution_event NBOGUS" + std::to_string(bit)),
                "execution tag bit " + std::to_string(bit));
        }
    }
    if (e.tag_role == TagRole::ReplayCounter) {
        // libpfm4's virtual masks: each names a replay metric, which programs the tagging MSRs.
        for (const MetricDef& metric : kMetrics) {
            if (!metric.replay_mask) continue;
            add(std::string(e.name) + ":" + metric.replay_mask,
                with_mask(description, std::string("the replay metric ") + metric.name + ": " + metric.description),
                short_of(metric.description));
        }
    }
    entries_[base].end = static_cast<unsigned>(entries_.size());
    ++num_events_;
}

void NativeRegistry::enumerate_metric(unsigned metric_index) {
    const MetricDef& m = kMetrics[metric_index];
    const unsigned base = static_cast<unsigned>(entries_.size());
    const std::string description = metric_description(m);
    auto add = [&](std::string name, std::string descr, std::string short_descr) {
        enumerate_name(std::move(name), std::move(descr), std::move(short_descr), base);
    };
    add(m.name, description, short_of(m.description));
    if (!entries_[base].request.ok()) {
        // A metric whose events this model lacks: not listed at all.
        entries_.pop_back();
        return;
    }
    add(std::string(m.name) + ":NBOGUS", with_mask(description, "uops retiring on the correct path (the default)"),
        "retiring on the correct path");
    add(std::string(m.name) + ":BOGUS", with_mask(description, "uops on a mispredicted path (bogus)"),
        "on a mispredicted path");
    entries_[base].end = static_cast<unsigned>(entries_.size());
    ++num_events_;
}

void NativeRegistry::index_canonical_names() {
    // A name that is its own canonical spelling owns the code for that request. Other enumerated names (an event
    // named without its default mask, a replay virtual mask, a TAGn mask without ALL) keep their codes for
    // enumeration, but looking them up by name gives the canonical entry (made on first use), so that the name of
    // a looked-up code is always the canonical spelling.
    for (unsigned i = 0; i < entries_.size(); ++i)
        if (entries_[i].request.ok() && canonical_name(*entries_[i].request) == entries_[i].name)
            by_canonical_name_.emplace(entries_[i].name, i);
}

unsigned NativeRegistry::num_events() const { return num_events_; }

const NativeRegistry::Entry* NativeRegistry::find(unsigned code) const {
    return code < entries_.size() ? &entries_[code] : nullptr;
}

bool NativeRegistry::first(unsigned* code) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (num_enumerated_ == 0) return false;
    *code = 0;
    return true;
}

bool NativeRegistry::next_event(unsigned* code) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (*code >= num_enumerated_) return false;
    const unsigned next = entries_[entries_[*code].base].end;
    if (next >= num_enumerated_) return false;
    *code = next;
    return true;
}

bool NativeRegistry::next_umask(unsigned* code) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (*code >= num_enumerated_) return false;
    const unsigned next = *code + 1;
    if (next >= entries_[entries_[*code].base].end) return false;
    *code = next;
    return true;
}

Result<unsigned> NativeRegistry::code_for(const std::string& name) {
    Result<EventRequest> parsed = parse_event(name, model_);
    if (!parsed.ok()) return parsed.error();
    std::string canonical = canonical_name(*parsed);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_canonical_name_.find(canonical);
    if (it != by_canonical_name_.end()) return it->second;
    Entry entry;
    entry.description = describe_request(*parsed);
    entry.short_description = short_of(parsed->metric ? parsed->metric->description : parsed->event->description);
    entry.request = std::move(parsed);
    entry.name = canonical;
    entry.base = static_cast<unsigned>(entries_.size());
    entry.end = entry.base + 1;
    const unsigned code = push(std::move(entry));
    by_canonical_name_.emplace(std::move(canonical), code);
    return code;
}

bool NativeRegistry::text_of(unsigned code, std::string Entry::*field, std::string* out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const Entry* e = find(code);
    if (!e) return false;
    *out = e->*field;
    return true;
}

bool NativeRegistry::name_of(unsigned code, std::string* name) const { return text_of(code, &Entry::name, name); }

bool NativeRegistry::description_of(unsigned code, std::string* description) const {
    return text_of(code, &Entry::description, description);
}

bool NativeRegistry::short_description_of(unsigned code, std::string* description) const {
    return text_of(code, &Entry::short_description, description);
}

Result<EventRequest> NativeRegistry::request_of(unsigned code) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const Entry* e = find(code);
    if (!e) return make_error(ErrorCode::BadInput, "no native event has code " + std::to_string(code));
    return e->request;
}

}  // namespace netburst::component
