#include "emulator/core/uop_decode.h"

#include "emulator/core/form_timing.h"

namespace netburst::emu {

namespace {

constexpr std::uint8_t kAllBit = 15;    // the FIRM uop events' ALL mask bit
constexpr std::uint8_t kAllP0Bit = 3;   // x87_SIMD_moves_uop ALLP0: moves and store data on port 0
constexpr std::uint8_t kAllP2Bit = 4;   // x87_SIMD_moves_uop ALLP2: loads on port 2

bool is_fp_class(InsnClass c) {
    switch (c) {
    case InsnClass::X87Arith:
    case InsnClass::X87Div:
    case InsnClass::X87Complex:
    case InsnClass::X87Move:
    case InsnClass::SseScalarSp:
    case InsnClass::SseScalarDp:
    case InsnClass::SsePackedSp:
    case InsnClass::SsePackedDp:
    case InsnClass::SseDivSp:
    case InsnClass::SseDivDp:
    case InsnClass::Mmx64:
    case InsnClass::Simd128Int:
    case InsnClass::SimdMove: return true;
    default: return false;
    }
}

class Builder {
public:
    Builder(const CoreConfig& c, UopPlan* p) : c_(c), p_(p) {}

    // Fields are written one by one: building a temporary and copying it would read back bytes just stored
    // (a store-forwarding stall that made this function the hottest of the model).
    UopSpec& add(Unit unit, UopRole role, Tick latency) {
        UopSpec& s = p_->specs[p_->num_specs++];
        s.unit = unit;
        s.role = role;
        s.kind = UopKind::Other;
        s.mem = 0;
        s.latency = static_cast<std::uint16_t>(latency);
        s.busy = 1;
        s.busy_alternates = false;
        s.fp_load = false;
        s.has_exec_event = false;
        s.exec_event = EventId::X87FpUop;
        s.exec_bit = 0;
        s.count = 1;
        p_->total_uops += 1;
        if (role == UopRole::Op || role == UopRole::Flow) p_->has_op = true;
        return s;
    }
    Tick cycles(unsigned n) const { return to_ticks(n); }
    Tick fast() const { return c_.fast_alu_ticks; }

    void load(unsigned mem, bool fp) {
        UopSpec& s = add(Unit::Load, UopRole::Load, cycles(fp ? c_.l1_fp_latency : c_.l1_latency));
        s.kind = UopKind::Load;
        s.mem = static_cast<std::uint8_t>(mem);
        s.fp_load = fp;
        if (fp) exec(s, EventId::X87SimdMovesUop, kAllP2Bit);
        p_->has_load = true;
    }
    void store(unsigned mem, bool fp, bool movd_mmx) {
        // movd m32, mm also takes a dispatch slot of port 1, where movq m64, mm and the other SIMD stores take
        // none: Agner Fog's instruction tables (instruction_tables.ods, sheets "Pentium 4" and "Prescott",
        // measured on F/2/4 and F/4/1) give "MOVD m32, r" ports 0 and 1 and "MOVQ m64, r" port 0 only, two uops
        // each; GMP's x86/pentium4/README finds the movd stores, not the movq ones, in its slow loops. What that
        // uop reads is not published. It is timed with the store address (Unit::StoreAddrPort1): GMP's port-1
        // bound loops then come out as measured, add_n and mul_1 at their 4-cycle carry chain with 4 port-1 uops
        // a limb, cnd_add_n and addmul_1 at 5 with 5; a port-1 uop that waited for the stored register, as the
        // data does, would meet the chain's psrlq at the same cycle every limb and give add_n 5. The uop count and
        // the events stay a store's.
        UopSpec& a = add(movd_mmx ? Unit::StoreAddrPort1 : Unit::StoreAddr, UopRole::StoreAddr, cycles(1));
        a.kind = UopKind::Store;
        a.mem = static_cast<std::uint8_t>(mem);
        // FP store data goes through the FP move unit, whose latency is the register move's (#798 MOVAPS xmm,
        // xmm: 6 on Northwood, 7 on Prescott); the store-to-load pairs (#801, #882, #997) measure it in the chain.
        // An integer store of an operation's result (add [m], r; inc [m]) writes that result into the store buffer
        // as the operation produces it: the store-data uop adds nothing to the chain. Assumption from the dumps:
        // the read-modify-write chain (#80 ADD [m32], r32) measures no more than PUSH + POP (#488), a plain
        // store and reload, on Prescott (F41 5.1 against 5.2; F43 5.0 to 5.7 against 5.1), although its add
        // alone takes a cycle (#72); on Northwood 8.8 against 8.1, within a half-cycle add (doc/emulator-model.md).
        const Tick data_latency = fp ? cycles(c_.fp_move_latency) : p_->has_op ? 0 : fast();
        UopSpec& d = add(fp ? Unit::FpMove : Unit::Alu0, UopRole::StoreData, data_latency);
        d.mem = static_cast<std::uint8_t>(mem);
        if (fp) exec(d, EventId::X87SimdMovesUop, kAllP0Bit);
    }
    static void exec(UopSpec& s, EventId e, std::uint8_t bit) {
        s.has_exec_event = true;
        s.exec_event = e;
        s.exec_bit = bit;
    }

private:
    const CoreConfig& c_;
    UopPlan* p_;
};

// A known form refines the operation uop the class planned (its first Op uop): its latency, and its unit's busy
// time where the form's throughput is known. A form without an operation uop (a plain load) sets how long its load
// holds the load port.
void apply_form(const CoreConfig& c, const Instruction& insn, UopPlan* p) {
    if (insn.form == InsnForm::None) return;
    const FormTiming t = form_timing(insn.form, c.machine.model);
    p->dest_merge = t.dest_latency;
    for (unsigned i = 0; i < p->num_specs; ++i) {
        UopSpec& s = p->specs[i];
        if (s.role != UopRole::Op) continue;
        if (t.latency != 0) s.latency = static_cast<std::uint16_t>(t.latency);
        if (t.high_latency != 0)
            p->high_delta = static_cast<std::int16_t>(static_cast<std::int64_t>(t.high_latency) - s.latency);
        if (s.unit == Unit::Mmx && t.mmx_shift_unit) {
            // Intel's optimization manual (248966, "Execution Units and Issue Ports") lists the MMX shift unit
            // (MMX_SHFT) apart from the MMX ALU (MMX_ALU) behind port 1, and its latency tables name the unit
            // of each instruction: psll/psrl/psra, the unpacks, shuffles and packs on MMX_SHFT; padd, pand, por,
            // pxor, pcmp on MMX_ALU. A 128-bit operation holds its unit two cycles (#1013 PADDD, #1073 PSLLQ xmm:
            // T 2), the other unit stays free.
            s.unit = Unit::MmxShift;
            if (t.busy != 0) s.busy = t.busy;
        } else if (s.unit == Unit::FastAlu && t.alu0_only) {
            s.unit = Unit::Alu0;
        } else if (s.unit == Unit::FastAlu && t.alu_busy >= 2) {
            // Measured slower than the double-speed ALUs' two per cycle: the uop holds its unit as measured.
            s.unit = Unit::SlowAlu;
            s.busy = t.alu_busy;
        } else if (t.busy != 0) {
            s.busy = t.busy;
            s.busy_alternates = t.busy_alternates;
        }
        return;
    }
    // No operation uop: a plain load. Its form gives the load port's busy time (the unaligned 16-byte loads) and
    // its load-to-use latency on an L1 hit, whose excess over the L1's own is the merge into the destination's
    // other bytes (mov r8, [m8]).
    for (unsigned i = 0; i < p->num_specs; ++i) {
        UopSpec& s = p->specs[i];
        if (s.role != UopRole::Load) continue;
        if (t.busy != 0) s.busy = t.busy;
        break;
    }
    const Tick l1 = to_ticks(c.l1_latency);
    if (p->has_load && t.latency > l1) p->load_merge = t.latency - l1;
}

}  // namespace

void decompose(const CoreConfig& c, const Instruction& insn, UopPlan* p) {
    p->num_specs = 0;
    p->total_uops = 0;
    p->tc_slots = 1;
    p->from_rom = p->serializing = p->fence = p->pause = false;
    p->flow_latency = 0;
    p->load_merge = 0;
    p->dest_merge = 0;
    p->high_delta = 0;
    p->has_op = p->has_load = p->single = p->register_op = false;
    p->functional.generation = 0;
    for (std::uint64_t& n : p->functional.pending) n = 0;
    Builder b(c, p);
    const bool fp = is_fp_class(insn.cls);
    int load_ops[kMaxMemOperands];
    int store_ops[kMaxMemOperands];
    unsigned loads = 0, stores = 0;
    const unsigned n_mem = insn.num_mem > kMaxMemOperands ? kMaxMemOperands : insn.num_mem;
    for (unsigned i = 0; i < n_mem; ++i) {
        if (insn.mem[i].is_store) {
            store_ops[stores++] = static_cast<int>(i);
        } else {
            load_ops[loads++] = static_cast<int>(i);
        }
    }
    auto emit_loads = [&] {
        for (unsigned i = 0; i < loads; ++i) b.load(static_cast<unsigned>(load_ops[i]), fp);
    };
    auto emit_stores = [&] {
        for (unsigned i = 0; i < stores; ++i)
            b.store(static_cast<unsigned>(store_ops[i]), fp, insn.form == InsnForm::MovdStoreMmx);
    };
    const bool writes_flags = (insn.writes & kRegFlags) != 0;
    const bool writes_sp = (insn.writes & reg_gpr(4)) != 0;
    // push, pop (and leave-like forms that read it) adjust the stack pointer they read; an instruction that writes
    // it without reading it (mov rsp, [m]) sets it from what it loads.
    const UopRole sp_role = (insn.reads & reg_gpr(4)) != 0 ? UopRole::StackPtr : UopRole::Op;

    auto flow = [&](Unit unit, std::uint64_t n, Tick latency) {
        if (n == 0) return;
        UopSpec& s = b.add(unit, UopRole::Flow, latency);
        s.count = static_cast<std::uint32_t>(n > 0xFFFFFFFFull ? 0xFFFFFFFFull : n);
        p->total_uops += n - 1;
    };

    switch (insn.cls) {
    case InsnClass::Nop: b.add(Unit::FastAlu, UopRole::Op, b.fast()); break;
    case InsnClass::IntAlu:
    case InsnClass::IntShift: {
        const bool shift_slow = insn.cls == InsnClass::IntShift && !c.shift_on_fast_alu;
        const Unit unit = shift_slow ? Unit::Complex : Unit::FastAlu;
        const Tick lat = insn.cls == InsnClass::IntShift ? (shift_slow ? b.cycles(c.shift_latency)
                                                                        : b.cycles(c.shift_latency))
                                                         : b.fast();
        emit_loads();
        // A load without flags written is a plain move (mov, movzx, pop into a register): no ALU uop.
        const bool op = loads == 0 ? stores == 0 || writes_flags : (writes_flags || stores != 0);
        if (op || insn.cls == InsnClass::IntShift) b.add(unit, UopRole::Op, lat);
        if (writes_sp && n_mem != 0) b.add(Unit::FastAlu, sp_role, b.fast());  // push/pop stack pointer
        emit_stores();
        break;
    }
    case InsnClass::IntMul: {
        emit_loads();
        UopSpec& s = b.add(Unit::IntMul, UopRole::Op, b.cycles(c.imul_latency));
        s.busy = static_cast<std::uint8_t>(c.imul_busy);
        emit_stores();
        break;
    }
    case InsnClass::IntDiv:
        emit_loads();
        b.add(Unit::Divider, UopRole::Op, b.cycles(c.idiv_latency)).busy =
            static_cast<std::uint8_t>(c.idiv_latency > 255 ? 255 : c.idiv_latency);
        emit_stores();
        break;
    case InsnClass::CondBranch:
    case InsnClass::DirectJump:
    case InsnClass::IndirectJump:
        emit_loads();
        b.add(Unit::Alu0, UopRole::Branch, b.fast()).kind = UopKind::Branch;
        break;
    case InsnClass::DirectCall:
    case InsnClass::IndirectCall: {
        emit_loads();
        // The return address store: our input lists it as a store operand when it knows it.
        if (stores != 0) {
            emit_stores();
        } else {
            b.add(Unit::StoreAddr, UopRole::StoreAddr, b.cycles(1)).kind = UopKind::Store;
            b.add(Unit::Alu0, UopRole::StoreData, b.fast());
            p->specs[p->num_specs - 2].mem = 0xFF;  // no address known
            p->specs[p->num_specs - 1].mem = 0xFF;
        }
        b.add(Unit::FastAlu, UopRole::StackPtr, b.fast());
        b.add(Unit::Alu0, UopRole::Branch, b.fast()).kind = UopKind::Branch;
        if (insn.cls == InsnClass::IndirectCall && c.machine.model < 3) p->from_rom = true;
        break;
    }
    case InsnClass::Return:
        if (loads == 0) {
            UopSpec& s = b.add(Unit::Load, UopRole::Load, b.cycles(c.l1_latency));
            s.kind = UopKind::Load;
            s.mem = 0xFF;
            p->has_load = true;
        } else {
            emit_loads();
        }
        b.add(Unit::FastAlu, UopRole::StackPtr, b.fast());
        b.add(Unit::Alu0, UopRole::Branch, b.fast()).kind = UopKind::Branch;
        break;
    case InsnClass::X87Arith:
        emit_loads();
        Builder::exec(b.add(Unit::FpAdd, UopRole::Op, b.cycles(c.x87_add_latency)), EventId::X87FpUop, kAllBit);
        emit_stores();
        break;
    case InsnClass::X87Div: {
        emit_loads();
        UopSpec& s = b.add(Unit::Divider, UopRole::Op, b.cycles(c.x87_div_latency));
        s.busy = static_cast<std::uint8_t>(c.x87_div_latency > 255 ? 255 : c.x87_div_latency);
        Builder::exec(s, EventId::X87FpUop, kAllBit);
        emit_stores();
        break;
    }
    case InsnClass::X87Complex: {
        emit_loads();
        const std::uint64_t n = c.x87_complex_uops > p->total_uops ? c.x87_complex_uops - p->total_uops : 1;
        flow(Unit::FpAdd, n, b.cycles(c.x87_add_latency));
        Builder::exec(p->specs[p->num_specs - 1], EventId::X87FpUop, kAllBit);
        p->flow_latency = b.cycles(c.x87_complex_latency);
        emit_stores();
        p->from_rom = true;
        break;
    }
    case InsnClass::X87Move:
    case InsnClass::SimdMove:
        emit_loads();
        if (loads == 0 && stores == 0)
            Builder::exec(b.add(Unit::FpMove, UopRole::Op, b.cycles(c.fp_move_latency)), EventId::X87SimdMovesUop,
                          kAllP0Bit);
        emit_stores();
        break;
    case InsnClass::SseScalarSp:
    case InsnClass::SseScalarDp:
    case InsnClass::SsePackedSp:
    case InsnClass::SsePackedDp: {
        emit_loads();
        const bool packed = insn.cls == InsnClass::SsePackedSp || insn.cls == InsnClass::SsePackedDp;
        const EventId e = insn.cls == InsnClass::SseScalarSp   ? EventId::ScalarSpUop
                          : insn.cls == InsnClass::SseScalarDp ? EventId::ScalarDpUop
                          : insn.cls == InsnClass::SsePackedSp ? EventId::PackedSpUop
                                                               : EventId::PackedDpUop;
        UopSpec& s = b.add(Unit::FpAdd, UopRole::Op, b.cycles(c.sse_add_latency));
        if (packed) s.busy = static_cast<std::uint8_t>(c.wide_busy);
        Builder::exec(s, e, kAllBit);
        emit_stores();
        break;
    }
    case InsnClass::SseDivSp:
    case InsnClass::SseDivDp: {
        // The class does not say scalar or packed; a 16-byte memory operand means packed.
        bool packed = false;
        for (unsigned i = 0; i < n_mem; ++i) packed = packed || insn.mem[i].size >= 16;
        const bool sp = insn.cls == InsnClass::SseDivSp;
        emit_loads();
        const unsigned lat = sp ? c.sse_div_sp_latency : c.sse_div_dp_latency;
        UopSpec& s = b.add(Unit::Divider, UopRole::Op, b.cycles(packed ? lat * 2 : lat));
        s.busy = static_cast<std::uint8_t>(packed ? lat * 2 : lat);
        Builder::exec(s, sp ? (packed ? EventId::PackedSpUop : EventId::ScalarSpUop)
                            : (packed ? EventId::PackedDpUop : EventId::ScalarDpUop),
                      kAllBit);
        emit_stores();
        break;
    }
    case InsnClass::Mmx64:
        emit_loads();
        Builder::exec(b.add(Unit::Mmx, UopRole::Op, b.cycles(c.mmx_latency)), EventId::Mmx64Uop, kAllBit);
        emit_stores();
        break;
    case InsnClass::Simd128Int: {
        emit_loads();
        UopSpec& s = b.add(Unit::Mmx, UopRole::Op, b.cycles(c.simd_int_latency));
        s.busy = static_cast<std::uint8_t>(c.wide_busy);
        Builder::exec(s, EventId::Mmx128Uop, kAllBit);
        emit_stores();
        break;
    }
    case InsnClass::StringOp: {
        emit_loads();
        emit_stores();
        const std::uint64_t iterations = std::uint64_t{1} << (insn.rep_count_log2 > 40 ? 40 : insn.rep_count_log2);
        const std::uint64_t body = c.string_setup_uops + iterations * c.string_iteration_uops;
        const std::uint64_t done = p->total_uops;
        flow(Unit::FastAlu, body > done ? body - done : 1, b.fast());
        p->from_rom = true;
        break;
    }
    case InsnClass::Microcode: {
        emit_loads();
        emit_stores();
        const std::uint64_t done = p->total_uops;
        flow(Unit::FastAlu, c.microcode_uops > done ? c.microcode_uops - done : 1, b.fast());
        p->flow_latency = b.cycles(c.microcode_cycles);
        p->from_rom = true;
        p->serializing = true;
        break;
    }
    case InsnClass::Fence:
        b.add(Unit::StoreAddr, UopRole::Op, b.cycles(1));
        p->fence = true;
        break;
    case InsnClass::Syscall:
        emit_loads();
        emit_stores();
        flow(Unit::FastAlu, c.syscall_uops, b.fast());
        p->flow_latency = b.cycles(c.syscall_cycles);
        p->from_rom = true;
        p->serializing = true;
        break;
    case InsnClass::Halt:
        b.add(Unit::FastAlu, UopRole::Op, b.fast());
        p->pause = true;
        break;
    case InsnClass::Count_: b.add(Unit::FastAlu, UopRole::Op, b.fast()); break;
    }
    apply_form(c, insn, p);
    if (p->total_uops > c.rom_threshold) p->from_rom = true;
    p->tc_slots = p->from_rom ? 1 : static_cast<unsigned>(p->total_uops);
    // walk_shape::Single takes plans of up to four uops (a read-modify-write: load, op, store address, store
    // data) without flows or anything that serialises. It keeps one store and one branch, each as the last uop,
    // which is where the decomposition puts them.
    p->single = p->num_specs <= 4 && p->num_specs != 0 && p->total_uops == p->num_specs && !p->from_rom &&
                !p->serializing && !p->fence && !p->pause;
    unsigned stores_seen = 0;
    for (unsigned i = 0; i < p->num_specs; ++i) {
        const UopRole role = p->specs[i].role;
        if (role == UopRole::Flow) p->single = false;
        if (role == UopRole::StoreAddr && ++stores_seen > 1) p->single = false;
        if ((role == UopRole::StoreData || role == UopRole::Branch) && i + 1 != p->num_specs) p->single = false;
    }
    p->register_op = p->single && p->num_specs == 1 && p->specs[0].role == UopRole::Op;
}

}  // namespace netburst::emu
