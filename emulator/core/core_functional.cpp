// The functional tier: one instruction's effect on the functional state, and its functional events, without time.
//
// It walks the instruction with the timing tier's walk (core_walker.h), in the same order, through the same code
// for everything that has state: the trace cache, build mode (core_frontend.cpp's build), the branch predictor,
// loads, store addresses, store commits and branch retirement (core_memory.h), the caches and the bus
// (memory_system.cpp, bus.cpp). What it leaves out is time: delivery and allocation slots, ports, the scoreboard,
// the store buffer (MOB replays), wrong-path uops and every interval. tests/core/core_tier_test.cpp checks that
// every functional count is the same as the timing tier's on a corpus of traces.
//
// Retirement goes to the sink as signatures (functional_sink.h). A plan's uops without replay causes have fixed
// signatures, looked up once per plan; a uop that can meet a replay cause (a cache or DTLB miss, a split, a
// mispredicted branch) has a block of signatures, one per set of causes.
#include "emulator/core/core_walker.h"

namespace netburst::emu {

namespace {
constexpr unsigned kFromBuild = 0, kFromRom = 2;  // uop_queue_writes (FROM_TC_DELIVER counts wrong-path uops too)
constexpr unsigned kCisc = 0;                     // tc_ms_xfer
}  // namespace

void Core::sign_plan(const UopPlan& plan, const Instruction& insn, FunctionalSink* sink) {
    FunctionalPlan& f = plan.functional;
    const unsigned cap = cfg_.rom_record_cap;
    // The plan's shape fixes which of its memory operands the instruction has.
    const unsigned n_mem = insn.num_mem < kMaxMemOperands ? insn.num_mem : kMaxMemOperands;
    f.kinds = 0;
    f.num_fixed = f.num_accesses = f.num_commits = 0;
    f.branch_spec = FunctionalPlan::kNone;
    unsigned commit_mem = FunctionalPlan::kNone;  // the last StoreData spec's operand, when it has one
    for (unsigned i = 0; i < plan.num_specs; ++i) {
        const UopSpec& s = plan.specs[i];
        UopSignature sig;
        sig.kind = s.kind;
        sig.has_exec_event = s.has_exec_event;
        if (s.has_exec_event) {
            sig.exec_event = s.exec_event;
            sig.exec_mask_bit = s.exec_bit;
        }
        f.signature[i] = sink->intern(sig);
        if (s.kind == UopKind::Load) f.kinds |= 1u;
        if (s.kind == UopKind::Store) f.kinds |= 2u;
        const bool access = (s.role == UopRole::Load || s.role == UopRole::StoreAddr) && s.mem < n_mem;
        if (access) f.access_spec[f.num_accesses++] = static_cast<std::uint8_t>(i);
        if (s.role == UopRole::Branch) f.branch_spec = static_cast<std::uint8_t>(i);
        if (access || s.role == UopRole::Branch) f.caused_base[i] = sink->intern_caused(sig);
        if (s.role == UopRole::StoreData) {
            ++f.num_commits;
            commit_mem = s.mem < n_mem ? s.mem : FunctionalPlan::kNone;
        }
        if (access || s.role == UopRole::Branch) continue;
        // A uop that can meet no replay cause: counted with the others of its signature.
        const std::uint32_t records = s.count > cap ? cap : s.count;
        unsigned k = 0;
        while (k < f.num_fixed && f.fixed_signature[k] != f.signature[i]) ++k;
        if (k == f.num_fixed) {
            f.fixed_signature[f.num_fixed++] = f.signature[i];
            f.fixed_count[k] = 0;
        }
        f.fixed_count[k] += records;
    }
    const bool plain = f.num_commits == 0 && !plan.from_rom;
    const bool branch = is_branch(insn.cls);
    f.work = FunctionalPlan::Work::General;
    if (plain && f.num_accesses == 0 && !branch && f.branch_spec == FunctionalPlan::kNone && f.num_fixed == 1) {
        f.work = FunctionalPlan::Work::None;
    } else if (plain && f.num_accesses == 1 && !branch && f.branch_spec == FunctionalPlan::kNone &&
               plan.specs[f.access_spec[0]].role == UopRole::Load) {
        f.work = FunctionalPlan::Work::Load;
        f.load_mem = plan.specs[f.access_spec[0]].mem;
    } else if (plain && f.num_accesses == 0 && branch && f.branch_spec != FunctionalPlan::kNone) {
        f.work = FunctionalPlan::Work::Branch;
    } else if (f.num_commits == 1 && commit_mem != FunctionalPlan::kNone && !plan.from_rom &&
               f.num_accesses == 1 && !branch && f.branch_spec == FunctionalPlan::kNone &&
               plan.specs[f.access_spec[0]].role == UopRole::StoreAddr) {
        f.work = FunctionalPlan::Work::Store;
        f.commit_mem = static_cast<std::uint8_t>(commit_mem);
    }
    f.deferred = stable_plans_.holds(plan);
    for (std::uint64_t& n : f.pending) n = 0;
    for (auto& q : f.branch_outcomes)
        for (std::uint64_t& n : q) n = 0;
    f.cls = insn.cls;
    f.generation = sink->generation();
}

const GroupPlan* Core::stable_group(const UopPlan* const* plans, const std::uint64_t* pcs, unsigned size,
                                    const FunctionalSink* sink) {
    for (unsigned k = 0; k < size; ++k) {
        if (plans[k] == nullptr || !stable_plans_.holds(*plans[k])) return nullptr;
        const FunctionalPlan& f = plans[k]->functional;
        if (f.generation != sink->generation() || !f.deferred) return nullptr;
    }
    const GroupPlan* g = groups_.get(plans, pcs, size);
    if (g != nullptr && g->generation == 0) g->generation = sink->generation();
    return g;
}

// `n` executions of a plan retire: the instructions, the uops that meet no replay cause, the statistics.
void Core::retire_functional(Thread& th, unsigned t, unsigned cpl, const UopPlan& plan, std::uint64_t n,
                             FunctionalSink* sink) {
    const FunctionalPlan& f = plan.functional;
    sink->begin(t, cpl);
    sink->retire_instructions(f.kinds, n);
    for (unsigned k = 0; k < f.num_fixed; ++k) sink->retire_uops(f.fixed_signature[k], f.fixed_count[k] * n);
    th.stats.instructions += n;
    th.stats.uops_retired += n * plan.total_uops;
}

void Core::flush_functional(FunctionalSink* sink) {
    // Runs first: their executions are their members' plans'.
    for (unsigned i = 0; i < groups_.size(); ++i) {
        const GroupPlan& g = groups_[i];
        if (g.generation != sink->generation()) continue;
        for (unsigned q = 0; q < 4; ++q) {
            if (g.pending[q] == 0) continue;
            for (unsigned k = 0; k < g.size; ++k) g.plans[k]->functional.pending[q] += g.pending[q];
            g.pending[q] = 0;
        }
    }
    for (unsigned i = 0; i < stable_plans_.size(); ++i) {
        const UopPlan& plan = stable_plans_[i];
        FunctionalPlan& f = plan.functional;
        if (f.generation != sink->generation()) continue;
        for (unsigned q = 0; q < 4; ++q) {
            if (f.pending[q] == 0) continue;
            // The qualifier's logical processor and privilege level (any CPL other than 0 counts as user).
            retire_functional(threads_[q >> 1], q >> 1, (q & 1u) ? 0 : 3, plan, f.pending[q], sink);
            f.pending[q] = 0;
            if (f.work != FunctionalPlan::Work::Branch) continue;
            // The branch's outcomes (functional_branch): its uop and its retirement events.
            Thread& th = threads_[q >> 1];
            for (unsigned o = 0; o < 4; ++o) {
                const std::uint64_t n = f.branch_outcomes[q][o];
                if (n == 0) continue;
                const bool taken = (o & 2u) != 0, mispredicted = (o & 1u) != 0;
                sink->retire_uops(caused_signature(f, f.branch_spec, mispredicted ? kReplayMispredBranch : 0), n);
                branch_events(f.cls, taken, mispredicted, 0, sink, n);
                th.detail.branches += n;
                if (mispredicted) th.detail.mispredicts += n;
                f.branch_outcomes[q][o] = 0;
            }
        }
    }
    functional_who_ = kNobody;  // the sink's selection changed
}

// The helpers below count into the qualifier execute_functional() selected in the sink.

// Delivery that execute_functional() could not do inline: the head of a line, or a trace-cache miss and build mode.
void Core::functional_fetch(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan,
                            FunctionalSink* sink) {
    if (tc_.access(t, tag_pc(insn.pc, t), plan.tc_slots).hit) {
        th.fetch_mode = FrontMode::Deliver;
        return;
    }
    ++th.detail.tc_misses;
    build(th, t, insn, 0, sink);
    th.fetch_mode = FrontMode::Build;
    if (!plan.from_rom) sink->add(EventId::UopQueueWrites, kFromBuild, plan.total_uops);
}

// After delivery: the work of a plan with one store and nothing else that can change, as the walk does it: the
// store address's access, then the commit. Out of line: inline, it made the groups' loop slower for the programs
// that have few such stores (matmul).
void Core::functional_store(unsigned t, const Instruction& insn, const UopPlan& plan, FunctionalSink* sink) {
    const FunctionalPlan& f = plan.functional;
    const unsigned i = f.access_spec[0];
    std::uint16_t causes = 0, mob = 0;
    store_address(t, insn.mem[plan.specs[i].mem], 0, 0, sink, &causes, &mob);
    sink->retire_uops(caused_signature(f, i, causes), 1);
    commit_store(threads_[t], t, 0, &insn.mem[f.commit_mem], 0, 0, sink);
}

// Everything after delivery, in general: the ROM's delivery events, then the walk (core_walker.h).
void Core::functional_uops(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan,
                           FunctionalSink* sink) {
    if (plan.from_rom) {
        sink->add(EventId::TcMsXfer, kCisc, 2);  // counted twice per transfer (table note)
        sink->add(EventId::UopQueueWrites, kFromRom, plan.total_uops);
    }
    walk<FunctionalSink, walk_shape::General>(th, t, insn, plan, sink, nullptr);
}

}  // namespace netburst::emu
