// One instruction's uops through the back end (Core::walk), for both tiers and every shape of instruction. For
// each uop, in program order:
//   allocation: in order, alloc_width per cycle (shared cycle by cycle under SMT), after delivery plus the
//     front-end-to-allocator stages, and only when its ROB entry (and load or store buffer entry) is free,
//     i.e. when the uop that many entries older has retired (stores: has written the cache);
//   issue: when its operands are ready and its port and unit are free (TickRing reservations at half-cycle
//     resolution, so the double-speed ALUs issue twice per cycle);
//   completion: issue plus latency (loads: what the memory hierarchy says, core_memory.h);
//   retirement: in order, retire_width per cycle, after completion.
// Then the register results, the stores' writes into the caches and the branch's retirement.
// A uop whose operand comes from a load that missed was sent by the scheduler on the hit assumption: it wastes
// an execution slot, then replays every replay_cycles until the data is there (the NetBurst replay loop). So are
// its dependents, in turn, but only those the scheduler sends before the replay system has stopped it: the first
// failure of the string is seen when the failed uop comes round the loop, replay_cycles after it executed; uops
// dispatched from then on wait for their late operand and take it when it is there (Thread::reg_late). A chain
// after a miss thus runs at its own latencies again, whenever and however late it started.
//
// The sink chooses the tier, as in core_memory.h: the functional tier (FunctionalSink) walks the same uops without
// time (the loads, store addresses, commits and the branch, in the same order) and retires access and branch uops
// as signatures. The shape only removes, at compile time, work the instruction cannot have.
//
// Included by the files that run it: core_backend.cpp (timing tier) and core_functional.cpp.
#pragma once

#include <type_traits>

#include "emulator/core/core.h"

namespace netburst::emu {

namespace core_walker {
constexpr unsigned kFromDeliver = 1;  // uop_queue_writes
constexpr unsigned kSbFull = 5;       // resource_stall
constexpr unsigned kHighHalf = 2;     // rdx: where a one-operand multiply leaves its high half
// The schedulers [ITJ] [HT]: the two fast-ALU schedulers (one pool), the slow ALU / general FP scheduler, the
// simple FP scheduler (FP moves and stores), the memory scheduler (loads, store addresses).
constexpr unsigned kSchedFast = 0, kSchedSlow = 1, kSchedSimpleFp = 2, kSchedMemory = 3;
inline unsigned scheduler_of(Unit unit) {
    switch (unit) {
    case Unit::FastAlu:
    case Unit::Alu0:
    case Unit::SlowAlu: return kSchedFast;
    case Unit::FpMove: return kSchedSimpleFp;
    case Unit::Load:
    case Unit::StoreAddr:
    case Unit::StoreAddrPort1: return kSchedMemory;
    default: return kSchedSlow;  // the port 1 slow integer unit, multiplier, divider, FP and MMX units
    }
}
}  // namespace core_walker

// The shapes of instruction Core::walk distinguishes.
namespace walk_shape {
// Anything: build mode, the microcode ROM and long flows, SMT, serialising instructions, fences.
struct General {
    static constexpr bool kSingle = false, kRegisterOp = false;
};
// UopPlan::single delivered by the trace cache in deliver mode with one logical processor active: up to four
// uops, one store and one branch at most, each last; no flow, nothing that serialises or fences.
struct Single {
    static constexpr bool kSingle = true, kRegisterOp = false;
};
// UopPlan::register_op: of those, one Op uop (no memory, not a branch).
struct RegisterOp {
    static constexpr bool kSingle = true, kRegisterOp = true;
};
}  // namespace walk_shape

template <class Sink>
void Core::retire_branch(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, unsigned spec,
                         UopRecord* rec, Cycle deliver, Tick done, bool mispredicted, unsigned rob_limit, Sink* sink,
                         Outcome* out) {
    Cycle when = 0;
    if constexpr (Sink::kTiming) when = rec->retire;
    branch_events(insn, mispredicted, when, sink);
    const std::uint16_t causes = mispredicted ? kReplayMispredBranch : 0;
    if constexpr (!Sink::kTiming) {
        sink->retire_uops(caused_signature(plan.functional, spec, causes), 1);
        return;
    } else {
        if (!mispredicted) return;
        rec->replay_causes |= causes;
        const Cycle resolve = ceil_cycle(done) + cfg_.branch_resolve;
        th.next_fetch = max_cycle(th.next_fetch, resolve + cfg_.redirect);
        wrong_path(th, t, deliver, resolve, when, rob_limit, Outcome::kMaxUops - out->num_uops, sink);
    }
}

template <class Sink, class Shape>
__attribute__((always_inline)) inline void Core::walk(Thread& th, unsigned t, const Instruction& insn,
                                                      const UopPlan& plan, Sink* sink, Outcome* out) {
    constexpr bool kTiming = Sink::kTiming;
    static_assert(kTiming || std::is_same<Shape, walk_shape::General>::value, "the functional tier walks in general");
    // Hot state lives in locals for the whole instruction: records are written with stores the compiler must
    // assume alias everything, so reading Thread fields between them would reload them each time.
    const WalkParams& p = walk_;
    const unsigned n = Shape::kRegisterOp ? 1 : plan.num_specs;
    const bool shared = !Shape::kSingle && smt_shared();
    const std::uint64_t rob_limit = shared ? p.rob >> 1 : p.rob;
    const std::uint64_t lb_limit = shared ? p.load_buffers >> 1 : p.load_buffers;
    const std::uint64_t sb_limit = shared ? p.store_buffers >> 1 : p.store_buffers;
    // The uop queues are partitioned between the logical processors [HT].
    const std::uint64_t queue_limit[2] = {shared ? p.queue[0] >> 1 : p.queue[0], shared ? p.queue[1] >> 1 : p.queue[1]};
    // A thread has the delivery, allocation and retirement slots to itself unless both logical processors run.
    auto take = [&](CycleSlots& slots, Cycle earliest) {
        if constexpr (Shape::kSingle) return slots.take_own(t, earliest);
        else return slots.take(t, earliest, shared);
    };

    // --- Delivery: the front end, or (single shapes) the trace-cache line it is delivering -------------------
    std::conditional_t<Shape::kSingle, SingleDelivery, Delivery> d;
    if constexpr (kTiming) {
        if constexpr (Shape::kSingle) {
            Cycle earliest = th.next_fetch;
            // A wide immediate's second slot, as Core::fetch takes it.
            if (takes_second_slot(insn, plan)) earliest = fetch_bw_.take_own(t, earliest);
            for (unsigned i = 0; i < n; ++i) {
                d.cycle[i] = fetch_bw_.take_own(t, earliest);
                queue_writes(th, d.cycle[i], core_walker::kFromDeliver, 1, sink);
            }
            ++th.detail.tc_hits;
            out->fetch = d.cycle[0];
        } else {
            fetch(th, t, insn, plan, sink, &d);
            out->fetch = d.first;
        }
    }
    bool mispredicted = false;
    if constexpr (!Shape::kRegisterOp)
        if (is_branch(insn.cls)) mispredicted = predict_branch(th, t, insn);
    // Stores that have written the cache leave the buffer before a load checks it or a store enters it.
    if constexpr (kTiming && !Shape::kRegisterOp)
        if (plan.has_load || n >= 2) th.stores.forget_until(to_ticks(th.last_alloc));

    // A merging form (cmov) takes its destination's old value at the end, not as an operand: when the source is
    // another register or memory. With one register as both, it is the source, at the form's full latency.
    RegMask merged = 0;
    if constexpr (kTiming)
        if (plan.dest_merge != 0) {
            const RegMask both = insn.reads & insn.writes & kGprMask;
            if ((insn.reads & kGprMask & ~both) != 0 || plan.has_load) merged = both;
        }
    const RegMask reads = insn.reads & ~merged;

    // Addresses are formed from the base and index registers where the front end names them (SDM Vol. 1, 3.7.5:
    // base + index * scale + displacement), else from every general register read; the other uops wait for every
    // register read. (A register operation's one uop scans them where it needs them, below.)
    Tick addr_ready = 0, addr_spec = 0, regs_ready = 0, regs_spec = 0;
    const RegMask addr = insn.address != 0 ? insn.address & kGprMask : reads & kGprMask;
    if constexpr (kTiming && !Shape::kRegisterOp) {
        for (RegMask m = addr; m != 0; m &= m - 1) {
            const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
            addr_ready = max_tick(addr_ready, th.reg_ready[b]);
            addr_spec = max_tick(addr_spec, th.reg_spec[b]);
        }
        regs_ready = addr_ready;
        regs_spec = addr_spec;
        for (RegMask m = reads & ~addr; m != 0; m &= m - 1) {
            const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
            regs_ready = max_tick(regs_ready, th.reg_ready[b]);
            regs_spec = max_tick(regs_spec, th.reg_spec[b]);
        }
    }

    Cycle last_alloc = th.last_alloc, last_retire = th.last_retire;
    std::uint64_t seq = th.uop_seq;
    Tick load_done = 0, load_spec = 0, op_done = 0, op_spec = 0, last_done = 0;
    Tick load_late = kOnTime, op_late = kOnTime, sp_late = kOnTime;
    Tick sta_done = 0, branch_done = 0, flow_first = ~Tick{0};
    Tick sp_done = 0, sp_spec = 0;
    bool has_sp = false;
    Tick issue = 0;
    struct StoreSlot {
        unsigned sb_index;
        std::uint64_t sseq;
        const MemOperand* mem;
        Cycle retire;
    } store_slots[kMaxMemOperands + 1];
    unsigned num_stores = 0;
    std::uint64_t sseq = 0;
    bool wait_for_older = !Shape::kSingle && plan.serializing;
    unsigned index = 0;  // record index, for the delivery cycle
    unsigned branch_spec = FunctionalPlan::kNone;
    Cycle branch_deliver = 0;
    UopRecord* branch_rec = nullptr;
    UopRecord scratch;

    for (unsigned si = 0; si < n; ++si) {
        const UopSpec& s = plan.specs[si];
        const UopRole role = Shape::kRegisterOp ? UopRole::Op : s.role;
        // A long flow's uops beyond the record cap are timed in bulk before its last record.
        const std::uint32_t records = !kTiming || Shape::kSingle ? 1 : s.count > p.cap ? p.cap : s.count;
        for (std::uint32_t r = 0; r < records; ++r, ++index) {
            // --- Allocation: in order, against the ROB, load and store buffers ------------------------------
            Cycle deliver = 0;
            std::uint64_t lseq = 0;
            Tick ready = 0, spec = 0, start = 0, late = kOnTime;
            bool shadow = false;  // sent on the hit assumption, then replayed
            unsigned sched = ~0u;  // its scheduler, when the queues are modelled
            Tick dispatched = ~Tick{0};  // its first dispatch, when it was sent on the hit assumption
            if constexpr (kTiming) {
                if constexpr (Shape::kSingle) deliver = d.cycle[si];
                else deliver = d.at(index);
                if (!Shape::kSingle && r + 1 == records && s.count > records) {
                    // The summarised body of a long flow: timed in bulk, no records.
                    const std::uint64_t bulk = s.count - records;
                    const Cycle first_alloc = take(alloc_bw_, max_cycle(last_alloc, deliver + p.fetch_to_alloc));
                    last_alloc = alloc_bw_.take_bulk(t, first_alloc, bulk - 1, shared);
                    const Tick first_exec = to_ticks(first_alloc + p.alloc_to_exec);
                    if (first_exec < flow_first) flow_first = first_exec;
                    const Tick done = to_ticks(last_alloc + p.alloc_to_exec) + s.latency;
                    const Cycle r0 = max_cycle(last_retire, ceil_cycle(first_exec + s.latency) + p.retire_delay);
                    last_retire =
                        max_cycle(retire_bw_.take_bulk(t, r0, bulk, shared), ceil_cycle(done) + p.retire_delay);
                    const std::uint64_t mark = bulk < 128 ? bulk : 128;
                    for (std::uint64_t k = 0; k < mark; ++k) th.rob_free[(seq + bulk - 1 - k) & 127] = last_retire + 1;
                    seq += bulk;
                    last_done = max_tick(last_done, done);
                    th.detail.uop_records_summarised += bulk;
                }

                Cycle a0 = max_cycle(last_alloc, deliver + p.fetch_to_alloc);
                if (seq >= rob_limit) a0 = max_cycle(a0, th.rob_free[(seq - rob_limit) & 127]);
                if (!Shape::kSingle && wait_for_older) {
                    a0 = max_cycle(a0, last_retire + 1);
                    wait_for_older = false;
                }
                if (role == UopRole::Load) {
                    lseq = th.load_seq++;
                    if (lseq >= lb_limit) a0 = max_cycle(a0, th.lb_free[(lseq - lb_limit) & 63]);
                } else if (role == UopRole::StoreAddr) {
                    sseq = th.store_seq++;
                    if (sseq >= sb_limit) {
                        const Cycle free = th.sb_free[(sseq - sb_limit) & 63];
                        if (free > a0) {
                            sink->interval(a0, free, EventId::ResourceStall, core_walker::kSbFull);
                            th.detail.sb_stall_cycles += free - a0;
                            a0 = free;
                        }
                    }
                }
                // The uop queue: allocation waits until the uop that many entries older in its queue has left
                // it for its scheduler.
                const bool address = role == UopRole::Load || role == UopRole::StoreAddr;
                const unsigned queue = address ? 0 : 1;  // the memory queue, or the general one
                const std::uint64_t qseq = th.queue_seq[queue];
                if (queue_limit[queue] != 0 && qseq >= queue_limit[queue])
                    a0 = max_cycle(a0, th.queue_free[queue][(qseq - queue_limit[queue]) & 63]);
                const Cycle alloc = take(alloc_bw_, a0);
                last_alloc = alloc;
                // The scheduler: entered in queue order, when the uop that many entries older in it has been
                // dispatched; the uop's earliest execution is as much later.
                Cycle enter = alloc;
                if (queue_limit[queue] != 0) {
                    sched = core_walker::scheduler_of(s.unit);
                    const std::uint64_t k = th.sched_seq[sched], cap = p.sched[sched];
                    enter = max_cycle(enter, th.queue_last[queue]);
                    if (cap != 0 && k >= cap) enter = max_cycle(enter, th.sched_free[sched][(k - cap) & 63]);
                    th.queue_last[queue] = enter;
                    th.queue_free[queue][qseq & 63] = enter;
                    th.queue_seq[queue] = qseq + 1;
                }
                const Tick exec_min = to_ticks(enter + p.alloc_to_exec);

                // --- Operands -------------------------------------------------------------------------------
                ready = max_tick(address ? addr_ready : regs_ready, exec_min);
                spec = max_tick(address ? addr_spec : regs_spec, exec_min);
                if constexpr (Shape::kRegisterOp) {
                    for (RegMask m = reads; m != 0; m &= m - 1) {
                        const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
                        ready = max_tick(ready, th.reg_ready[b]);
                        spec = max_tick(spec, th.reg_spec[b]);
                    }
                }
                switch (role) {
                case UopRole::Load:
                    ready = max_tick(ready, th.load_barrier);
                    spec = max_tick(spec, th.load_barrier);
                    break;
                case UopRole::StoreAddr: break;
                case UopRole::StackPtr:
                    // It reads the stack pointer and nothing else.
                    ready = max_tick(th.reg_ready[core_memory::kStackPointer], exec_min);
                    spec = max_tick(th.reg_spec[core_memory::kStackPointer], exec_min);
                    break;
                case UopRole::StoreData:
                    ready = max_tick(ready, plan.has_op ? op_done : load_done);
                    spec = max_tick(spec, plan.has_op ? op_spec : load_spec);
                    break;
                case UopRole::Op:
                case UopRole::Flow:
                case UopRole::Branch:
                    ready = max_tick(ready, load_done);
                    spec = max_tick(spec, load_spec);
                    if (!Shape::kSingle && plan.fence)
                        ready = max_tick(ready, max_tick(th.last_load_done, to_ticks(th.last_commit + 1)));
                    break;
                }
                start = ready;
                if (ready > spec + kTicksPerCycle) {
                    // An operand is late. The scheduler waits for those it has been stopped for (their stop is at
                    // or before the dispatch); if another is still late then, the uop is sent on the hit
                    // assumption: a wasted execution, then the replay loop until the data is there. Its failure
                    // is seen when it comes round the loop, unless the string's was seen earlier.
                    Tick wait = spec, stop = kOnTime;
                    auto late_operand = [&](Tick value_ready, Tick value_late) {
                        if (value_ready <= spec + kTicksPerCycle) return;
                        if (value_late <= spec) wait = max_tick(wait, value_ready);
                        else stop = min_tick(stop, value_late);
                    };
                    if (role == UopRole::StackPtr) {
                        const unsigned sp = core_memory::kStackPointer;
                        late_operand(th.reg_ready[sp], th.reg_late[sp]);
                    } else {
                        for (RegMask m = address ? addr : reads; m != 0; m &= m - 1) {
                            const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
                            late_operand(th.reg_ready[b], th.reg_late[b]);
                        }
                    }
                    if (role == UopRole::StoreData)
                        late_operand(plan.has_op ? op_done : load_done, plan.has_op ? op_late : load_late);
                    else if (role == UopRole::Op || role == UopRole::Flow || role == UopRole::Branch)
                        late_operand(load_done, load_late);
                    if (ready > wait + kTicksPerCycle) {
                        const Tick wasted = issue_on(s.unit, wait, 1);
                        dispatched = wasted;
                        start = replay_until(wasted + p.replay, ready, p.replay);
                        late = min_tick(stop, wasted + p.replay);
                        spec = wait;
                        shadow = true;
                    }
                }
            }

            // --- Execution --------------------------------------------------------------------------------
            // A memory operand the input does not give (a return address) is not accessed.
            auto operand = [&]() -> const MemOperand* {
                return s.mem < insn.num_mem && s.mem < kMaxMemOperands ? &insn.mem[s.mem] : nullptr;
            };
            bool accessed = false;
            std::uint16_t causes = 0, mob = 0;
            Tick done = 0, spec_done = 0;
            if (role == UopRole::Load) {
                Tick load_spec_done = 0;
                const MemOperand* m = operand();
                accessed = m != nullptr;
                done = load_uop(th, t, m, s, start, sink, &causes, &mob, &load_spec_done);
                if constexpr (kTiming) {
                    issue = load_spec_done - s.latency;
                    spec_done = shadow ? spec + s.latency : load_spec_done;
                    // A load whose own data came late (a miss, a split, a store it could not take its data from)
                    // is seen when it comes round the replay loop.
                    if (!shadow) late = done > spec_done ? issue + p.replay : kOnTime;
                    load_done = max_tick(load_done, done);
                    load_spec = max_tick(load_spec, spec_done);
                    load_late = min_tick(load_late, late);
                }
            } else {
                if constexpr (kTiming) {
                    issue = issue_on(s.unit, start, __builtin_expect(s.busy_alternates, 0) ? alternate(s.busy) : s.busy);
                    done = issue + s.latency;
                    spec_done = (shadow ? spec : issue) + s.latency;
                    if (!shadow) late = kOnTime;
                }
                switch (role) {
                case UopRole::Flow:
                    if (issue < flow_first) flow_first = issue;
                    if (r + 1 == records) done = max_tick(done, flow_first + plan.flow_latency);
                    op_done = max_tick(op_done, done);
                    op_spec = max_tick(op_spec, spec_done);
                    op_late = min_tick(op_late, late);
                    break;
                case UopRole::Op:
                    op_done = max_tick(op_done, done);
                    op_spec = max_tick(op_spec, spec_done);
                    op_late = min_tick(op_late, late);
                    if (!Shape::kSingle && plan.fence) th.load_barrier = max_tick(th.load_barrier, done);
                    break;
                case UopRole::StoreAddr:
                    if (const MemOperand* m = operand()) {
                        accessed = true;
                        done = store_address(t, *m, issue, done, sink, &causes, &mob);
                    }
                    sta_done = done;
                    break;
                case UopRole::Branch: branch_done = done; break;
                case UopRole::StackPtr:
                    sp_done = done;
                    sp_spec = spec_done;
                    sp_late = late;
                    has_sp = true;
                    break;
                default: break;
                }
            }
            last_done = max_tick(last_done, done);
            // The scheduler entry is free once the uop has been dispatched (a replayed uop: its first dispatch).
            if constexpr (kTiming)
                if (sched != ~0u) {
                    const Cycle d0 = to_cycle(min_tick(dispatched, issue));
                    const Cycle free = d0 > p.alloc_to_exec ? d0 - p.alloc_to_exec + 1 : 1;
                    th.sched_free[sched][th.sched_seq[sched]++ & 63] = free;
                }

            // --- Retirement -------------------------------------------------------------------------------
            Cycle retire = 0;
            if constexpr (kTiming) {
                // (A register operation reads the thread's last retirement only here, where it needs it.)
                const Cycle older = Shape::kRegisterOp ? th.last_retire : last_retire;
                retire = take(retire_bw_, max_cycle(ceil_cycle(done) + p.retire_delay, older));
                last_retire = retire;
                th.rob_free[seq & 127] = retire + 1;
                ++seq;
                if (role == UopRole::Load) th.lb_free[lseq & 63] = retire + 1;
            }
            if (role == UopRole::StoreData && num_stores < kMaxMemOperands + 1) {
                const MemOperand* m = operand();
                unsigned sb_index = 0;
                if constexpr (kTiming)
                    sb_index = m != nullptr ? th.stores.add(m->address, m->size, sta_done, done)
                                            : th.stores.add(0, 0, sta_done, done);
                store_slots[num_stores++] = StoreSlot{sb_index, sseq, m, retire};
            }
            if (role == UopRole::Branch) {
                branch_spec = si;
                branch_deliver = deliver;
            }
            if constexpr (!kTiming) {
                // Accesses retire with the causes they met; the other uops with the plan's fixed signatures.
                if (accessed) sink->retire_uops(caused_signature(plan.functional, si, causes), 1);
            } else if constexpr (!Shape::kRegisterOp) {
                // The record, written in one go (a register operation's waits for the thread state, below).
                UopRecord* rec = sink->raw_uop();
                // (Cannot happen: plans are capped below kMaxUops, and the single shapes start with an empty Outcome.)
                if (!Shape::kSingle && rec == nullptr) rec = &scratch;
                const Cycle exec_cycle = to_cycle(issue);
                const bool last = si + 1 == n && r + 1 == records;
                write_uop(rec, retire, s.kind, false, last, s.has_exec_event, s.exec_event, s.exec_bit,
                          s.has_exec_event ? exec_cycle : 0, causes, mob);
                if (s.has_exec_event) sink->event(exec_cycle, s.exec_event, s.exec_bit);
                if (role == UopRole::Branch) branch_rec = rec;
            }
        }
    }
    if constexpr (!kTiming) {
        for (unsigned i = 0; i < num_stores; ++i) commit_store(th, t, 0, store_slots[i].mem, 0, 0, sink);
        if (branch_spec != FunctionalPlan::kNone)
            retire_branch(th, t, insn, plan, branch_spec, nullptr, 0, 0, mispredicted, 0, sink, out);
        return;
    } else {
        th.last_alloc = last_alloc;
        th.last_retire = last_retire;
        th.uop_seq = seq;
        if constexpr (Shape::kSingle) th.next_fetch = max_cycle(th.next_fetch, d.cycle[n - 1]);
        remember(th, plan);
        out->retire = last_retire;

        // Results.
        const bool op = Shape::kRegisterOp || plan.has_op;
        Tick result = op ? op_done : (plan.has_load ? load_done + plan.load_merge : last_done);
        Tick result_spec = op ? op_spec : (plan.has_load ? load_spec + plan.load_merge : last_done);
        Tick result_late = op ? op_late : (plan.has_load ? load_late : kOnTime);
        for (RegMask m = merged; m != 0; m &= m - 1) {
            const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
            if (th.reg_ready[b] + plan.dest_merge > result) result_late = min_tick(result_late, th.reg_late[b]);
            result = max_tick(result, th.reg_ready[b] + plan.dest_merge);
            result_spec = max_tick(result_spec, th.reg_spec[b] + plan.dest_merge);
        }
        for (RegMask m = insn.writes; m != 0; m &= m - 1) {
            const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
            th.reg_ready[b] = result;
            th.reg_spec[b] = result_spec;
            th.reg_late[b] = result_late;
        }
        // A one-operand multiply's high half (rdx) comes at its own time; the low half and the flags at the
        // result's.
        if (plan.high_delta != 0 && (insn.writes & reg_gpr(core_walker::kHighHalf)) != 0) {
            const unsigned b = core_walker::kHighHalf;
            th.reg_ready[b] = static_cast<Tick>(static_cast<std::int64_t>(result) + plan.high_delta);
            th.reg_spec[b] = static_cast<Tick>(static_cast<std::int64_t>(result_spec) + plan.high_delta);
        }
        if (has_sp && (insn.writes & reg_gpr(4)) != 0) {
            th.reg_ready[core_memory::kStackPointer] = sp_done;
            th.reg_spec[core_memory::kStackPointer] = sp_spec;
            th.reg_late[core_memory::kStackPointer] = sp_late;
        }
        if (!Shape::kRegisterOp && plan.has_load) th.last_load_done = max_tick(th.last_load_done, load_done);

        // Stores write the caches after they retire, in order.
        for (unsigned i = 0; i < num_stores; ++i)
            commit_store(th, t, store_slots[i].sb_index, store_slots[i].mem, store_slots[i].sseq,
                         store_slots[i].retire, sink);
        // Branches: retirement events, and after a misprediction the wrong path until the branch resolves.
        if (branch_rec != nullptr)
            retire_branch(th, t, insn, plan, branch_spec, branch_rec, branch_deliver, branch_done, mispredicted,
                          static_cast<unsigned>(rob_limit), sink, out);

        // Wrong-path uops retire too (as bogus): from here the thread's last retirement is th.last_retire.
        const Cycle retired = Shape::kRegisterOp ? last_retire : th.last_retire;
        const bool serializing = !Shape::kSingle && plan.serializing;
        if (serializing) th.next_fetch = max_cycle(th.next_fetch, retired + 1);
        // The uop queue between delivery and allocation is small: delivery cannot run far ahead of a stalled
        // allocator.
        if (last_alloc > p.lag && last_alloc - p.lag > th.next_fetch) th.next_fetch = last_alloc - p.lag;

        ++th.stats.instructions;
        th.stats.uops_retired += Shape::kRegisterOp ? 1 : plan.total_uops;
        th.stats.cycles = retired + 1;
        // publish(), whose common case is this test.
        const bool quiet = !serializing && retired + 1 < th.running_emitted + p.step &&
                           th.next_fetch < modes_emitted_ + p.step;
        if constexpr (Shape::kRegisterOp) {
            const UopSpec& s = plan.specs[0];
            const Cycle exec_cycle = to_cycle(issue);
            write_uop(sink->raw_uop(), last_retire, s.kind, false, true, s.has_exec_event, s.exec_event, s.exec_bit,
                      s.has_exec_event ? exec_cycle : 0, 0, 0);
            if (s.has_exec_event) sink->event(exec_cycle, s.exec_event, s.exec_bit);
        }
        if (quiet) {
            out->frontier = published_frontier_;
        } else {
            publish(t, out, sink, serializing);
        }
    }
}

}  // namespace netburst::emu
