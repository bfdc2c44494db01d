#include "emulator/protocol/results_file.h"

#include "emulator/protocol/plain_text.h"

namespace netburst::emu::vg {

namespace {

void copy_text(const char* text, std::size_t size, char* out, std::size_t capacity) {
    std::size_t n = 0;
    for (; n < size && n + 1 < capacity; ++n) out[n] = text[n];
    out[n] = 0;
}

// The event line of `index` read so far; nullptr when none precedes.
EventResult* find_event(ProcessResults* r, std::uint64_t index) {
    for (unsigned i = 0; i < r->num_events; ++i)
        if (r->events[i].index == index) return &r->events[i];
    return nullptr;
}

}  // namespace

std::size_t format_results(const ProcessResults& r, char* buffer, std::size_t capacity) {
    TextWriter w(buffer, capacity);
    w.str("netburst-results 1\n");
    w.str("pid ").dec(r.pid).ch('\n');
    w.str("final ").dec(r.final_run ? 1 : 0).ch('\n');
    w.str("threads ").dec(r.threads).ch('\n');
    w.str("instructions ").dec(r.instructions).ch('\n');
    w.str("syscalls ").dec(r.syscalls).ch('\n');
    w.str("timer_interrupts ").dec(r.timer_interrupts).ch('\n');
    w.str("pmu_taken ").dec(r.pmu_taken ? 1 : 0).ch('\n');
    w.str("missing ").dec(r.missing.count).ch('\n');
    if (r.missing.count != 0) {
        const char* extension = r.missing.first_extension[0] ? r.missing.first_extension : "?";
        w.str("missing_first ").hex(r.missing.first_pc).ch(' ').str(extension);
        if (r.missing.first_symbol[0]) w.ch(' ').str(r.missing.first_symbol);
        w.ch('\n');
    }
    for (unsigned i = 0; i < r.num_events; ++i) {
        const EventResult& e = r.events[i];
        w.str("event ").dec(e.index).ch(' ').dec(e.value).ch(' ').dec(e.unsupported ? 1 : 0).ch('\n');
        if (e.estimated) w.str("estimate ").dec(e.index).ch(' ').dec(e.half_width).ch('\n');
    }
    return w.finish();
}

const char* parse_results(const char* text, std::size_t length, ProcessResults* out, unsigned* line) {
    *out = ProcessResults{};
    LineScanner s(text, length);
    *line = 0;
    if (!s.next_line() || !s.keyword("netburst-results")) return "not a results file";
    std::uint64_t version = 0;
    if (!s.number(&version) || version != 1) return "unsupported results version";
    while (s.next_line()) {
        *line = s.line();
        const char* w;
        std::size_t n;
        s.word(&w, &n);
        std::uint64_t a = 0, b = 0, c = 0;
        if (equal_word(w, n, "missing_first")) {
            const char* e;
            std::size_t en;
            if (!s.number(&out->missing.first_pc) || !s.word(&e, &en))
                return "expected 'missing_first PC EXT [SYMBOL]'";
            copy_text(e, en, out->missing.first_extension, sizeof out->missing.first_extension);
            s.rest(&e, &en);
            copy_text(e, en, out->missing.first_symbol, sizeof out->missing.first_symbol);
        } else if (equal_word(w, n, "event")) {
            if (!s.number(&a) || !s.number(&b) || !s.number(&c) || c > 1 || a > 0xFFFF)
                return "expected 'event INDEX VALUE 0|1'";
            if (out->num_events == ProcessResults::kMaxEvents) return "too many events";
            out->events[out->num_events++] = EventResult{static_cast<std::uint32_t>(a), b, c == 1};
        } else if (equal_word(w, n, "estimate")) {
            if (!s.number(&a) || !s.number(&b)) return "expected 'estimate INDEX HALF_WIDTH'";
            EventResult* e = find_event(out, a);
            if (!e) return "an estimate for an event without an event line before it";
            e->estimated = true;
            e->half_width = b;
        } else {
            std::uint64_t* field = nullptr;
            if (equal_word(w, n, "pid")) field = &out->pid;
            else if (equal_word(w, n, "threads")) field = &out->threads;
            else if (equal_word(w, n, "instructions")) field = &out->instructions;
            else if (equal_word(w, n, "syscalls")) field = &out->syscalls;
            else if (equal_word(w, n, "timer_interrupts")) field = &out->timer_interrupts;
            else if (equal_word(w, n, "missing")) field = &out->missing.count;
            else if (equal_word(w, n, "final") || equal_word(w, n, "pmu_taken")) field = &a;
            else return "unknown line";
            if (!s.number(field)) return "expected a number";
            if (field == &a && equal_word(w, n, "final")) out->final_run = a != 0;
            if (field == &a && equal_word(w, n, "pmu_taken")) out->pmu_taken = a != 0;
        }
        if (!s.at_line_end()) return "trailing words";
    }
    *line = 0;
    return nullptr;
}

}  // namespace netburst::emu::vg
