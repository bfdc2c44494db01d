#include "emulator/tools/replay.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "alloc/allocator.h"
#include "emulator/tools/msr_script.h"
#include "emulator/tools/sparse_memory.h"
#include "emulator/trace/trace_file.h"
#include "encode/program.h"
#include "events/parser.h"
#include "table/registers.h"
#include "table/hex.h"

namespace netburst::emu {

namespace {

// One instruction into the emulator, behind a call of its own (the Valgrind tool's runtime makes one per
// instruction too), so that a profile of a replay shows the emulator's cost per instruction apart from the
// trace reading around it.
__attribute__((noinline)) void execute_one(Emulator& emu, const Instruction& insn, const UopPlan* plan) {
    emu.execute(insn, plan);
}

Error bad(std::string m) { return make_error(ErrorCode::BadInput, std::move(m)); }

struct Programmed {
    std::vector<EventRequest> requests;
    std::vector<Schedule> schedules;  // one per logical processor
};

// Programs the event strings on every logical processor through the allocator and the encoder, exactly as the
// PAPI component will: it never writes a register value of its own.
Result<Programmed> program_events(Emulator& emu, const ReplayOptions& o) {
    Programmed p;
    for (const std::string& text : o.events) {
        auto r = parse_event(text, o.emulator.machine.model);
        if (!r) return r.error();
        p.requests.push_back(*r);
    }
    AllocContext ctx;
    ctx.model = o.emulator.machine.model;
    ctx.hyper_threading = o.emulator.machine.hyper_threading;
    auto s = schedule_on_package(p.requests, ctx);
    if (!s) return s.error();
    p.schedules = *s;
    for (unsigned lp = 0; lp < p.schedules.size(); ++lp)
        for (const MsrWrite& w : start_writes(p.schedules[lp]))
            if (emu.write_msr(lp, w.msr, w.value) != MsrResult::Ok)
                return bad("the emulator refused wrmsr " + hex(w.msr) + " " + hex(w.value) + " (a #GP): this is a bug");
    return p;
}

Result<bool> apply_msr_script(Emulator& emu, SparseMemory& memory, const ReplayOptions& o) {
    std::ifstream in(o.msr_file);
    if (!in) return bad(o.msr_file + ": cannot be read");
    std::stringstream ss;
    ss << in.rdbuf();
    std::vector<MsrScriptLine> lines;
    std::string error;
    if (!parse_msr_script(ss.str(), o.msr_file, &lines, &error)) return bad(error);
    for (const MsrScriptLine& l : lines) {
        if (l.kind == MsrScriptLine::Kind::Poke) {
            std::uint8_t bytes[8];
            for (unsigned k = 0; k < 8; ++k) bytes[k] = static_cast<std::uint8_t>(l.value >> (8 * k));
            memory.write(l.address, bytes, 8);
            continue;
        }
        if (l.thread == 1 && !o.emulator.machine.hyper_threading)
            return bad(o.msr_file + ":" + std::to_string(l.line) + ": thread=1 needs two logical processors");
        if (emu.write_msr(l.thread, static_cast<std::uint32_t>(l.address), l.value) != MsrResult::Ok)
            return bad(o.msr_file + ":" + std::to_string(l.line) + ": wrmsr " + hex(l.address) + " " + hex(l.value) +
                       " raises #GP (unknown MSR or a reserved bit set)");
    }
    return true;
}

}  // namespace

Result<ReplayResult> run_replay(const ReplayOptions& options) {
    ReplayOptions o = options;
    EmulatedMachine& machine = o.emulator.machine;
    if (o.traces.empty() || o.traces.size() > 2) return bad("give one trace, or two for a Hyper-Threaded core");
    if (o.traces.size() == 2) machine.hyper_threading = true;
    if (!model_exists(machine.model)) return bad("model " + std::to_string(machine.model) + " is not a NetBurst model");

    std::vector<std::unique_ptr<trace::TraceReader>> readers;
    for (const std::string& path : o.traces) {
        std::string error;
        auto r = trace::TraceReader::open(path, &error);
        if (!r) return bad(error);
        readers.push_back(std::move(r));
    }

    auto emu = std::make_unique<Emulator>();
    emu->reset(o.emulator);
    SparseMemory memory;
    emu->pmu().set_guest_memory(memory.as_guest_memory());

    if (!o.msr_file.empty()) {
        auto applied = apply_msr_script(*emu, memory, o);
        if (!applied) return applied.error();
    }
    Programmed programmed;
    if (!o.events.empty()) {
        auto p = program_events(*emu, o);
        if (!p) return p.error();
        programmed = std::move(p.value());
    }

    // Run: with two traces, the core chooses which logical processor supplies the next instruction. Like the
    // Valgrind tool, the replay keeps each static instruction's uop plan (by address and shape), so that the
    // emulator's functional tier need not look it up for every execution.
    struct PlanHint {
        std::uint64_t pc = ~std::uint64_t{0};
        std::uint32_t shape = 0;
        const UopPlan* plan = nullptr;
    };
    std::vector<PlanHint> hints(1u << 16);
    bool more[2] = {true, o.traces.size() == 2};
    Instruction insn;
    std::string error;
    ReplayResult result;
    while (more[0] || more[1]) {
        const unsigned t = o.traces.size() == 2 ? emu->next_thread(more[0], more[1]) : 0;
        const int status = readers[t]->next(&insn, &error);
        if (status < 0) return bad(error);
        if (status == 0) {
            more[t] = false;
            emu->stop_thread(t);
            continue;
        }
        if (o.traces.size() == 2) {
            insn.thread = static_cast<std::uint8_t>(t);
        } else if (insn.thread != 0 && !machine.hyper_threading) {
            return bad(readers[t]->name() + ": an instruction of logical processor 1 in a run without Hyper-Threading "
                       "(give two traces, or --ht)");
        }
        PlanHint& hint = hints[(insn.pc ^ (insn.pc >> 16)) & 0xFFFF];
        const std::uint32_t shape = PlanCache::shape_key(insn);
        if (hint.pc != insn.pc || hint.shape != shape) hint = PlanHint{insn.pc, shape, emu->stable_plan(insn)};
        execute_one(*emu, insn, hint.plan);
        ++result.threads[insn.thread & 1].instructions;
    }
    emu->finish();

    result.cycles = emu->now();
    result.timed_instructions = emu->timed_instructions();
    result.logical_processors = machine.logical_processors();
    for (unsigned t = 0; t < result.logical_processors; ++t) {
        const Core::Stats s = emu->stats(t);
        result.threads[t].uops_retired = s.uops_retired;
        result.threads[t].bogus_uops = s.bogus_uops;
    }
    for (unsigned t = 0; t < programmed.schedules.size(); ++t) {
        const Schedule& schedule = programmed.schedules[t];
        for (std::size_t i = 0; i < programmed.requests.size(); ++i) {
            EventValue v;
            v.event = canonical_name(programmed.requests[i]);
            v.thread = t;
            v.counter = schedule.requests[i].result_counter;
            emu->read_pmc(t, static_cast<std::uint32_t>(v.counter), &v.value);
            v.unsupported = emu->counter_unsupported(static_cast<unsigned>(v.counter));
            // A tagged metric's count is only meaningful if its upstream unit is modelled too.
            for (const PlacedUnit& u : schedule.requests[i].units)
                if (u.counter >= 0 && emu->counter_unsupported(static_cast<unsigned>(u.counter))) v.unsupported = true;
            result.events.push_back(v);
        }
    }
    if (!o.msr_file.empty()) {
        for (unsigned c = 0; c < kNumCounters; ++c) {
            CounterValue v;
            v.counter = c;
            emu->read_msr(0, kCounters[c].cccr_msr, &v.cccr);
            if (!(v.cccr & (1u << kCccrEnableBit)) && !(v.cccr & (1u << 30))) continue;
            emu->read_msr(0, kCounters[c].counter_msr, &v.value);
            v.unsupported = emu->counter_unsupported(c);
            result.counters.push_back(v);
        }
    }
    PmiRecord pmis[256];
    unsigned n;
    while ((n = emu->pmu().take_pmis(pmis, 256)) > 0) result.pmis.insert(result.pmis.end(), pmis, pmis + n);
    PebsRecord pebs[256];
    while ((n = emu->pmu().take_pebs_records(pebs, 256)) > 0) result.pebs.insert(result.pebs.end(), pebs, pebs + n);
    result.lost_records = emu->pmu().lost_records();
    return result;
}

}  // namespace netburst::emu
