// The fast path: the same timing as fetch() + run_uops() for the most common instructions, without their
// generality (and the register pressure that comes with it). It takes instructions of up to four uops (a register
// operation, a load, a load-op, a store, a read-modify-write, a branch without memory operands) in single-thread
// mode when the trace cache delivers them in deliver mode. Anything else (build mode, the microcode ROM, SMT, calls
// and returns, two stores, serialising instructions) takes the general path. Read-modify-write came in because
// unoptimised loops (`addl $1, -4(%rbp)` for the counter, as in PAPI's test kernels) spent 15-20 % of the
// timing tier's time taking the general path for that one instruction in ten.
//
// It must stay step for step the general path restricted to these cases: CoreConfig::fast_path turns it off, and
// tests/emulator/core_fast_path_test.cpp checks that both give identical Outcomes on mixed traces.
#include "emulator/core/core_memory.h"

#include <utility>

namespace netburst::emu {

namespace {
constexpr unsigned kFromDeliver = 1;  // uop_queue_writes
constexpr unsigned kSbFull = 5;       // resource_stall
}  // namespace

namespace {
// The physical registers of a mask that names x87 stack registers from TOP and MMX registers (instruction.h):
// st(i) is R[(top + i) mod 8], mmN is RN, both at bit kRegStBit + the physical number.
RegMask physical_stack(RegMask m, unsigned top) {
    const RegMask st = (m & kRegStMask) >> kRegStBit;
    const RegMask rotated = top == 0 ? st : ((st << top) | (st >> (8 - top))) & 0xFF;
    const RegMask mm = (m & kRegMmMask) >> kRegMmBit;
    return (m & ~kRegStackMask) | ((rotated | mm) << kRegStBit);
}
}  // namespace

void Core::execute(const Instruction& insn, const UopPlan& plan, Outcome* out) {
    if (__builtin_expect(((insn.reads | insn.writes) & kRegStackMask) == 0, 1)) {
        execute_renamed(insn, plan, out);
        return;
    }
    execute_stack(insn, plan, out);
}

// An x87 or MMX instruction: its registers mapped onto physical ones, then TOP moved as the instruction moves it.
void Core::execute_stack(const Instruction& insn, const UopPlan& plan, Outcome* out) {
    Thread& th = threads_[insn.thread & thread_mask_];
    // Every MMX instruction but emms sets TOP to 0 (SDM Vol. 1, section 9.5); mmN is RN whatever TOP is.
    if (((insn.reads | insn.writes) & kRegMmMask) != 0) th.x87_top = 0;
    const unsigned top = th.x87_top;
    Instruction renamed = insn;
    renamed.reads = physical_stack(insn.reads, top);
    const bool exchange = (insn.writes & kX87Exchange) != 0;
    // fxch renames: its uop writes nothing, and the two registers swap their ready times afterwards.
    renamed.writes = physical_stack(exchange ? insn.writes & ~kRegStMask : insn.writes, top);
    execute_renamed(renamed, plan, out);
    if (exchange) {
        const RegMask named = (insn.writes & kRegStMask) >> kRegStBit;
        const unsigned a = kRegStBit + top;
        const unsigned i = named & ~RegMask{1} ? static_cast<unsigned>(__builtin_ctzll(named & ~RegMask{1})) : 0;
        const unsigned b = kRegStBit + ((top + i) & 7);
        std::swap(th.reg_ready[a], th.reg_ready[b]);
        std::swap(th.reg_spec[a], th.reg_spec[b]);
    }
    switch (insn.writes & kX87TopMask) {
    case kX87Push: th.x87_top = (top + 7) & 7; break;
    case kX87Pop: th.x87_top = (top + 1) & 7; break;
    case kX87Pop2: th.x87_top = (top + 2) & 7; break;
    default: break;
    }
}

void Core::execute_renamed(const Instruction& insn, const UopPlan& plan, Outcome* out) {
    out->clear();
    if (__builtin_expect(timing_stale_, 0)) {
        // Time resumes after the functional tier: every fill is complete.
        mem_.forget_timing();
        timing_stale_ = false;
    }
    const unsigned t = insn.thread & thread_mask_;
    Thread& th = threads_[t];
    if (!th.active) {
        // A logical processor that was stopped runs again: it competes for the core from its next fetch.
        th.active = true;
        update_fast_ok();
        set_mode(th, FrontMode::Deliver, th.next_fetch > modes_emitted_ ? th.next_fetch : modes_emitted_);
    }
    out->thread = static_cast<std::uint8_t>(t);
    out->cpl = insn.cpl;
    out->pc = insn.pc;
    out->regs = insn.regs;
    th.cpl = insn.cpl;
    last_thread_ = t;
    functional_who_ = kNobody;  // the functional tier selects its qualifier again when it resumes

    EventSink sink;
    sink.bind(out, &th.pending);
    if (!th.pending.empty()) th.pending.drain(out);
    if ((++executed_ & 63) == 0) advance_time();

    if (plan.single && fast_ok_ && th.pending.empty() && th.fetch_mode == FrontMode::Deliver &&
        th.modes.current == FrontMode::Deliver && insn.cls != InsnClass::DirectCall &&
        insn.cls != InsnClass::IndirectCall && insn.cls != InsnClass::Return &&
        tc_.deliver_if_hit(t, tag_pc(insn.pc, t))) {
        if (plan.register_op) {
            execute_register_op(th, t, insn, plan, &sink, out);
        } else {
            execute_fast(th, t, insn, plan, &sink, out);
        }
        return;
    }
    execute_general(th, t, insn, plan, &sink, out);
}

// Instructions of up to four uops delivered by the trace cache (already looked up by execute()).
void Core::execute_fast(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, EventSink* sink,
                        Outcome* out) {
    // Everything hot in locals: records and events are written with stores the compiler must assume alias any
    // memory, so values read from members would be reloaded after each of them.
    const FastParams& p = fast_;
    Cycle next_fetch = th.next_fetch, last_alloc = th.last_alloc, last_retire = th.last_retire;
    std::uint64_t seq = th.uop_seq;

    // Delivery.
    const unsigned n = plan.num_specs;
    Cycle deliver[4];
    for (unsigned i = 0; i < n; ++i) {
        deliver[i] = fetch_bw_.take_own(t, next_fetch);
        queue_writes(th, deliver[i], kFromDeliver, 1, sink);
    }
    const Cycle last_deliver = deliver[n - 1];
    if (last_deliver > next_fetch) next_fetch = last_deliver;
    out->fetch = deliver[0];

    bool mispredicted = false;
    if (is_branch(insn.cls)) {
        mispredicted = bp_.predict_and_update(t, insn, tag_pc(insn.pc, t)).mispredicted;
        ++th.detail.branches;
        if (mispredicted) ++th.detail.mispredicts;
    }
    if (plan.has_load || n >= 2) th.stores.forget_until(to_ticks(last_alloc));

    Tick addr_ready = 0, addr_spec = 0;
    for (RegMask m = insn.reads & kGprMask; m != 0; m &= m - 1) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
        addr_ready = max_tick(addr_ready, th.reg_ready[b]);
        addr_spec = max_tick(addr_spec, th.reg_spec[b]);
    }
    Tick regs_ready = addr_ready, regs_spec = addr_spec;
    for (RegMask m = insn.reads & ~kGprMask; m != 0; m &= m - 1) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
        regs_ready = max_tick(regs_ready, th.reg_ready[b]);
        regs_spec = max_tick(regs_spec, th.reg_spec[b]);
    }

    Tick load_done = 0, load_spec = 0, op_done = 0, op_spec = 0, last_done = 0, sta_done = 0;
    Tick sp_done = 0, sp_spec = 0;
    bool has_sp = false;
    std::uint64_t sseq = 0;
    UopRecord* rec = nullptr;
    UopRecord* store_rec = nullptr;
    UopRecord* branch_rec = nullptr;
    unsigned store_index = 0;
    Tick branch_done = 0;
    for (unsigned i = 0; i < n; ++i) {
        const UopSpec& s = plan.specs[i];
        const UopRole role = s.role;
        // Allocation.
        Cycle a0 = max_cycle(last_alloc, deliver[i] + p.fetch_to_alloc);
        if (seq >= p.rob) a0 = max_cycle(a0, th.rob_free[(seq - p.rob) & 127]);
        std::uint64_t lseq = 0;
        if (role == UopRole::Load) {
            lseq = th.load_seq++;
            if (lseq >= p.load_buffers) a0 = max_cycle(a0, th.lb_free[(lseq - p.load_buffers) & 63]);
        } else if (role == UopRole::StoreAddr) {
            sseq = th.store_seq++;
            if (sseq >= p.store_buffers) {
                const Cycle free = th.sb_free[(sseq - p.store_buffers) & 63];
                if (free > a0) {
                    sink->interval(a0, free, EventId::ResourceStall, kSbFull);
                    th.detail.sb_stall_cycles += free - a0;
                    a0 = free;
                }
            }
        }
        const Cycle alloc = alloc_bw_.take_own(t, a0);
        last_alloc = alloc;
        const Tick exec_min = to_ticks(alloc + p.alloc_to_exec);

        // Operands.
        const bool address = role == UopRole::Load || role == UopRole::StoreAddr;
        Tick ready = max_tick(address ? addr_ready : regs_ready, exec_min);
        Tick spec = max_tick(address ? addr_spec : regs_spec, exec_min);
        if (role == UopRole::StackPtr) {
            // It reads the stack pointer and nothing else.
            ready = max_tick(th.reg_ready[core_memory::kStackPointer], exec_min);
            spec = max_tick(th.reg_spec[core_memory::kStackPointer], exec_min);
        } else if (role == UopRole::Load) {
            ready = max_tick(ready, th.load_barrier);
            spec = max_tick(spec, th.load_barrier);
        } else if (role == UopRole::StoreData) {
            ready = max_tick(ready, plan.has_op ? op_done : load_done);
            spec = max_tick(spec, plan.has_op ? op_spec : load_spec);
        } else if (role != UopRole::StoreAddr) {
            ready = max_tick(ready, load_done);
            spec = max_tick(spec, load_spec);
        }
        Tick start = ready;
        if (ready > spec + kTicksPerCycle) {
            const Tick wasted = issue_on(s.unit, spec, 1);
            start = replay_until(wasted + p.replay, ready, p.replay);
        }

        // Execution.
        std::uint16_t causes = 0, mob = 0;
        Tick issue, done, spec_done;
        if (role == UopRole::Load) {
            Tick load_spec_done = 0;
            done = load_uop(th, t, insn, s, start, sink, &causes, &mob, &load_spec_done);
            issue = load_spec_done - s.latency;
            spec_done = start == ready && ready <= spec + kTicksPerCycle ? load_spec_done : spec + s.latency;
            load_done = max_tick(load_done, done);
            load_spec = max_tick(load_spec, spec_done);
        } else {
            issue = issue_on(s.unit, start, s.busy);
            done = issue + s.latency;
            spec_done = (start == ready ? issue : spec) + s.latency;
            if (role == UopRole::Op) {
                op_done = max_tick(op_done, done);
                op_spec = max_tick(op_spec, spec_done);
            } else if (role == UopRole::StoreAddr) {
                if (s.mem < insn.num_mem && s.mem < kMaxMemOperands)
                    done = store_address(t, insn.mem[s.mem], issue, done, sink, &causes, &mob);
                sta_done = done;
            } else if (role == UopRole::Branch) {
                branch_done = done;
            } else if (role == UopRole::StackPtr) {
                sp_done = done;
                sp_spec = spec_done;
                has_sp = true;
            }
        }
        last_done = max_tick(last_done, done);

        // Retirement.
        const Cycle retire = retire_bw_.take_own(t, max_cycle(ceil_cycle(done) + p.retire_delay, last_retire));
        last_retire = retire;
        th.rob_free[seq & 127] = retire + 1;
        ++seq;
        if (role == UopRole::Load) th.lb_free[lseq & 63] = retire + 1;
        if (role == UopRole::StoreData) {
            const bool known = s.mem < insn.num_mem && s.mem < kMaxMemOperands;
            store_index = known ? th.stores.add(insn.mem[s.mem].address, insn.mem[s.mem].size, sta_done, done)
                                : th.stores.add(0, 0, sta_done, done);
        }

        rec = sink->raw_uop();
        const Cycle exec_cycle = to_cycle(issue);
        write_uop(rec, retire, s.kind, false, i + 1 == n, s.has_exec_event, s.exec_event, s.exec_bit,
                  s.has_exec_event ? exec_cycle : 0, causes, mob);
        if (s.has_exec_event) sink->event(exec_cycle, s.exec_event, s.exec_bit);
        if (role == UopRole::StoreData) store_rec = rec;
        if (role == UopRole::Branch) branch_rec = rec;
    }
    th.last_alloc = last_alloc;
    th.last_retire = last_retire;
    th.uop_seq = seq;
    th.next_fetch = next_fetch;
    remember(th, plan);
    out->retire = last_retire;

    const Tick result = plan.has_op ? op_done : (plan.has_load ? load_done + plan.load_merge : last_done);
    const Tick result_spec = plan.has_op ? op_spec : (plan.has_load ? load_spec + plan.load_merge : last_done);
    for (RegMask m = insn.writes; m != 0; m &= m - 1) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
        th.reg_ready[b] = result;
        th.reg_spec[b] = result_spec;
    }
    if (has_sp && (insn.writes & reg_gpr(4)) != 0) {
        th.reg_ready[core_memory::kStackPointer] = sp_done;
        th.reg_spec[core_memory::kStackPointer] = sp_spec;
    }
    if (plan.has_load) th.last_load_done = max_tick(th.last_load_done, load_done);
    if (store_rec != nullptr) {
        const unsigned mem = plan.specs[n - 1].mem;
        const bool known = mem < insn.num_mem && mem < kMaxMemOperands;
        commit_store(th, t, store_index, known ? &insn.mem[mem] : nullptr, sseq, store_rec->retire, sink);
    }
    if (branch_rec != nullptr)
        retire_branch(th, t, insn, branch_rec, deliver[n - 1], branch_done, mispredicted, p.rob, sink, out);
    if (last_alloc > p.lag && last_alloc - p.lag > th.next_fetch) th.next_fetch = last_alloc - p.lag;

    ++th.stats.instructions;
    th.stats.uops_retired += n;
    th.stats.cycles = th.last_retire + 1;
    ++th.detail.tc_hits;
    // publish(), whose common case is this test.
    if (th.last_retire + 1 < th.running_emitted + p.step && th.next_fetch < modes_emitted_ + p.step) {
        out->frontier = published_frontier_;
    } else {
        publish(t, out, sink, false);
    }
}

// One register uop (no memory, not a branch): the most common instruction, with nothing else to look at.
inline void Core::execute_register_op(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan,
                                      EventSink* sink, Outcome* out) {
    const UopSpec& s = plan.specs[0];
    const Cycle deliver = fetch_bw_.take_own(t, th.next_fetch);
    queue_writes(th, deliver, kFromDeliver, 1, sink);
    out->fetch = deliver;

    const std::uint64_t seq = th.uop_seq;
    Cycle a0 = max_cycle(th.last_alloc, deliver + fast_.fetch_to_alloc);
    if (seq >= fast_.rob) a0 = max_cycle(a0, th.rob_free[(seq - fast_.rob) & 127]);
    const Cycle alloc = alloc_bw_.take_own(t, a0);
    const Tick exec_min = to_ticks(alloc + fast_.alloc_to_exec);
    Tick ready = exec_min, spec = exec_min;
    for (RegMask m = insn.reads; m != 0; m &= m - 1) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
        ready = max_tick(ready, th.reg_ready[b]);
        spec = max_tick(spec, th.reg_spec[b]);
    }
    Tick start = ready;
    if (ready > spec + kTicksPerCycle) {
        const Tick wasted = issue_on(s.unit, spec, 1);
        start = replay_until(wasted + fast_.replay, ready, fast_.replay);
    }
    const Tick issue = issue_on(s.unit, start, s.busy);
    const Tick done = issue + s.latency;
    const Tick spec_done = (start == ready ? issue : spec) + s.latency;
    const Cycle retire = retire_bw_.take_own(t, max_cycle(ceil_cycle(done) + fast_.retire_delay, th.last_retire));
    const Cycle exec_cycle = to_cycle(issue);

    // Thread state first, then the record and events (whose stores make the compiler forget what it loaded).
    th.last_alloc = alloc;
    th.last_retire = retire;
    th.rob_free[seq & 127] = retire + 1;
    th.uop_seq = seq + 1;
    for (RegMask m = insn.writes; m != 0; m &= m - 1) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
        th.reg_ready[b] = done;
        th.reg_spec[b] = spec_done;
    }
    Cycle next_fetch = max_cycle(th.next_fetch, deliver);
    if (alloc > fast_.lag && alloc - fast_.lag > next_fetch) next_fetch = alloc - fast_.lag;
    th.next_fetch = next_fetch;
    ++th.stats.instructions;
    ++th.stats.uops_retired;
    th.stats.cycles = retire + 1;
    ++th.detail.tc_hits;
    th.recent[th.recent_pos] = &plan;
    th.recent_pos = (th.recent_pos + 1) & 15;
    if (th.recent_count < 16) ++th.recent_count;
    const bool quiet = retire + 1 < th.running_emitted + fast_.step && next_fetch < modes_emitted_ + fast_.step;

    write_uop(sink->raw_uop(), retire, s.kind, false, true, s.has_exec_event, s.exec_event, s.exec_bit,
              s.has_exec_event ? exec_cycle : 0, 0, 0);
    if (s.has_exec_event) sink->event(exec_cycle, s.exec_event, s.exec_bit);
    out->retire = retire;
    if (quiet) {
        out->frontier = published_frontier_;
    } else {
        publish(t, out, sink, false);
    }
}

}  // namespace netburst::emu
