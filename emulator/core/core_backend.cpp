// The out-of-order engine as a dataflow timing model. For each uop, in program order:
//   allocation: in order, alloc_width per cycle (shared cycle by cycle under SMT), after delivery plus the
//     front-end-to-allocator stages, and only when its ROB entry (and load or store buffer entry) is free,
//     i.e. when the uop that many entries older has retired (stores: has written the cache);
//   issue: when its operands are ready and its port and unit are free (TickRing reservations at half-cycle
//     resolution, so the double-speed ALUs issue twice per cycle);
//   completion: issue plus latency (loads: what the memory hierarchy says);
//   retirement: in order, retire_width per cycle, after completion.
// A uop whose operand comes from a load that missed was sent by the scheduler on the hit assumption: it wastes
// an execution slot, then replays every replay_cycles until the data is there (the NetBurst replay loop).
#include "emulator/core/core_memory.h"

namespace netburst::emu {

namespace {
constexpr unsigned kSbFull = 5;                                                                // resource_stall
constexpr unsigned kNoSta = 1, kNoStd = 3, kPartialData = 4, kUnalignedAddr = 5;               // MOB_load_replay
constexpr unsigned kLoadSplitComplete = 0;                                                     // memory_complete
}  // namespace

Tick Core::issue_slow(Unit unit, Tick ready, unsigned busy) {
    switch (unit) {
    case Unit::FastAlu:
    case Unit::Alu0: return port0_.claim(ready, TickRing::kAnyTick);
    case Unit::FpMove: return port0_.claim(ready, TickRing::kCycleStart);
    case Unit::Load: {
        // A load that holds the port for `busy` cycles (an unaligned 16-byte load).
        Tick t = ready;
        for (int guard = 0; guard < 4096; ++guard) {
            t = load_port_.find(t, TickRing::kCycleStart);
            if (load_port_.run_free(t, busy, kTicksPerCycle)) break;
            t += kTicksPerCycle;
        }
        load_port_.set_run(t, busy, kTicksPerCycle);
        return t;
    }
    case Unit::StoreAddr: return sta_port_.claim(ready, TickRing::kCycleStart);
    case Unit::Complex: return port1_.claim(ready, TickRing::kCycleStart);
    case Unit::SlowAlu: {
        // Port 0 or 1 on any tick, as the double-speed ALUs' uops, and the unit free for `busy` ticks from there.
        const unsigned n = busy == 0 ? 1 : busy;
        Tick t = ready;
        for (int guard = 0; guard < 4096; ++guard) {
            const Tick a = port0_.find_any(t), b = port1_.find_any(t);
            t = a < b ? a : b;
            if (slow_alu_.run_free(t, n, 1)) break;
            ++t;
        }
        (port0_.taken(t) ? port1_ : port0_).set(t);
        slow_alu_.set_run(t, n, 1);
        return t;
    }
    case Unit::Divider: {
        const Tick t = port1_.claim(max_tick(ready, divider_free_), TickRing::kCycleStart);
        divider_free_ = t + to_ticks(busy == 0 ? 1 : busy);
        return t;
    }
    case Unit::IntMul:
    case Unit::FpAdd:
    case Unit::Mmx: {
        // Port 1 dispatch at a cycle start, and the unit free for `busy` cycles from there.
        TickRing& unit_ring = unit == Unit::IntMul ? mul_unit_ : fp_unit_;
        const unsigned n = busy == 0 ? 1 : busy;
        Tick t = ready;
        for (int guard = 0; guard < 4096; ++guard) {
            t = port1_.find(t, TickRing::kCycleStart);
            if (unit_ring.run_free(t, n, kTicksPerCycle)) break;
            t += kTicksPerCycle;
        }
        port1_.set(t);
        unit_ring.set_run(t, n, kTicksPerCycle);
        return t;
    }
    }
    return ready;
}

Tick Core::load_uop(Thread& th, unsigned t, const Instruction& insn, const UopSpec& s, Tick ready, EventSink* sink,
                    std::uint16_t* causes, std::uint16_t* mob, Tick* spec) {
    const Tick latency = to_ticks(s.fp_load ? cfg_.l1_fp_latency : cfg_.l1_latency);
    if (s.mem >= insn.num_mem || s.mem >= kMaxMemOperands) {
        // A load whose address the input does not give (a return address): assume it hits the L1.
        const Tick issue = issue_on(Unit::Load, ready, 1);
        *spec = issue + latency;
        return issue + latency;
    }
    const MemOperand& m = insn.mem[s.mem];
    const unsigned size = m.size == 0 ? 1 : m.size;
    // An older store whose address is still unknown: the MOB holds the load (NO_STA) and sends it again when the
    // address is known, as it does for store data (below), not round the scheduler's replay loop.
    if (ready < th.stores.max_sta()) {
        sink->event(to_cycle(ready), EventId::MobLoadReplay, kNoSta);
        *causes |= kReplayMob;
        *mob |= 1u << kNoSta;
        ready = th.stores.max_sta();
    }
    const Tick issue = issue_on(Unit::Load, ready, s.busy);
    *spec = issue + latency;
    const LoadAccess a = load_access(t, m, issue, sink);
    *causes |= a.causes;
    *mob |= a.mob;
    const Tick access = a.access;
    const Tick fill = a.fill;
    const bool split = a.split;
    const std::uint64_t second = a.second;
    const Tick penalty = split ? to_ticks(cfg_.split_penalty) : 0;

    Tick data;
    if (fill <= access) {
        data = access + latency;
    } else {
        // The line is missing or still being filled: the load goes round the replay loop until a pass finds the
        // line; after replay_passes_max passes it leaves the loop and waits for the fill. The passes that find
        // the line missing do not take the load port (the miss is known: its fill buffer is still waiting), so
        // a miss costs the access and one more slot. That lets independent misses stream from the L2 at its
        // rate of a line every other cycle (32 bytes per cycle, as measured on Northwood [XB]), while a
        // dependent load still sees the 7-cycle loop: data 16 cycles after an L2 hit's access [AT]
        // (doc/emulator-model.md, "Replay").
        const Tick loop = to_ticks(cfg_.replay_cycles);
        const Tick passes = (fill - access + loop - 1) / loop;  // the first pass at or after the fill
        const Tick found = passes <= cfg_.replay_passes_max ? access + passes * loop : fill;
        const Tick pass = load_port_.claim(found, TickRing::kCycleStart);
        data = pass + latency;
        mem_.mark_used(m.address, asid(t), pass);
        if (split) mem_.mark_used(second, asid(t), pass);
    }
    data += penalty;
    if (split) sink->event(to_cycle(data), EventId::MemoryComplete, kLoadSplitComplete);

    const StoreBuffer::Check c = th.stores.check(m.address, size, issue);
    switch (c.conflict) {
    case StoreBuffer::Conflict::None: break;
    case StoreBuffer::Conflict::NoStd:
        // The store's data is not there yet: the MOB holds the load until it is (NO_STD), and the scheduler
        // wakes the load's dependents for the forwarded data, so they are not replayed.
        sink->event(to_cycle(issue), EventId::MobLoadReplay, kNoStd);
        *causes |= kReplayMob;
        *mob |= 1u << kNoStd;
        [[fallthrough]];
    case StoreBuffer::Conflict::Forward:
        // Forwarded data takes the load's own latency plus store_forward_ticks from the store data being ready.
        data = max_tick(access + latency, c.wait + latency + cfg_.store_forward_ticks);
        *spec = data;
        break;
    case StoreBuffer::Conflict::PartialData:
    case StoreBuffer::Conflict::UnalignedAddr: {
        const unsigned bit = c.conflict == StoreBuffer::Conflict::PartialData ? kPartialData : kUnalignedAddr;
        sink->event(to_cycle(issue), EventId::MobLoadReplay, bit);
        *causes |= kReplayMob;
        *mob |= 1u << bit;
        data = max_tick(data, c.wait + latency);
        break;
    }
    case StoreBuffer::Conflict::Alias64K:
        sink->event(to_cycle(issue), EventId::MemoryCancel, core_memory::k64kConflict);
        data = max_tick(data, c.wait + latency);
        break;
    }
    return data;
}

void Core::retire_branch(Thread& th, unsigned t, const Instruction& insn, UopRecord* rec, Cycle deliver, Tick done,
                         bool mispredicted, unsigned rob_limit, EventSink* sink, Outcome* out) {
    const Cycle when = rec->retire;
    branch_events(insn, mispredicted, when, sink);
    if (!mispredicted) return;
    rec->replay_causes |= kReplayMispredBranch;
    const Cycle resolve = ceil_cycle(done) + cfg_.branch_resolve;
    th.next_fetch = max_cycle(th.next_fetch, resolve + cfg_.redirect);
    wrong_path(th, t, deliver, resolve, when, rob_limit, Outcome::kMaxUops - out->num_uops, sink);
}

void Core::run_uops(Thread& th, unsigned t, const Instruction& insn, const UopPlan& plan, const Delivery& d,
                    EventSink* sink, Outcome* out, bool mispredicted) {
    // Hot state lives in locals for the whole instruction: records are written with byte stores, which the
    // compiler must assume alias everything, so reading Thread fields between them would reload them each time.
    const bool shared = smt_shared();
    const unsigned rob_limit = shared ? cfg_.rob_entries >> 1 : cfg_.rob_entries;
    const unsigned lb_limit = shared ? cfg_.load_buffers >> 1 : cfg_.load_buffers;
    const unsigned sb_limit = shared ? cfg_.store_buffers >> 1 : cfg_.store_buffers;
    const unsigned cap = cfg_.rom_record_cap;
    const Cycle fetch_to_alloc = cfg_.fetch_to_alloc, alloc_to_exec = cfg_.alloc_to_exec;
    const Cycle retire_delay = cfg_.retire_delay;
    const Tick replay_loop = to_ticks(cfg_.replay_cycles);
    th.stores.forget_until(to_ticks(th.last_alloc));

    // Addresses are formed from general registers only; the other uops wait for every register read.
    Tick addr_ready = 0, addr_spec = 0, regs_ready = 0, regs_spec = 0;
    for (RegMask m = insn.reads & kGprMask; m != 0; m &= m - 1) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
        addr_ready = max_tick(addr_ready, th.reg_ready[b]);
        addr_spec = max_tick(addr_spec, th.reg_spec[b]);
    }
    regs_ready = addr_ready;
    regs_spec = addr_spec;
    for (RegMask m = insn.reads & ~kGprMask; m != 0; m &= m - 1) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(m));
        regs_ready = max_tick(regs_ready, th.reg_ready[b]);
        regs_spec = max_tick(regs_spec, th.reg_spec[b]);
    }

    Cycle last_alloc = th.last_alloc, last_retire = th.last_retire;
    std::uint64_t seq = th.uop_seq;
    Tick load_done = 0, load_spec = 0, op_done = 0, op_spec = 0, last_done = 0;
    Tick sta_done = 0, branch_done = 0, flow_first = ~Tick{0};
    Tick sp_done = 0, sp_spec = 0;
    bool has_sp = false;
    Cycle branch_deliver = 0;
    UopRecord* branch_rec = nullptr;
    struct StoreSlot {
        unsigned sb_index;
        std::uint64_t sseq;
        const MemOperand* mem;
        Cycle retire;
    } store_slots[kMaxMemOperands + 1];
    unsigned num_stores = 0;
    std::uint64_t sseq = 0;
    bool wait_for_older = plan.serializing;
    unsigned index = 0;  // record index, for the delivery cycle
    UopRecord* last_rec = nullptr;
    UopRecord scratch;

    for (unsigned si = 0; si < plan.num_specs; ++si) {
        const UopSpec& s = plan.specs[si];
        const std::uint32_t records = s.count > cap ? cap : s.count;
        for (std::uint32_t r = 0; r < records; ++r, ++index) {
            const Cycle deliver = d.at(index);
            if (r + 1 == records && s.count > records) {
                // The summarised body of a long flow: timed in bulk, no records.
                const std::uint64_t n = s.count - records;
                const Cycle first_alloc = alloc_bw_.take(t, max_cycle(last_alloc, deliver + fetch_to_alloc), shared);
                last_alloc = alloc_bw_.take_bulk(t, first_alloc, n - 1, shared);
                const Tick first_exec = to_ticks(first_alloc + alloc_to_exec);
                if (first_exec < flow_first) flow_first = first_exec;
                const Tick done = to_ticks(last_alloc + alloc_to_exec) + s.latency;
                const Cycle r0 = max_cycle(last_retire, ceil_cycle(first_exec + s.latency) + retire_delay);
                last_retire = max_cycle(retire_bw_.take_bulk(t, r0, n, shared), ceil_cycle(done) + retire_delay);
                const std::uint64_t mark = n < 128 ? n : 128;
                for (std::uint64_t k = 0; k < mark; ++k) th.rob_free[(seq + n - 1 - k) & 127] = last_retire + 1;
                seq += n;
                last_done = max_tick(last_done, done);
                th.detail.uop_records_summarised += n;
            }

            // --- Allocation: in order, against the ROB, load and store buffers ----------------------------------
            Cycle a0 = max_cycle(last_alloc, deliver + fetch_to_alloc);
            if (seq >= rob_limit) a0 = max_cycle(a0, th.rob_free[(seq - rob_limit) & 127]);
            if (wait_for_older) {
                a0 = max_cycle(a0, last_retire + 1);
                wait_for_older = false;
            }
            std::uint64_t lseq = 0;
            if (s.role == UopRole::Load) {
                lseq = th.load_seq++;
                if (lseq >= lb_limit) a0 = max_cycle(a0, th.lb_free[(lseq - lb_limit) & 63]);
            } else if (s.role == UopRole::StoreAddr) {
                sseq = th.store_seq++;
                if (sseq >= sb_limit) {
                    const Cycle free = th.sb_free[(sseq - sb_limit) & 63];
                    if (free > a0) {
                        sink->interval(a0, free, EventId::ResourceStall, kSbFull);
                        th.detail.sb_stall_cycles += free - a0;
                        a0 = free;
                    }
                }
            }
            const Cycle alloc = alloc_bw_.take(t, a0, shared);
            last_alloc = alloc;
            const Tick exec_min = to_ticks(alloc + alloc_to_exec);

            // --- Operands ---------------------------------------------------------------------------------
            const bool address = s.role == UopRole::Load || s.role == UopRole::StoreAddr;
            Tick ready = max_tick(address ? addr_ready : regs_ready, exec_min);
            Tick spec = max_tick(address ? addr_spec : regs_spec, exec_min);
            switch (s.role) {
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
                if (plan.fence) ready = max_tick(ready, max_tick(th.last_load_done, to_ticks(th.last_commit + 1)));
                break;
            }
            Tick start = ready;
            if (ready > spec + kTicksPerCycle) {
                // Sent on the hit assumption: a wasted execution, then the replay loop until the data is there.
                const Tick wasted = issue_on(s.unit, spec, 1);
                start = replay_until(wasted + replay_loop, ready, replay_loop);
            }

            // --- Execution --------------------------------------------------------------------------------
            std::uint16_t causes = 0, mob = 0;
            Tick issue, done, spec_done;
            if (s.role == UopRole::Load) {
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
                switch (s.role) {
                case UopRole::Flow:
                    if (issue < flow_first) flow_first = issue;
                    if (r + 1 == records) done = max_tick(done, flow_first + plan.flow_latency);
                    op_done = max_tick(op_done, done);
                    op_spec = max_tick(op_spec, spec_done);
                    break;
                case UopRole::Op:
                    op_done = max_tick(op_done, done);
                    op_spec = max_tick(op_spec, spec_done);
                    if (plan.fence) th.load_barrier = max_tick(th.load_barrier, done);
                    break;
                case UopRole::StoreAddr:
                    if (s.mem < insn.num_mem && s.mem < kMaxMemOperands)
                        done = store_address(t, insn.mem[s.mem], issue, done, sink, &causes, &mob);
                    sta_done = done;
                    break;
                case UopRole::Branch: branch_done = done; break;
                case UopRole::StackPtr:
                    sp_done = done;
                    sp_spec = spec_done;
                    has_sp = true;
                    break;
                default: break;
                }
            }
            last_done = max_tick(last_done, done);
            if (s.has_exec_event) sink->event(to_cycle(issue), s.exec_event, s.exec_bit);

            // --- Retirement -------------------------------------------------------------------------------
            const Cycle retire = retire_bw_.take(t, max_cycle(ceil_cycle(done) + retire_delay, last_retire), shared);
            last_retire = retire;
            th.rob_free[seq & 127] = retire + 1;
            ++seq;
            if (s.role == UopRole::Load) th.lb_free[lseq & 63] = retire + 1;
            if (s.role == UopRole::StoreData && num_stores < kMaxMemOperands + 1) {
                const bool known = s.mem < insn.num_mem && s.mem < kMaxMemOperands;
                const MemOperand* m = known ? &insn.mem[s.mem] : nullptr;
                const unsigned idx = m != nullptr ? th.stores.add(m->address, m->size, sta_done, done)
                                                  : th.stores.add(0, 0, sta_done, done);
                store_slots[num_stores++] = StoreSlot{idx, sseq, m, retire};
            }

            // The record, written in one go.
            UopRecord* rec = sink->uop();
            if (rec == nullptr) rec = &scratch;  // cannot happen: plans are capped below kMaxUops
            rec->retire = retire;
            rec->kind = s.kind;
            rec->replay_causes = causes;
            rec->mob_mask = mob;
            if (s.has_exec_event) {
                rec->has_exec_event = true;
                rec->exec_event = s.exec_event;
                rec->exec_mask_bit = s.exec_bit;
                rec->exec_cycle = to_cycle(issue);
            }
            if (s.role == UopRole::Branch) {
                branch_rec = rec;
                branch_deliver = deliver;
            }
            last_rec = rec;
        }
    }
    th.last_alloc = last_alloc;
    th.last_retire = last_retire;
    th.uop_seq = seq;
    if (last_rec != nullptr) last_rec->last_of_instruction = true;
    remember(th, plan);
    out->retire = last_retire;

    // Results.
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

    // Stores write the caches after they retire, in order.
    for (unsigned i = 0; i < num_stores; ++i)
        commit_store(th, t, store_slots[i].sb_index, store_slots[i].mem, store_slots[i].sseq, store_slots[i].retire,
                     sink);

    // Branches: retirement events, and after a misprediction the wrong path until the branch resolves.
    if (branch_rec != nullptr)
        retire_branch(th, t, insn, branch_rec, branch_deliver, branch_done, mispredicted, rob_limit, sink, out);

    if (plan.serializing) th.next_fetch = max_cycle(th.next_fetch, th.last_retire + 1);
    // The uop queue between delivery and allocation is small: delivery cannot run far ahead of a stalled
    // allocator.
    const Cycle lag = fetch_to_alloc + cfg_.uop_queue_cycles;
    if (last_alloc > lag) th.next_fetch = max_cycle(th.next_fetch, last_alloc - lag);
}

}  // namespace netburst::emu
