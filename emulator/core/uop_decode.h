// Decomposition of an x86 instruction into NetBurst uops, by instruction class and memory operands.
//
// The input says what the instruction is (class, operands, registers), not how the processor splits it, so the
// rules are ours, following the thesis (seed 000, section 4.1) and Agner Fog's P4 uop counts in spirit:
//  - a register operation is one uop; a load-op is load + op; a store is store-address + store-data; a
//    read-modify-write is load + op + store-address + store-data;
//  - an integer instruction with a load and no flags written is a plain load (mov, movzx): one uop;
//  - push/pop/call/ret add a stack-pointer uop; calls store the return address, returns load it;
//  - more than four uops, and the long classes (x87 transcendental, strings, Microcode, Syscall), come from the
//    microcode ROM; indirect calls do too before Prescott (ExtremeTech: Prescott encodes them in the trace cache).
// Long flows are described by one "flow" entry with a repeat count: the first uops are emitted as records, the
// rest are timed only (CoreConfig::rom_record_cap).
#pragma once

#include <cstdint>

#include "emulator/core/core_config.h"
#include "emulator/core/ticks.h"
#include "emulator/model/outcome.h"

namespace netburst::emu {

// Where a uop executes (port 0: fast ALU 0 and the FP move unit; port 1: fast ALU 1, the complex integer unit
// and the FP execute units; port 2: loads; port 3: store addresses).
enum class Unit : std::uint8_t {
    FastAlu,    // either double-speed ALU (ports 0 and 1)
    Alu0,       // double-speed ALU 0 only: branches, integer store data
    Complex,    // port 1 slow integer unit: shifts and rotates before Prescott
    IntMul,     // port 1
    Divider,    // port 1, unpipelined (integer and FP divide)
    FpAdd,      // port 1 FP adder (x87 and SSE arithmetic)
    Mmx,        // port 1 MMX/SSE2 integer unit
    FpMove,     // port 0 FP move / store-data unit
    Load,       // port 2
    StoreAddr,  // port 3
};

enum class UopRole : std::uint8_t { Load, StoreAddr, StoreData, Op, Branch, Flow };

struct UopSpec {
    Unit unit;
    UopRole role;
    UopKind kind;
    std::uint8_t mem;         // memory operand index for Load/StoreAddr/StoreData
    std::uint16_t latency;    // ticks
    std::uint8_t busy;        // cycles the unit stays occupied (1 = fully pipelined)
    bool fp_load;             // a load into x87/SSE/MMX registers (longer L1 latency)
    bool has_exec_event;
    EventId exec_event;
    std::uint8_t exec_bit;
    std::uint32_t count;      // Flow only: uops in the flow (records are capped, see UopPlan::emit_cap)
};

// Filled completely by decompose() (no default initialisation: it is rebuilt for every instruction).
struct UopPlan {
    static constexpr unsigned kMaxSpecs = 8;
    UopSpec specs[kMaxSpecs];
    unsigned num_specs;
    std::uint64_t total_uops;   // all uops of the instruction, flows included
    unsigned tc_slots;          // trace-cache slots (1 for a ROM instruction)
    bool from_rom;              // delivered from the microcode ROM
    bool serializing;           // waits for all older uops to retire; younger ones wait for it
    bool fence;
    bool pause;
    Tick flow_latency;          // from the flow's first issue to its result (long microcode operations)
    bool has_op;                // an Op/Flow uop produces the register result
    bool has_load;
    bool single;                // one or two uops, nothing that serialises: the core's fast path
    bool register_op;           // ... and of those, one register operation (no memory, not a branch)
};

void decompose(const CoreConfig& config, const Instruction& insn, UopPlan* plan);

// Decompositions depend only on an instruction's shape (class, memory operands, a few register facts), of which
// a program has few; they are computed once and looked up afterwards. Direct-mapped, keyed by the whole shape.
class PlanCache {
public:
    void reset(const CoreConfig* config) {
        config_ = config;
        for (Entry& e : entries_) e.key = kNoKey;
        for (ByPc& b : by_pc_) b = ByPc{~std::uint64_t{0}, nullptr, 0, InsnClass::Count_, 0};
    }
    __attribute__((always_inline)) const UopPlan& get(const Instruction& insn) {
        // Most lookups are for an instruction seen before at the same address: a shape is a property of the
        // instruction's encoding (except a string operation's count), so the address, checked against the
        // class, operand count and written registers, finds its plan without recomputing the shape.
        ByPc& b = by_pc_[(insn.pc ^ (insn.pc >> 11)) & (kByPc - 1)];
        if (b.pc == insn.pc && b.cls == insn.cls && b.num_mem == insn.num_mem && b.writes == insn.writes &&
            insn.cls != InsnClass::StringOp)
            return *(last_ = b.plan);
        const UopPlan& plan = lookup(insn);
        last_ = &plan;
        b.pc = insn.pc;
        b.cls = insn.cls;
        b.num_mem = insn.num_mem;
        b.writes = insn.writes;
        b.plan = &plan;
        return plan;
    }
    // The plan get() returned last.
    const UopPlan* last_plan() const { return last_; }
    const UopPlan& lookup(const Instruction& insn) {
        const std::uint32_t key = shape_key(insn);
        Entry& e = entries_[(key ^ (key >> 9) ^ (key >> 17)) & (kEntries - 1)];
        if (e.key != key) {
            decompose(*config_, insn, &e.plan);
            e.key = key;
        }
        return e.plan;
    }
    // Everything decompose() looks at.
    static std::uint32_t shape_key(const Instruction& insn) {
        const unsigned n = insn.num_mem > kMaxMemOperands ? kMaxMemOperands : insn.num_mem;
        std::uint32_t k = static_cast<std::uint32_t>(insn.cls) | n << 6;
        // Unrolled (kMaxMemOperands is 2): GCC's -O1 sanitizer build sees the loop index as maybe-uninitialised.
        static_assert(kMaxMemOperands == 2, "shape_key handles two memory operands");
        if (n >= 1) k |= (insn.mem[0].is_store ? 1u << 8 : 0u) | (insn.mem[0].size >= 16 ? 1u << 9 : 0u);
        if (n >= 2) k |= (insn.mem[1].is_store ? 1u << 10 : 0u) | (insn.mem[1].size >= 16 ? 1u << 11 : 0u);
        if (insn.writes & kRegFlags) k |= 1u << 12;
        if (insn.writes & reg_gpr(4)) k |= 1u << 13;
        if (insn.cls == InsnClass::StringOp) k |= static_cast<std::uint32_t>(insn.rep_count_log2 & 63) << 14;
        return k;
    }

private:
    static constexpr unsigned kEntries = 512;
    static constexpr std::uint32_t kNoKey = ~std::uint32_t{0};
    struct Entry {
        std::uint32_t key;
        UopPlan plan;
    };
    static constexpr unsigned kByPc = 4096;
    struct ByPc {
        std::uint64_t pc;
        const UopPlan* plan;
        RegMask writes;
        InsnClass cls;
        std::uint8_t num_mem;
    };
    const CoreConfig* config_ = nullptr;
    const UopPlan* last_ = nullptr;
    Entry entries_[kEntries];
    ByPc by_pc_[kByPc];
};

// How many uop records the plan produces when a flow emits at most `cap` of its uops.
inline unsigned record_count(const UopPlan& plan, unsigned cap) {
    unsigned n = 0;
    for (unsigned i = 0; i < plan.num_specs; ++i)
        n += plan.specs[i].count > cap ? cap : plan.specs[i].count;
    return n;
}

}  // namespace netburst::emu
