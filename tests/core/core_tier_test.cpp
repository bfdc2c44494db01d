// The two tiers of the core model count the same functional events: on every trace of the corpus (tier_corpus.h),
// every (qualifier, event, mask bit) that does not depend on timing, every signature of retired non-bogus uops and
// every kind of retired non-bogus instruction is counted the same by Core::execute (the timing tier, through its
// Outcomes) and Core::execute_functional (the functional tier, through a FunctionalSink); and the functional tier
// counts nothing that depends on timing.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "emulator/core/core.h"
#include "emulator/model/coverage.h"
#include "tests/emulator/tier_corpus.h"

namespace netburst::emu::test {
namespace {

unsigned qualifier(unsigned thread, unsigned cpl) { return (thread & 1u) * 2 + (cpl == 0 ? 1u : 0u); }

// What the PMU can learn from either tier, by qualifier.
struct Counts {
    std::map<std::tuple<unsigned, unsigned, unsigned>, std::uint64_t> events;  // (q, event, bit)
    std::map<std::pair<unsigned, std::uint64_t>, std::uint64_t> uops;          // (q, signature key)
    std::map<std::pair<unsigned, unsigned>, std::uint64_t> instructions;       // (q, uop kinds)
    std::uint64_t core_instructions[2] = {}, core_uops[2] = {};
};

// The timing tier's Outcomes, summed. A uop's signature there may carry MOB replays (timing: the functional tier
// never sees them), so they are left out, and the MOB mask keeps only what a split access sets.
void add_outcome(const Outcome& o, Counts* c, unsigned* kinds) {
    const unsigned q = qualifier(o.thread, o.cpl);
    for (unsigned i = 0; i < o.num_events; ++i) {
        const EventRecord& e = o.events[i];
        if (!timing_dependent(e.event, e.mask_bit))
            c->events[{q, static_cast<unsigned>(e.event), e.mask_bit}] += e.count;
    }
    for (unsigned i = 0; i < o.num_intervals; ++i) {
        const IntervalRecord& r = o.intervals[i];
        if (!timing_dependent(r.event, r.mask_bit))
            c->events[{q, static_cast<unsigned>(r.event), r.mask_bit}] += (r.end - r.begin) * r.per_cycle;
    }
    for (unsigned i = 0; i < o.num_uops; ++i) {
        const UopRecord& u = o.uops[i];
        if (u.bogus) continue;
        UopSignature s;
        s.kind = u.kind;
        s.has_exec_event = u.has_exec_event;
        if (u.has_exec_event) {
            s.exec_event = u.exec_event;
            s.exec_mask_bit = u.exec_mask_bit;
        }
        s.replay_causes = static_cast<std::uint16_t>(u.replay_causes & ~kReplayMob);
        s.mob_mask = static_cast<std::uint16_t>((u.replay_causes & kReplaySplit) ? u.mob_mask & 2u : 0u);
        ++c->uops[{q, s.key()}];
        if (u.kind == UopKind::Load) *kinds |= 1u;
        if (u.kind == UopKind::Store) *kinds |= 2u;
        if (u.last_of_instruction) {
            ++c->instructions[{q, *kinds}];
            *kinds = 0;
        }
    }
}

// Runs the trace in the timing tier the way the emulator drives it (records of an old privilege level flushed
// before a new one's instruction, every logical processor drained at the end).
Counts timing_tier(const CorpusTrace& trace) {
    std::unique_ptr<Core> core(new Core);
    core->reset(make_core_config(trace.machine));
    std::unique_ptr<Outcome> out(new Outcome);
    Counts c;
    unsigned kinds[2] = {0, 0};
    for (const Instruction& insn : trace.insns) {
        while (core->privilege_flush(insn, out.get())) add_outcome(*out, &c, &kinds[insn.thread & 1]);
        core->execute(insn, out.get());
        EXPECT_FALSE(out->overflowed);
        add_outcome(*out, &c, &kinds[insn.thread & 1]);
    }
    for (unsigned t = 0; t < trace.machine.logical_processors(); ++t) {
        do {
            core->serialize(t, out.get());
            add_outcome(*out, &c, &kinds[t]);
        } while (core->has_pending(t));
        core->stop_thread(t, out.get());
        add_outcome(*out, &c, &kinds[t]);
        while (core->has_pending(t)) {
            core->serialize(t, out.get());
            add_outcome(*out, &c, &kinds[t]);
        }
        EXPECT_EQ(core->detail(t).records_dropped, 0u);
        c.core_instructions[t] = core->stats(t).instructions;
        c.core_uops[t] = core->stats(t).uops_retired;
    }
    return c;
}

// Runs the trace in the functional tier one instruction at a time, or (`groups`) in runs of up to
// GroupPlan::kMaxMembers taken as group plans (group_plan.h), the way the Valgrind tool takes its group records
// (more generally: any member may access memory or branch); *grouped counts the instructions that ran in a group.
Counts functional_tier(const CorpusTrace& trace, Counts* timing_pairs_seen, bool groups = false,
                       std::uint64_t* grouped = nullptr) {
    std::unique_ptr<Core> core(new Core);
    core->reset(make_core_config(trace.machine));
    std::unique_ptr<FunctionalSink> sink(new FunctionalSink);
    sink->reset();
    const std::vector<Instruction>& insns = trace.insns;
    for (std::size_t i = 0; i < insns.size();) {
        if (groups) {
            // The longest run from here of instructions of one logical processor and privilege level with stable
            // plans.
            const UopPlan* plans[GroupPlan::kMaxMembers];
            std::uint64_t pcs[GroupPlan::kMaxMembers];
            unsigned n = 0;
            while (n < GroupPlan::kMaxMembers && i + n < insns.size()) {
                const Instruction& m = insns[i + n];
                if (m.thread != insns[i].thread || m.cpl != insns[i].cpl) break;
                const UopPlan* plan = core->stable_plan(m);
                if (plan == nullptr) break;
                core->prepare_functional(*plan, m, sink.get());
                plans[n] = plan;
                pcs[n++] = m.pc;
            }
            const GroupPlan* g = n >= 2 ? core->stable_group(plans, pcs, n, sink.get()) : nullptr;
            if (g != nullptr) {
                core->execute_group_functional(
                    insns[i].thread, insns[i].cpl, *g,
                    [&insns, i](unsigned k) -> const Instruction& { return insns[i + k]; }, sink.get());
                *grouped += n;
                i += n;
                continue;
            }
        }
        core->execute_functional(insns[i++], sink.get());
    }
    core->flush_functional(sink.get());
    Counts c;
    for (unsigned q = 0; q < FunctionalSink::kQualifiers; ++q) {
        for (unsigned e = 0; e < kNumEvents; ++e) {
            for (unsigned bit = 0; bit < 16; ++bit) {
                const std::uint64_t n = sink->events(q, static_cast<EventId>(e), bit);
                if (n == 0) continue;
                if (timing_dependent(static_cast<EventId>(e), bit))
                    timing_pairs_seen->events[{q, e, bit}] += n;
                else
                    c.events[{q, e, bit}] += n;
            }
        }
        for (unsigned i = 0; i < sink->num_signatures(); ++i)
            if (sink->uops(q, i) != 0) c.uops[{q, sink->signature(i).key()}] += sink->uops(q, i);
        for (unsigned kinds = 0; kinds < 4; ++kinds)
            if (sink->instructions(q, kinds) != 0) c.instructions[{q, kinds}] += sink->instructions(q, kinds);
    }
    for (unsigned t = 0; t < 2; ++t) {
        c.core_instructions[t] = core->stats(t).instructions;
        c.core_uops[t] = core->stats(t).uops_retired;
    }
    return c;
}

template <typename Map>
void expect_same(const Map& timing, const Map& functional, const std::string& what, const std::string& trace) {
    for (const auto& [key, n] : timing) {
        auto it = functional.find(key);
        EXPECT_EQ(it == functional.end() ? 0u : it->second, n) << trace << ": " << what << " differs";
    }
    for (const auto& [key, n] : functional)
        if (!timing.count(key)) {
            EXPECT_EQ(n, 0u) << trace << ": " << what << " only in the functional tier";
        }
}

std::string describe(const std::tuple<unsigned, unsigned, unsigned>& k) {
    const EventDef& e = event_def(static_cast<EventId>(std::get<1>(k)));
    return std::string(e.name) + " bit " + std::to_string(std::get<2>(k)) + " q " + std::to_string(std::get<0>(k));
}

TEST(CoreTier, FunctionalCountsAreTheTimingTiersOnTheCorpus) {
    for (const CorpusTrace& trace : tier_corpus()) {
        SCOPED_TRACE(trace.name);
        const Counts timing = timing_tier(trace);
        Counts timing_pairs;
        const Counts functional = functional_tier(trace, &timing_pairs);
        for (const auto& [key, n] : timing.events) {
            auto it = functional.events.find(key);
            EXPECT_EQ(it == functional.events.end() ? 0u : it->second, n) << trace.name << ": " << describe(key);
        }
        for (const auto& [key, n] : functional.events)
            if (!timing.events.count(key)) {
                EXPECT_EQ(n, 0u) << trace.name << ": only functional " << describe(key);
            }
        expect_same(timing.uops, functional.uops, "retired uops of a signature", trace.name);
        expect_same(timing.instructions, functional.instructions, "retired instructions of a kind", trace.name);
        for (const auto& [key, n] : timing_pairs.events)
            ADD_FAILURE() << trace.name << ": the functional tier counted timing-dependent " << describe(key) << " "
                          << n;
        for (unsigned t = 0; t < 2; ++t) {
            EXPECT_EQ(functional.core_instructions[t], timing.core_instructions[t]) << trace.name;
            EXPECT_EQ(functional.core_uops[t], timing.core_uops[t]) << trace.name;
        }
    }
}

// Runs taken as one unit (group plans) count exactly what their instructions count one by one.
TEST(CoreTier, GroupedRunsCountWhatTheirInstructionsCount) {
    std::uint64_t grouped = 0;
    for (const CorpusTrace& trace : tier_corpus()) {
        SCOPED_TRACE(trace.name);
        Counts ignored;
        const Counts single = functional_tier(trace, &ignored);
        const Counts groups = functional_tier(trace, &ignored, true, &grouped);
        EXPECT_EQ(groups.events, single.events);
        EXPECT_EQ(groups.uops, single.uops);
        EXPECT_EQ(groups.instructions, single.instructions);
        for (unsigned t = 0; t < 2; ++t) {
            EXPECT_EQ(groups.core_instructions[t], single.core_instructions[t]);
            EXPECT_EQ(groups.core_uops[t], single.core_uops[t]);
        }
    }
    EXPECT_GT(grouped, 1000u);  // the corpus has such runs
}

// The corpus reaches what it is meant to: every functional event the core emits shows up somewhere, so that the
// comparison above covers them.
TEST(CoreTier, TheCorpusExercisesEveryFunctionalEvent) {
    std::map<std::pair<unsigned, unsigned>, std::uint64_t> seen;  // (event, bit), any qualifier
    bool kernel = false, second_thread = false;
    for (const CorpusTrace& trace : tier_corpus()) {
        Counts ignored;
        const Counts c = functional_tier(trace, &ignored);
        for (const auto& [key, n] : c.events) {
            seen[{std::get<1>(key), std::get<2>(key)}] += n;
            if (std::get<0>(key) & 1u) kernel = true;
            if (std::get<0>(key) >= 2) second_thread = true;
        }
    }
    EXPECT_TRUE(kernel);
    EXPECT_TRUE(second_thread);
    auto expect_seen = [&](EventId e, unsigned bit) {
        const std::uint64_t n = seen[std::make_pair(static_cast<unsigned>(e), bit)];
        EXPECT_GT(n, 0u) << event_def(e).name << " bit " << bit;
    };
    expect_seen(EventId::BpuFetchRequest, 0);
    expect_seen(EventId::ItlbReference, 0);
    expect_seen(EventId::ItlbReference, 1);
    expect_seen(EventId::PageWalkType, 0);
    expect_seen(EventId::PageWalkType, 1);
    for (unsigned bit : {1u, 2u, 6u, 8u, 10u}) expect_seen(EventId::BsqCacheReference, bit);  // L2 hits, misses
    expect_seen(EventId::IoqAllocation, 5);
    expect_seen(EventId::IoqAllocation, 6);
    expect_seen(EventId::IoqAllocation, 15);
    for (unsigned bit : {0u, 1u, 9u}) expect_seen(EventId::BsqAllocation, bit);
    expect_seen(EventId::MemoryComplete, 0);
    expect_seen(EventId::MemoryComplete, 1);
    expect_seen(EventId::LoadPortReplay, 1);
    expect_seen(EventId::StorePortReplay, 1);
    expect_seen(EventId::TcMsXfer, 0);
    expect_seen(EventId::UopQueueWrites, 0);
    expect_seen(EventId::UopQueueWrites, 2);
    for (unsigned bit : {0u, 2u, 3u}) expect_seen(EventId::BranchRetired, bit);
    expect_seen(EventId::MispredBranchRetired, 0);
    for (unsigned bit : {0u, 1u, 2u, 3u, 4u}) expect_seen(EventId::RetiredBranchType, bit);
    for (unsigned bit : {1u, 4u}) expect_seen(EventId::RetiredMispredBranchType, bit);
    expect_seen(EventId::TcMisc, 4);
    expect_seen(EventId::MachineClear, 6);
}

// A uop signature's block of signatures with replay causes is made once: signing more plans with the same uops
// reuses it, so the table stays within the bound functional_sink.h states however many plans are signed.
TEST(CoreTier, CausedSignatureBlocksAreMadeOnce) {
    std::unique_ptr<FunctionalSink> sink(new FunctionalSink);
    sink->reset();
    UopSignature load;
    load.kind = UopKind::Load;
    const std::uint16_t base = sink->intern_caused(load);
    ASSERT_NE(base, FunctionalSink::kNoSignature);
    const unsigned made = sink->num_signatures();
    for (unsigned i = 0; i < 1000; ++i) EXPECT_EQ(sink->intern_caused(load), base);
    EXPECT_EQ(sink->num_signatures(), made);
    // The block is in caused_index() order, each with the split MOB bit its causes imply.
    const UopSignature& split_miss = sink->signature(base + FunctionalSink::caused_index(kReplaySplit | 1u));
    EXPECT_EQ(split_miss.replay_causes, kReplaySplit | 1u);
    EXPECT_EQ(split_miss.mob_mask, 2u);
    EXPECT_EQ(sink->signature(base).replay_causes, 0u);
}

}  // namespace
}  // namespace netburst::emu::test
