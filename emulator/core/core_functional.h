// The functional tier's per-instruction path, inline (core.h includes this file at its end): what every
// instruction needs (its retirement, and delivery by the line being delivered), and the two commonest kinds of
// work after delivery, a single load and a branch without memory operands. They run the same code as the timing
// tier (core_memory.h, the trace cache, the branch predictor, the caches); the rest walks the instruction as the
// timing tier does (core_walker.h, from core_functional.cpp).
#pragma once

#include "emulator/core/core.h"

namespace netburst::emu {

__attribute__((always_inline)) inline void Core::execute_functional(const Instruction& insn, const UopPlan& plan,
                                                                     FunctionalSink* sink) {
    if (__builtin_expect(plan.functional.generation != sink->generation(), 0)) sign_plan(plan, insn, sink);
    execute_functional_prepared(insn, plan, sink);
}

__attribute__((always_inline)) inline void Core::execute_functional_prepared(const Instruction& insn,
                                                                              const UopPlan& plan,
                                                                              FunctionalSink* sink) {
    const unsigned t = insn.thread & thread_mask_;
    FunctionalPlan& f = plan.functional;
    // What the instruction counts is qualified by its logical processor and privilege level, which rarely change.
    if (__builtin_expect((t << 8 | insn.cpl) != functional_who_, 0)) select_qualifier(t, insn.cpl, sink);
    if (__builtin_expect(f.deferred, 1))
        ++f.pending[functional_q_];
    else
        retire_functional(threads_[t], t, insn.cpl, plan, 1, sink);
    const std::uint64_t tagged = tag_pc(insn.pc, t);
    if (!tc_.deliver_next(t, tagged) && !tc_.deliver_head(t, tagged))
        functional_fetch(threads_[t], t, insn, plan, sink);
    if (f.work != FunctionalPlan::Work::None) functional_work(t, insn, plan, sink);
}

// After delivery: whatever a plan does besides retiring (not Work::None).
__attribute__((always_inline)) inline void Core::functional_work(unsigned t, const Instruction& insn,
                                                                  const UopPlan& plan, FunctionalSink* sink) {
    const FunctionalPlan& f = plan.functional;
    if (f.work == FunctionalPlan::Work::Load) {
        functional_load(t, insn, plan, sink);
    } else if (f.work == FunctionalPlan::Work::Branch) {
        functional_branch(threads_[t], t, insn, plan, sink);
    } else if (f.work == FunctionalPlan::Work::Store) {
        functional_store(t, insn, plan, sink);
    } else {
        functional_uops(threads_[t], t, insn, plan, sink);
    }
}

template <class Members>
__attribute__((always_inline)) inline void Core::execute_group_functional(unsigned thread, unsigned cpl,
                                                                           const GroupPlan& g, Members members,
                                                                           FunctionalSink* sink) {
    const unsigned t = thread & thread_mask_;
    if (__builtin_expect((t << 8 | cpl) != functional_who_, 0)) select_qualifier(t, cpl, sink);
    if (__builtin_expect(g.generation != sink->generation(), 0)) {
        // The sink was reset: the members' plans sign again (to the same work: it follows from their shapes).
        for (unsigned k = 0; k < g.size; ++k) prepare_functional(*g.plans[k], members(k), sink);
        for (std::uint64_t& n : g.pending) n = 0;
        g.generation = sink->generation();
    }
    ++g.pending[functional_q_];
    // (Locals: the work writes through pointers the compiler cannot tell from the plan's.)
    const unsigned size = g.size;
    const std::uint32_t working = g.working;
    if (tc_.replay(t, g.memo)) {
        // Delivered in one step, as last time from here (group_plan.h), then the members' work in order.
        const unsigned n = g.num_working;
        for (unsigned i = 0; i < n; ++i) {
            const unsigned m = g.work_member[i];
            const UopPlan& plan = *g.plans[m];
            // Tests in functional_work's order: a switch over the four kinds made matmul's groups 1 % slower.
            const auto work = static_cast<FunctionalPlan::Work>(g.work_kind[i]);
            if (work == FunctionalPlan::Work::Load) functional_load(t, members(m), plan, sink);
            else if (work == FunctionalPlan::Work::Branch) functional_branch(threads_[t], t, members(m), plan, sink);
            else if (work == FunctionalPlan::Work::Store) functional_store(t, members(m), plan, sink);
            else functional_uops(threads_[t], t, members(m), plan, sink);
        }
        return;
    }
    // In program order (group_plan.h): the members the line being delivered holds, then their work. Recorded for
    // replay when every member is delivered from the trace cache and only the last one's work may change it.
    const bool memo = g.run_end[0] == size;
    const std::uint64_t epoch = tc_.epoch();
    if (memo) tc_.begin_memo(t, &g.memo);
    bool hits = true;
    for (unsigned k = 0; k < size;) {
        unsigned end = k + tc_.deliver_run(t, g.pc_low + k, g.run_end[k] - k);
        if (end == k) {
            const Instruction& insn = members(k);
            if (tc_.deliver_head(t, tag_pc(insn.pc, t))) {
                if (memo) tc_.note_head(t, &g.memo);
            } else {
                functional_fetch(threads_[t], t, insn, *g.plans[k], sink);
                hits = false;
            }
            end = k + 1;
        }
        for (std::uint32_t bits = working & ((1u << end) - (1u << k)); bits != 0; bits &= bits - 1) {
            const unsigned m = static_cast<unsigned>(__builtin_ctz(bits));
            functional_work(t, members(m), *g.plans[m], sink);
        }
        k = end;
    }
    if (memo && hits) tc_.end_memo(t, epoch, &g.memo);
}

// After delivery: the work of a plan with one load and nothing else that can change.
__attribute__((always_inline)) inline void Core::functional_load(unsigned t, const Instruction& insn,
                                                                  const UopPlan& plan, FunctionalSink* sink) {
    const FunctionalPlan& f = plan.functional;
    const unsigned i = f.access_spec[0];
    std::uint16_t causes = 0, mob = 0;
    Tick spec = 0;
    load_uop(threads_[t], t, &insn.mem[f.load_mem], plan.specs[i], 0, sink, &causes, &mob, &spec);
    sink->retire_uops(caused_signature(f, i, causes), 1);
}

// After delivery: a branch without memory operands.
__attribute__((always_inline)) inline void Core::functional_branch(Thread& th, unsigned t, const Instruction& insn,
                                                                    const UopPlan& plan, FunctionalSink* sink) {
    FunctionalPlan& f = plan.functional;
    const bool mispredicted = bp_.predict_and_update(t, insn, tag_pc(insn.pc, t)).mispredicted;
    if (__builtin_expect(f.deferred, 1)) {
        // Retired with the plan's executions (flush_functional).
        ++f.branch_outcomes[functional_q_][(insn.taken ? 2u : 0u) | (mispredicted ? 1u : 0u)];
        return;
    }
    ++th.detail.branches;
    if (__builtin_expect(mispredicted, 0)) ++th.detail.mispredicts;
    sink->retire_uops(caused_signature(f, f.branch_spec, mispredicted ? kReplayMispredBranch : 0), 1);
    branch_events(insn, mispredicted, 0, sink);
}

}  // namespace netburst::emu
