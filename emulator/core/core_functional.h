// The functional tier's per-instruction path, inline (core.h includes this file at its end): what every
// instruction needs (its retirement, and delivery by the line being delivered), and the two commonest kinds of
// work after delivery, a single load and a branch without memory operands. They run the same code as the timing
// tier (core_memory.h, the trace cache, the branch predictor, the caches); the rare and long paths are in
// core_functional.cpp.
#pragma once

#include "emulator/core/core.h"

namespace netburst::emu {

namespace core_functional {
constexpr unsigned kLoadSplitComplete = 0;  // memory_complete
}  // namespace core_functional

__attribute__((always_inline)) inline void Core::execute_functional(const Instruction& insn, const UopPlan& plan,
                                                                     FunctionalSink* sink) {
    if (__builtin_expect(plan.functional.generation != sink->generation(), 0)) sign_plan(plan, insn, sink);
    execute_functional_prepared(insn, plan, sink);
}

__attribute__((always_inline)) inline void Core::execute_functional_prepared(const Instruction& insn,
                                                                              const UopPlan& plan,
                                                                              FunctionalSink* sink) {
    const unsigned t = cfg_.hyper_threading ? (insn.thread & 1u) : 0u;
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
    if (f.work == FunctionalPlan::Work::None) return;
    if (f.work == FunctionalPlan::Work::Load) {
        functional_load(t, insn, plan, sink);
    } else if (f.work == FunctionalPlan::Work::Branch) {
        functional_branch(threads_[t], t, insn, plan, sink);
    } else {
        functional_uops(threads_[t], t, insn, plan, sink);
    }
}

// After delivery: the work of a plan with one load and nothing else that can change.
__attribute__((always_inline)) inline void Core::functional_load(unsigned t, const Instruction& insn,
                                                                  const UopPlan& plan, FunctionalSink* sink) {
    const FunctionalPlan& f = plan.functional;
    const LoadAccess a = load_access(t, insn.mem[f.load_mem], 0, sink);
    if (__builtin_expect(a.split, 0)) sink->add(EventId::MemoryComplete, core_functional::kLoadSplitComplete, 1);
    const std::uint16_t causes = a.causes, mob = a.mob;
    const unsigned i = f.access_spec[0];
    std::uint16_t signature = f.signature[i];
    if (causes != 0) {
        // A load that met a replay cause usually meets the same one next time.
        const std::uint32_t key = causes | static_cast<std::uint32_t>(mob) << 16;
        signature =
            f.dynamic_key[i][0] == key ? f.dynamic_signature[i][0] : caused_signature(plan, i, causes, mob, sink);
    }
    sink->retire_uops(signature, 1);
}

// After delivery: a branch without memory operands.
__attribute__((always_inline)) inline void Core::functional_branch(Thread& th, unsigned t, const Instruction& insn,
                                                                    const UopPlan& plan, FunctionalSink* sink) {
    const FunctionalPlan& f = plan.functional;
    const bool mispredicted = bp_.predict_and_update(t, insn, tag_pc(insn.pc, t)).mispredicted;
    ++th.detail.branches;
    const unsigned i = f.branch_spec;
    if (__builtin_expect(mispredicted, 0)) {
        ++th.detail.mispredicts;
        sink->retire_uops(caused_signature(plan, i, kReplayMispredBranch, 0, sink), 1);
    } else {
        sink->retire_uops(f.signature[i], 1);
    }
    branch_events(insn, mispredicted, 0, sink);
}

}  // namespace netburst::emu
