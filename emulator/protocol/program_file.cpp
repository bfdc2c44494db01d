#include "emulator/protocol/program_file.h"

#include "emulator/protocol/plain_text.h"
#include "table/msr_map.h"

namespace netburst::emu::vg {

namespace {
const char* const kSampleUsage =
    "expected 'sample iebs|pebs COUNTER PERIOD EXACT_PMU EXACT_COUNTER [callchain] [calledges]'";

// One `sample` line: the next sampled event, and the recording's flags.
const char* parse_sample_line(LineScanner& s, SampleSpec* spec) {
    if (spec->num_events == kMaxSampledEvents) return "too many sample lines";
    SampledCounter event;
    std::uint64_t counter, period, pmu, exact;
    const char* kind;
    std::size_t kind_size;
    if (!s.word(&kind, &kind_size)) return kSampleUsage;
    if (equal_word(kind, kind_size, "pebs")) event.pebs = true;
    else if (!equal_word(kind, kind_size, "iebs")) return kSampleUsage;
    if (!s.number(&counter) || !s.number(&period) || !s.number(&pmu) || !s.number(&exact)) return kSampleUsage;
    // The flags, in any order.
    while (!s.at_line_end()) {
        const char* flag;
        std::size_t flag_size;
        if (!s.word(&flag, &flag_size)) return kSampleUsage;
        if (equal_word(flag, flag_size, "callchain")) spec->callchain = true;
        else if (equal_word(flag, flag_size, "calledges")) spec->call_edges = true;
        else return kSampleUsage;
    }
    if (counter >= kNumCounters || exact >= kNumCounters) return "counter out of range";
    if (pmu >= EventProgram::kMaxPmus) return "PMU number out of range";
    if (spec->enabled && pmu != spec->exact_pmu) return "sample lines name different exact-count PMUs";
    if (event.pebs && spec->pebs_event() >= 0) return "a second pebs sample line (one PEBS counter)";
    if (period < min_sample_period(event.pebs) || period > kMaxSamplePeriod) return "sample period out of range";
    for (unsigned i = 0; i < spec->num_events; ++i)
        if (spec->events[i].counter == counter) return "two sample lines on one counter";
    event.counter = static_cast<std::uint8_t>(counter);
    event.period = period;
    event.exact_counter = static_cast<std::uint8_t>(exact);
    spec->enabled = true;
    spec->exact_pmu = static_cast<std::uint8_t>(pmu);
    spec->events[spec->num_events++] = event;
    return nullptr;
}

}  // namespace

const char* parse_event_program(const char* text, std::size_t length, EventProgram* out, unsigned* line) {
    *out = EventProgram{};
    LineScanner s(text, length);
    *line = 0;
    if (!s.next_line() || !s.keyword("netburst-program")) return "not an event program (no 'netburst-program' line)";
    std::uint64_t version = 0;
    if (!s.number(&version) || version != 1 || !s.at_line_end()) return "unsupported event-program version";
    std::uint8_t pmu = 0;
    while (s.next_line()) {
        *line = s.line();
        const char* w;
        std::size_t n;
        s.word(&w, &n);
        std::uint64_t lp, a, b, c;
        if (equal_word(w, n, "pmu")) {
            if (!s.number(&a) || !s.at_line_end()) return "expected 'pmu N'";
            if (a >= EventProgram::kMaxPmus) return "PMU number out of range";
            pmu = static_cast<std::uint8_t>(a);
            if (a + 1 > out->num_pmus) out->num_pmus = static_cast<unsigned>(a + 1);
        } else if (equal_word(w, n, "wrmsr")) {
            if (!s.number(&lp) || !s.number(&a) || !s.number(&b) || !s.at_line_end())
                return "expected 'wrmsr LP MSR VALUE'";
            if (lp > 1) return "logical processor must be 0 or 1";
            if (a > 0xFFFFFFFFu) return "MSR address out of range";
            if (out->num_writes[lp] == EventProgram::kMaxWrites) return "too many wrmsr lines";
            out->writes[lp][out->num_writes[lp]++] = ProgramWrite{static_cast<std::uint32_t>(a), b, pmu};
        } else if (equal_word(w, n, "event")) {
            std::uint64_t index;
            if (!s.number(&index) || !s.number(&lp) || !s.number(&a) || !s.number(&c) || !s.at_line_end())
                return "expected 'event INDEX LP COUNTER MASK'";
            if (lp > 1) return "logical processor must be 0 or 1";
            if (a >= kNumCounters || (c & ~std::uint64_t{kAllCounters})) return "counter out of range";
            if (index > 0xFFFF) return "event index out of range";
            if (out->num_events == EventProgram::kMaxEvents) return "too many event lines";
            out->events[out->num_events++] = ProgramEvent{static_cast<std::uint32_t>(index),
                                                          static_cast<std::uint8_t>(lp),
                                                          static_cast<std::uint8_t>(a),
                                                          static_cast<std::uint32_t>(c), pmu};
        } else if (equal_word(w, n, "sample")) {
            if (const char* error = parse_sample_line(s, &out->sample)) return error;
        } else {
            return "unknown line (expected wrmsr, event, pmu or sample)";
        }
    }
    *line = 0;
    return nullptr;
}

std::size_t format_event_program(const EventProgram& program, char* buffer, std::size_t capacity) {
    TextWriter w(buffer, capacity);
    w.str("netburst-program 1\n");
    for (unsigned pmu = 0; pmu < program.num_pmus; ++pmu) {
        if (pmu > 0) w.str("pmu ").dec(pmu).ch('\n');
        for (unsigned lp = 0; lp < 2; ++lp)
            for (unsigned i = 0; i < program.num_writes[lp]; ++i) {
                const ProgramWrite& p = program.writes[lp][i];
                if (p.pmu == pmu) w.str("wrmsr ").dec(lp).ch(' ').hex(p.msr).ch(' ').hex(p.value).ch('\n');
            }
        for (unsigned i = 0; i < program.num_events; ++i) {
            const ProgramEvent& e = program.events[i];
            if (e.pmu == pmu)
                w.str("event ").dec(e.index).ch(' ').dec(e.lp).ch(' ').dec(e.counter).ch(' ').hex(e.check_mask)
                    .ch('\n');
        }
    }
    const SampleSpec& spec = program.sample;
    for (unsigned i = 0; spec.enabled && i < spec.num_events; ++i) {
        const SampledCounter& e = spec.events[i];
        w.str("sample ").str(e.pebs ? "pebs " : "iebs ").dec(e.counter).ch(' ').dec(e.period).ch(' ')
            .dec(spec.exact_pmu).ch(' ').dec(e.exact_counter);
        if (i == 0 && spec.callchain) w.str(" callchain");
        if (i == 0 && spec.call_edges) w.str(" calledges");
        w.ch('\n');
    }
    return w.finish();
}

}  // namespace netburst::emu::vg
