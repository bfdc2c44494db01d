// The NetBurst core model: front end (trace cache, ITLB, branch prediction), uop decomposition, out-of-order
// engine, memory hierarchy and SMT, producing for each executed instruction the Outcome the PMU consumes.
//
// Freestanding: no allocation, no exceptions, no C library. Large tables are fixed-size members sized for the
// largest configuration, so the object is big: create it with new (or VG_(malloc) + placement new), then
// reset().
//
// How it works (doc/emulator-model.md): a dataflow timing model. Each instruction is split into uops; each uop's
// delivery, allocation, issue, completion and retirement cycles are computed in program order against the
// resources it needs (delivery/allocation/retirement bandwidth shared cycle by cycle between the logical
// processors, ROB/load/store buffer entries, execution ports, caches, the bus). Nothing is simulated cycle by
// cycle.
//
// Two tiers (doc/emulator-model.md, "Tiers"): execute() is the timing tier, which computes every cycle and reports
// each instruction as an Outcome; execute_functional() is the functional tier, which only updates the functional
// state (trace cache, predictors, TLBs, caches, SMC detection) and adds the functional events (model/coverage.h,
// timing_dependent()) to a FunctionalSink. Both tiers run the same code on that state (the caches, the bus, build
// mode, loads, stores and branch retirement are templates over the sink), in the same program order, so every
// functional count is the same in either tier. Cycles advance only in the timing tier.
#pragma once

#include <cstdint>

#include "emulator/core/branch_predictor.h"
#include "emulator/core/core_config.h"
#include "emulator/core/cycle_slots.h"
#include "emulator/core/event_sink.h"
#include "emulator/core/group_plan.h"
#include "emulator/model/functional_sink.h"
#include "emulator/core/memory_system.h"
#include "emulator/core/store_buffer.h"
#include "emulator/core/tick_ring.h"
#include "emulator/core/tlb.h"
#include "emulator/core/trace_cache.h"
#include "emulator/core/uop_decode.h"
#include "emulator/model/outcome.h"

namespace netburst::emu {

class Core {
public:
    void reset(const CoreConfig& config);

    // Runs one instruction of logical processor insn.thread and describes it in *out (which it clears first).
    void execute(const Instruction& insn, Outcome* out) { execute(insn, plan_of(insn), out); }
    // The same with the instruction's plan from stable_plan() (for an instruction of that shape).
    void execute(const Instruction& insn, const UopPlan& plan, Outcome* out);

    // The functional tier: runs one instruction without time and adds its functional events and retirement to
    // *sink (reset before its first use). Call it only with every logical processor drained: after serialize()
    // (repeated while has_pending()) for each one that ran. Afterwards execute() resumes as after a serialising
    // instruction at the cycle where time stopped.
    void execute_functional(const Instruction& insn, FunctionalSink* sink) {
        execute_functional(insn, plan_of(insn), sink);
    }
    // The same with the instruction's plan from stable_plan() (for an instruction of that shape).
    // The inline part is in core_functional.h.
    void execute_functional(const Instruction& insn, const UopPlan& plan, FunctionalSink* sink);
    // A stable plan made ready for `sink` once, so that execute_functional_prepared() need not check it.
    void prepare_functional(const UopPlan& plan, const Instruction& insn, FunctionalSink* sink) {
        if (plan.functional.generation != sink->generation()) sign_plan(plan, insn, sink);
    }
    void execute_functional_prepared(const Instruction& insn, const UopPlan& plan, FunctionalSink* sink);

    // A run of instructions a front end always executes together, in order (group_plan.h), given by their stable
    // plans (prepared for `sink` by the Emulator) and addresses: its group plan, made once; nullptr when the run
    // does not qualify or too many runs were asked for.
    const GroupPlan* stable_group(const UopPlan* const* plans, const std::uint64_t* pcs, unsigned size,
                                  const FunctionalSink* sink);
    // execute_functional_prepared() for each member of the run in turn, as one unit (inline, core_functional.h).
    // `members(k)` gives member k's Instruction; all run on logical processor `thread` at privilege level `cpl`
    // (the members' own `thread` and `cpl` fields are not read).
    template <class Members>
    void execute_group_functional(unsigned thread, unsigned cpl, const GroupPlan& group, Members members,
                                  FunctionalSink* sink);

    // Adds the executions the functional tier counted in its plans (FunctionalPlan::pending) to *sink and to the
    // statistics. Call it before reading the sink's counts.
    void flush_functional(FunctionalSink* sink);

    // Before an instruction whose privilege level differs from the previous one of its logical processor: records
    // gathered across instructions (uop_queue_writes per cycle) or waiting in the overflow queue belong to the old
    // level. Returns true after writing (some of) them into *out (cleared first), which the driver gives the PMU
    // before asking again; false when nothing is left, and then execute() may run the instruction.
    // The test inline: the timing tier asks before every instruction, and the answer is almost always false.
    bool privilege_flush(const Instruction& next, Outcome* out) {
        const Thread& th = threads_[next.thread & thread_mask_];
        if (next.cpl == th.cpl || (th.queue_count == 0 && th.pending.empty())) return false;
        return privilege_flush_records(next, out);
    }

    // The decomposition of instructions of `insn`'s shape (class, memory operands and their sizes, the flags and
    // stack-pointer writes, a string's count), valid until reset(); nullptr when too many shapes were asked for.
    // A front end that sees the same static instruction again and again keeps it and passes it back.
    const UopPlan* stable_plan(const Instruction& insn) { return stable_plans_.get(insn); }
    // The plan both tiers use for an instruction: the stable one, or (too many shapes) the plan cache's.
    const UopPlan& plan_of(const Instruction& insn) {
        const UopPlan* plan = stable_plans_.get(insn);
        return plan != nullptr ? *plan : plans_.lookup(insn);
    }

    // Records of logical processor `thread` still wait in its overflow queue (serialize() again to drain them).
    bool has_pending(unsigned thread) const { return !threads_[thread & 1u].pending.empty(); }

    // With two logical processors: which one should supply the next instruction, given which still have
    // instructions (the one whose front end is free earliest, so that time advances evenly).
    unsigned next_thread(bool thread0_has_more, bool thread1_has_more) const;

    // The logical processor has no more instructions: it stops competing for the core. *out receives any final
    // events (it is cleared first); those that did not fit wait until serialize() (while has_pending()).
    void stop_thread(unsigned thread, Outcome* out);

    // Serialises logical processor `thread` the way wrmsr/rdmsr do: nothing younger starts before everything older
    // has retired, and every cycle up to that retirement is published (*out, cleared first, carries the cycle
    // records and a frontier at the retirement), so the PMU can close them before software reads it.
    void serialize(unsigned thread, Outcome* out);

    // The cycle by which everything executed so far has retired.
    Cycle now() const;

    struct Stats {
        std::uint64_t instructions = 0;
        std::uint64_t uops_retired = 0;   // non-bogus
        std::uint64_t bogus_uops = 0;
        Cycle cycles = 0;
    };
    Stats stats(unsigned thread) const;

    // Beyond the public contract: detail for tests and the documentation's measurements.
    struct DetailStats {
        std::uint64_t tc_misses = 0, tc_hits = 0, branches = 0, mispredicts = 0, bogus_uops_capped = 0;
        std::uint64_t uop_records_summarised = 0, records_deferred = 0, records_dropped = 0;
        std::uint64_t sb_stall_cycles = 0, smc_flushes = 0;
    };
    DetailStats detail(unsigned thread) const {
        DetailStats d = threads_[thread & 1].detail;
        d.records_deferred = threads_[thread & 1].pending.deferred();
        d.records_dropped += threads_[thread & 1].pending.dropped();
        return d;
    }
    // The timing state logical processor `thread` starts its next instruction in, hashed relative to its next
    // delivery cycle (state_hash.h): equal for states that would time the same instructions with the same outcomes
    // the same way, up to a shift in time. The timing memo's key (core_state_hash.cpp).
    struct TimingState {
        std::uint64_t hash;
        Tick reference;  // the tick the hash counts from (the next delivery cycle's)
    };
    TimingState timing_state(unsigned thread) const;

    const MemorySystem::Stats& memory_stats() const { return mem_.stats(); }
    const CoreConfig& config() const { return cfg_; }
    bool l1_holds(std::uint64_t address, unsigned thread) { return mem_.l1_holds(address, asid(thread)); }
    bool tc_holds(std::uint64_t pc, unsigned thread) const { return tc_.holds_line(tag_pc(pc, thread)); }

private:
    // Trace-cache delivery state of a logical processor, for TC_deliver_mode.
    enum class FrontMode : std::uint8_t { Deliver, Build, Idle };
    struct ModeLog {
        static constexpr unsigned kMax = 64;
        FrontMode at_emitted = FrontMode::Deliver;  // the mode at the emitted point
        FrontMode current = FrontMode::Deliver;     // the mode after the last transition
        Cycle when[kMax];
        FrontMode mode[kMax];
        unsigned head = 0, tail = 0;
    };
    static constexpr Tick kOnTime = ~Tick{0};  // Thread::reg_late of a value the scheduler timed right
    struct Thread {
        bool active = false;
        Cycle next_fetch = 0;      // earliest cycle this thread's next uop may be delivered
        Cycle last_decode = 0;     // build mode: the decoder's last cycle
        FrontMode fetch_mode = FrontMode::Deliver;
        std::uint64_t code_block = ~std::uint64_t{0};  // the last 64-byte code block fetched in build mode
        ModeLog modes;
        // Register scoreboard: when each register's value is available, and when the scheduler believed it
        // would be (they differ after a load that missed: dependents are replayed); for a late value, when the
        // replay system stopped the scheduler for it (kOnTime for a value that came when believed): uops
        // dispatched before then are replayed, later ones wait for the value (core_walker.h).
        // Bits as RegMask's (instruction.h), with kRegStBit + n standing for the x87 physical register Rn.
        Tick reg_ready[64];
        Tick reg_spec[64];
        Tick reg_late[64];
        unsigned x87_top = 0;      // the x87 TOP, followed through the pushes and pops the front end describes
        std::uint64_t uop_seq = 0, load_seq = 0, store_seq = 0;
        Cycle rob_free[128];       // per uop sequence number: the cycle its ROB entry is free again
        Cycle lb_free[64];
        Cycle sb_free[64];
        // Uop queues (0 memory, 1 general) and schedulers (core_walker::kSched*), in the allocation cycle's
        // frame: per queue, the cycle each uop left it for its scheduler, and the latest such cycle (in order);
        // per scheduler, the cycle each uop's entry is free again (it was dispatched).
        std::uint64_t queue_seq[2], sched_seq[4];
        Cycle queue_free[2][64];
        Cycle sched_free[4][64];
        Cycle queue_last[2];
        StoreBuffer stores;
        Cycle last_alloc = 0;
        Cycle last_retire = 0;
        Cycle last_commit = 0;
        std::uint64_t commit_slot = 0;  // the latest store's commit, in 1/store_commit_stores cycles
        Tick load_barrier = 0;     // fences: loads may not execute before this
        Tick last_load_done = 0;   // fences wait for every older load
        const UopPlan* recent[16];  // the latest correct-path instructions, patterns for wrong-path uops
        unsigned recent_pos = 0, recent_count = 0;
        Cycle running_emitted = 0;  // global_power_events:RUNNING emitted up to here
        // uop_queue_writes gathered per cycle across instructions (one record per cycle, not per instruction).
        Cycle queue_cycle = 0;
        unsigned queue_bit = 0, queue_count = 0;
        std::uint8_t queue_cpl = 3;
        PendingRecords pending;
        std::uint8_t cpl = 3;
        Stats stats;
        DetailStats detail;
    };

    // When the front end delivered the instruction's uops: explicit uop i at base + i / width (never after
    // `last`); a long flow's uops beyond the record cap are delivered in bulk, ending at `last`.
    struct Delivery {
        static constexpr unsigned kMax = 64;
        Cycle first;
        Cycle last;
        unsigned count;    // records with their own delivery cycle
        Cycle cycle[kMax];
        Cycle at(unsigned i) const { return i < count ? cycle[i] : last; }
    };
    // The single shapes' (core_walker.h): uop i at cycle[i].
    struct SingleDelivery {
        Cycle cycle[4];
    };

    // core.cpp
    unsigned asid(unsigned thread) const { return cfg_.shared_address_space ? 0 : thread; }
    static std::uint64_t fold(std::uint64_t address, unsigned asid) {
        return asid == 0 || (address >> 63) != 0 ? address : address ^ (std::uint64_t{1} << 56);
    }
    static std::uint64_t tag_pc(std::uint64_t pc, unsigned thread) {
        return pc ^ (static_cast<std::uint64_t>(thread) << 57);
    }
    bool smt_shared() const { return threads_[0].active && threads_[1].active; }
    void advance_time();

    // core_frontend.cpp
    void fetch(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, EventSink* sink, Delivery* d);
    // An immediate wider than a trace-cache slot holds takes a second delivery slot (CoreConfig::tc_imm_bits); a
    // microcode-ROM instruction's uops come from the ROM, not from the line's slots.
    bool takes_second_slot(const Instruction& insn, const UopPlan& plan) const {
        return insn.imm_bits > cfg_.tc_imm_bits && !plan.from_rom;
    }
    // Build mode after a trace-cache miss: the code fetch through the ITLB and the L2 (both tiers). Returns the
    // cycle decoding can start (timing tier).
    template <class Sink>
    Cycle build(Thread& th, unsigned t, const Instruction& insn, Cycle earliest, Sink* sink);
    void set_mode(Thread& th, FrontMode mode, Cycle when);
    void emit_modes(Cycle until, EventSink* sink);
    void queue_writes(Thread& th, Cycle cycle, unsigned bit, unsigned count, EventSink* sink) {
        if (cycle == th.queue_cycle && bit == th.queue_bit && th.cpl == th.queue_cpl) {
            th.queue_count += count;
            return;
        }
        new_queue_cycle(th, cycle, bit, count, sink);
    }
    void new_queue_cycle(Thread& th, Cycle cycle, unsigned bit, unsigned count, EventSink* sink);
    void flush_queue_writes(Thread& th, EventSink* sink);

    // privilege_flush() when there is something to write.
    bool privilege_flush_records(const Instruction& next, Outcome* out);

    // core_walker.h: one instruction's uops through the back end, in either tier (the sink) for a shape of
    // instruction (walk_shape).
    template <class Sink, class Shape>
    void walk(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, Sink* sink, Outcome* out);
    // The timing tier's walk of one shape, out of line (core_backend.cpp): each shape compiles on its own, with
    // the inlining budget of a function of its own.
    template <class Shape>
    void walk_timing(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, EventSink* sink,
                     Outcome* out);
    // The branch predictor's verdict on a branch, counted in the statistics.
    __attribute__((always_inline)) bool predict_branch(Thread& th, unsigned t, const Instruction& insn) {
        const bool mispredicted = bp_.predict_and_update(t, insn, tag_pc(insn.pc, t)).mispredicted;
        ++th.detail.branches;
        if (mispredicted) ++th.detail.mispredicts;
        return mispredicted;
    }
    // A branch uop retires: its events (and signature), and after a misprediction the wrong path (timing tier).
    template <class Sink>
    void retire_branch(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, unsigned spec,
                       UopRecord* rec, Cycle deliver, Tick done, bool mispredicted, unsigned rob_limit, Sink* sink,
                       Outcome* out);

    // core_backend.cpp
    // The common units inline; the rest in issue_slow().
    __attribute__((always_inline)) Tick issue_on(Unit unit, Tick ready, unsigned busy) {
        if (unit == Unit::FastAlu) {
            // Either double-speed ALU: the first free tick of the two.
            const Tick a = port0_.find_any(ready);
            if (a == ready) {
                port0_.set(a);
                return a;
            }
            const Tick b = port1_.find_any(ready);
            if (b < a) {
                port1_.set(b);
                return b;
            }
            port0_.set(a);
            return a;
        }
        if (unit == Unit::Load && busy <= 1) return load_port_.claim(ready, TickRing::kCycleStart);
        if (unit == Unit::Alu0) return port0_.claim(ready, TickRing::kAnyTick);
        return issue_slow(unit, ready, busy);
    }
    Tick issue_slow(Unit unit, Tick ready, unsigned busy);
    // A unit held `busy` and `busy - 1` cycles in turn (UopSpec::busy_alternates): this uop's turn.
    unsigned alternate(unsigned busy) {
        busy_turn_ ^= 1u;
        return busy - busy_turn_;
    }

    // The parts of loads, stores and branches both tiers share (core_memory.h).
    struct LoadAccess {
        Tick fill;               // when the data is in the L1 (timing tier)
        Tick access;             // when the L1 is read: the issue, later by a page walk
        std::uint64_t second;    // the second line's address when split
        std::uint16_t causes;    // ReplayCause bits met
        std::uint16_t mob;       // the split's load_port_replay bit
        bool split;              // it crossed a 64-byte line: two accesses, one replay
    };
    // A load's DTLB and cache accesses from tick `issue`: page walk, L1 (and beyond), the split's second line,
    // replay causes.
    template <class Sink>
    LoadAccess load_access(unsigned t, const MemOperand& m, Tick issue, Sink* sink);
    // A load uop of operand *m (nullptr: an address the input does not give) whose operands are ready at `ready`:
    // its accesses and replay causes, and (timing tier) when its data is there, and in *spec when the scheduler
    // believes it is.
    template <class Sink>
    Tick load_uop(Thread& th, unsigned t, const MemOperand* m, const UopSpec& s, Tick ready, Sink* sink,
                  std::uint16_t* causes, std::uint16_t* mob, Tick* spec);
    // A store-address uop: the DTLB and the split check. Returns when it is done (timing tier).
    template <class Sink>
    Tick store_address(unsigned t, const MemOperand& m, Tick issue, Tick done, Sink* sink, std::uint16_t* causes,
                       std::uint16_t* mob);
    // A retired store writes the caches (and may hit code in the trace cache: self-modifying code).
    template <class Sink>
    void commit_store(Thread& th, unsigned t, unsigned sb_index, const MemOperand* m, std::uint64_t sseq,
                      Cycle retire, Sink* sink);
    // The retirement events of a branch.
    template <class Sink>
    __attribute__((always_inline)) void branch_events(const Instruction& insn, bool mispredicted, Cycle when,
                                                      Sink* sink) {
        branch_events(insn.cls, insn.taken, mispredicted, when, sink, 1);
    }
    // The same for `n` branches of class `cls` (`taken`: a conditional branch's direction) with that outcome.
    template <class Sink>
    __attribute__((always_inline)) void branch_events(InsnClass cls, bool taken, bool mispredicted, Cycle when,
                                                      Sink* sink, std::uint64_t n);

    // core_functional.cpp
    void functional_fetch(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, FunctionalSink* sink);
    void functional_store(unsigned t, const Instruction& insn, const UopPlan& plan, FunctionalSink* sink);
    // core_functional.h (inline)
    void functional_work(unsigned t, const Instruction& insn, const UopPlan& plan, FunctionalSink* sink);
    void functional_load(unsigned t, const Instruction& insn, const UopPlan& plan, FunctionalSink* sink);
    void functional_branch(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan,
                           FunctionalSink* sink);
    void retire_functional(Thread& th, unsigned t, unsigned cpl, const UopPlan& plan, std::uint64_t n,
                           FunctionalSink* sink);
    // The functional tier's current logical processor and privilege level (Thread::cpl) and their qualifier.
    void select_qualifier(unsigned t, unsigned cpl, FunctionalSink* sink) {
        threads_[t].cpl = static_cast<std::uint8_t>(cpl);
        functional_who_ = t << 8 | cpl;
        timing_stale_ = true;  // the first functional instruction after the timing tier (or a flush) comes here
        functional_q_ = t * 2 + (cpl == 0 ? 1u : 0u);
        sink->select(functional_q_);
    }
    void functional_uops(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, FunctionalSink* sink);
    void sign_plan(const UopPlan& plan, const Instruction& insn, FunctionalSink* sink);
    // The signature of spec `spec`'s uop after it met replay causes `causes` (none: its block's first).
    static std::uint16_t caused_signature(const FunctionalPlan& f, unsigned spec, std::uint16_t causes) {
        return static_cast<std::uint16_t>(f.caused_base[spec] + FunctionalSink::caused_index(causes));
    }

    // core_backend.cpp
    void execute_renamed(const Instruction& insn, const UopPlan& plan, Outcome* out);
    void execute_stack(const Instruction& insn, const UopPlan& plan, Outcome* out);

    // core_wrong_path.cpp
    void wrong_path(Thread& th, unsigned t, Cycle branch_deliver, Cycle resolve, Cycle branch_retire,
                    unsigned rob_limit, unsigned room, EventSink* sink);
    static void remember(Thread& th, const UopPlan& plan) {
        th.recent[th.recent_pos] = &plan;
        th.recent_pos = (th.recent_pos + 1) & 15;
        if (th.recent_count < 16) ++th.recent_count;
    }

    // core_cycles.cpp
    // Starts an Outcome of thread t without uops: its level, the thread's waiting records first, and the sink.
    void open_outcome(unsigned t, Outcome* out, EventSink* sink);
    void publish(unsigned t, Outcome* out, EventSink* sink, bool force);
    Cycle frontier() const;

    // The configuration values walk() uses, in the form it uses them.
    struct WalkParams {
        Cycle fetch_to_alloc, alloc_to_exec, retire_delay, lag;
        std::uint64_t rob, load_buffers, store_buffers;
        std::uint64_t queue[2], sched[4];  // uop queue and scheduler entries (0: not modelled)
        Tick replay;
        Cycle step;
        unsigned cap;  // rom_record_cap
    };

    CoreConfig cfg_;
    WalkParams walk_;
    PlanCache plans_;
    PlanStore stable_plans_;
    GroupStore groups_;
    Thread threads_[2];
    TraceCache tc_;
    BranchPredictor bp_;
    InstructionTlb itlb_[2];  // duplicated per logical processor
    DataTlb dtlb_;            // shared, entries tagged with the logical processor
    MemorySystem mem_;
    CycleSlots fetch_bw_, alloc_bw_, retire_bw_;
    TickRing port0_, port1_, load_port_, sta_port_, fp_unit_, mul_unit_, slow_alu_, mmx_shift_unit_;
    Tick divider_free_ = 0;
    unsigned busy_turn_ = 0;  // alternate()'s last turn
    Cycle modes_emitted_ = 0;  // TC_deliver_mode emitted up to here
    Cycle published_frontier_ = 0;  // the frontier given with the last Outcome
    bool single_ok_ = false;         // one logical processor active: walk_shape::Single may apply
    void update_single_ok() { single_ok_ = !smt_shared(); }
    std::uint64_t code_regions_[4096];  // 1 KB code regions built into the trace cache (self-modifying code)
    // See select_qualifier(): the logical processor and privilege level selected (thread << 8 | cpl), and their
    // qualifier; kNobody makes the next functional instruction select again (after the timing tier ran, or the
    // sink was used for something else).
    static constexpr unsigned kNobody = ~0u;
    unsigned functional_who_ = kNobody, functional_q_ = 0;
    // The functional tier ran since the timing tier last did: the caches' timing parts are out of step with their
    // lines (lru_cache.h), and the next timing instruction puts them back first.
    bool timing_stale_ = false;
    // The logical processor of an instruction is insn.thread & thread_mask_: without Hyper-Threading every
    // instruction runs on logical processor 0.
    unsigned thread_mask_ = 0;
    unsigned last_thread_ = 0;
    std::uint64_t executed_ = 0;
};

}  // namespace netburst::emu

// The shared load/store/branch code and the functional tier's inline path, after the class they belong to
// (core_walker.h is included by the two files that instantiate it).
#include "emulator/core/core_memory.h"
#include "emulator/core/core_functional.h"
