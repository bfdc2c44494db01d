// The timing tier's driver: execute() renames x87 and MMX registers, then walks the instruction (core_walker.h)
// in the shape it has; and the execution units the walk issues uops to.
#include "emulator/core/core_walker.h"

#include <utility>

namespace netburst::emu {

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
        std::swap(th.reg_late[a], th.reg_late[b]);
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
        update_single_ok();
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

    // The single shapes: one logical processor, the trace cache delivering the instruction in deliver mode
    // (calls and returns go through fetch() for the return stack).
    if (plan.single && single_ok_ && th.pending.empty() && th.fetch_mode == FrontMode::Deliver &&
        th.modes.current == FrontMode::Deliver && insn.cls != InsnClass::DirectCall &&
        insn.cls != InsnClass::IndirectCall && insn.cls != InsnClass::Return &&
        tc_.deliver_if_hit(t, tag_pc(insn.pc, t))) {
        if (plan.register_op) {
            walk_timing<walk_shape::RegisterOp>(th, t, insn, plan, &sink, out);
        } else {
            walk_timing<walk_shape::Single>(th, t, insn, plan, &sink, out);
        }
        return;
    }
    walk_timing<walk_shape::General>(th, t, insn, plan, &sink, out);
}

template <class Shape>
__attribute__((noinline)) void Core::walk_timing(Thread& th, unsigned t, const Instruction& insn,
                                                 const UopPlan& plan, EventSink* sink, Outcome* out) {
    walk<EventSink, Shape>(th, t, insn, plan, sink, out);
}

namespace {
// The first cycle start at or after `ready` where `port` is free and `unit` is free for n cycles from there.
Tick find_cycle_run(const TickRing& port, const TickRing& unit, Tick ready, unsigned n) {
    if (n <= TickRing::kMaxCycleRun) return find_with_cycle_run(port, TickRing::kCycleStart, unit, ready, n);
    Tick t = ready;  // the longer runs (long-latency x87 and divides), one candidate cycle at a time
    for (int guard = 0; guard < 4096; ++guard) {
        t = port.find(t, TickRing::kCycleStart);
        if (unit.run_free(t, n, kTicksPerCycle)) break;
        t += kTicksPerCycle;
    }
    return t;
}
}  // namespace

Tick Core::issue_slow(Unit unit, Tick ready, unsigned busy) {
    switch (unit) {
    case Unit::FastAlu:
    case Unit::Alu0: return port0_.claim(ready, TickRing::kAnyTick);
    case Unit::FpMove: return port0_.claim(ready, TickRing::kCycleStart);
    case Unit::Load: {
        // A load that holds the port for `busy` cycles (an unaligned 16-byte load).
        const Tick t = find_cycle_run(load_port_, load_port_, ready, busy);
        load_port_.set_run(t, busy, kTicksPerCycle);
        return t;
    }
    case Unit::StoreAddr: return sta_port_.claim(ready, TickRing::kCycleStart);
    case Unit::StoreAddrPort1:  // the port-1 slot first, at a cycle start, then the store-address port from there
        return sta_port_.claim(port1_.claim(ready, TickRing::kCycleStart), TickRing::kCycleStart);
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
    case Unit::Mmx:
    case Unit::MmxShift: {
        // Port 1 dispatch at a cycle start, and the unit free for `busy` cycles from there. The MMX shift unit is
        // a unit of its own beside the MMX ALU (see uop_decode.cpp, apply_form): port 1 sends one uop a cycle to
        // either, each keeping its unit busy.
        TickRing& unit_ring = unit == Unit::IntMul ? mul_unit_ : unit == Unit::MmxShift ? mmx_shift_unit_ : fp_unit_;
        const unsigned n = busy == 0 ? 1 : busy;
        const Tick t = find_cycle_run(port1_, unit_ring, ready, n);
        port1_.set(t);
        unit_ring.set_run(t, n, kTicksPerCycle);
        return t;
    }
    }
    return ready;
}

}  // namespace netburst::emu
