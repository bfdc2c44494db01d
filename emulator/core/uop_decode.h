// Decomposition of an x86 instruction into NetBurst uops, by instruction class and memory operands.
//
// The input says what the instruction is (class, operands, registers), not how the processor splits it, so the
// rules are ours, following the thesis (section 4.1; doc/references.md) and Agner Fog's P4 uop counts in spirit:
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
    SlowAlu,    // an integer operation that holds an ALU longer than the double-speed ALUs' half cycle (a form whose
                // measured throughput says so: lea with a scaled index, bsf/bsr, bswap, setcc, ...): issued like
                // any ALU uop, it keeps the unit for UopSpec::busy *ticks*
    IntMul,     // port 1
    Divider,    // port 1, unpipelined (integer and FP divide)
    FpAdd,      // port 1 FP adder (x87 and SSE arithmetic)
    Mmx,        // port 1 MMX/SSE2 integer unit (MMX_ALU; the FP adder's and multiplier's unit too)
    MmxShift,   // port 1 MMX shift/shuffle unit (MMX_SHFT): bit and byte shifts, unpacks, shuffles, packs
    FpMove,     // port 0 FP move / store-data unit
    Load,       // port 2
    StoreAddr,  // port 3
    StoreAddrPort1,  // port 3, and a dispatch slot of port 1 (movd m32, mm: uop_decode.cpp, Builder::store)
};

// StackPtr: the stack-pointer update of push, pop, call and ret, which reads only the stack pointer (not the
// loaded value) and writes only it.
enum class UopRole : std::uint8_t { Load, StoreAddr, StoreData, Op, Branch, Flow, StackPtr };

struct UopSpec {
    Unit unit;
    UopRole role;
    UopKind kind;
    std::uint8_t mem;         // memory operand index for Load/StoreAddr/StoreData
    std::uint16_t latency;    // ticks
    std::uint8_t busy;        // cycles the unit stays occupied (1 = fully pipelined); Unit::SlowAlu: ticks
    bool busy_alternates;     // held busy and busy - 1 cycles alternately (FormTiming::busy_alternates)
    bool fp_load;             // a load into x87/SSE/MMX registers (longer L1 latency)
    bool has_exec_event;
    EventId exec_event;
    std::uint8_t exec_bit;
    std::uint32_t count;      // Flow only: uops in the flow (records are capped, see UopPlan::emit_cap)
};

// What the functional tier (Core::execute_functional) keeps with a plan, worked out on its first use so that an
// execution only walks what can change the functional state:
//  - the signature (functional_sink.h) of each spec's uops when they meet no replay cause, valid for the sink
//    generation it names, and for a spec that can meet replay causes (a memory access, the branch) the first of
//    its block of signatures with causes (FunctionalSink::intern_caused): the signature of a uop that met some
//    causes is then one addition away;
//  - the uops whose signature cannot change (no memory operand, not the branch), merged by signature;
//  - in program order, the loads and store addresses that access memory; how many stores commit; the branch uop.
struct FunctionalPlan {
    static constexpr unsigned kMaxSpecs = 8;
    static constexpr std::uint8_t kNone = 0xFF;
    std::uint64_t generation;           // FunctionalSink::generation() the indices belong to; 0: none yet
    std::uint16_t signature[kMaxSpecs];
    std::uint16_t caused_base[kMaxSpecs];  // access and branch specs only
    std::uint8_t kinds;                 // bit 0: a Load uop, bit 1: a Store uop (instr_retired TAG/NTAG)
    std::uint8_t num_fixed;
    std::uint16_t fixed_signature[kMaxSpecs];
    std::uint32_t fixed_count[kMaxSpecs];
    std::uint8_t num_accesses;
    std::uint8_t access_spec[kMaxSpecs];   // Load or StoreAddr specs with a memory operand
    std::uint8_t num_commits;              // StoreData specs
    std::uint8_t branch_spec;              // the Branch spec, or kNone
    // What execute_functional() does after delivery: nothing (a register operation: one signature, no memory
    // access, no branch, not from the ROM), one load (one access, a load; nothing else that can change), a
    // branch without memory accesses, one store (its address, then its commit; nothing else that can change),
    // or everything in general.
    enum class Work : std::uint8_t { None, Load, Branch, General, Store };
    Work work;
    std::uint8_t load_mem;                 // Work::Load: its memory operand
    std::uint8_t commit_mem;               // Work::Store: the memory operand its store data writes
    // A plan that stays put (PlanStore) counts its executions here, per qualifier, and the core adds them to the
    // sink (retirement) and to its statistics only when asked (Core::flush_functional): an execution then costs
    // one increment. Plans of the evictable PlanCache retire at once.
    bool deferred;
    std::uint64_t pending[4];
    // Work::Branch in a deferred plan: the executions per qualifier and outcome (bit 1: taken, bit 0:
    // mispredicted), whose branch uop and retirement events Core::flush_functional adds too; and the class they
    // need.
    std::uint64_t branch_outcomes[4][4];
    InsnClass cls;
};

// Filled completely by decompose() (no default initialisation: it is rebuilt for every instruction).
struct UopPlan {
    static constexpr unsigned kMaxSpecs = FunctionalPlan::kMaxSpecs;
    UopSpec specs[kMaxSpecs];
    unsigned num_specs;
    std::uint64_t total_uops;   // all uops of the instruction, flows included
    unsigned tc_slots;          // trace-cache slots (1 for a ROM instruction)
    bool from_rom;              // delivered from the microcode ROM
    bool serializing;           // waits for all older uops to retire; younger ones wait for it
    bool fence;
    bool pause;
    Tick flow_latency;          // from the flow's first issue to its result (long microcode operations)
    Tick load_merge;            // a plain load: ticks from its data to its register result (a form's merge)
    Tick dest_merge;            // a merging form (cmov): ticks from the destination's old value to the result
    std::int16_t high_delta;    // a one-operand multiply: ticks from its result to its high half (rdx), which
                                // comes at a time of its own (FormTiming::high_latency); 0: with the rest
    bool has_op;                // an Op/Flow uop produces the register result
    bool has_load;
    bool single;                // up to four uops, nothing that serialises: walk_shape::Single (core_walker.h)
    bool register_op;           // ... and of those, one register operation (no memory, not a branch)
    // The functional tier's cache, filled on first use (decompose() only invalidates it). Mutable: the plan cache
    // hands plans out as const, and this is a cache of what the plan implies, not part of the decomposition.
    mutable FunctionalPlan functional;
};

void decompose(const CoreConfig& config, const Instruction& insn, UopPlan* plan);

// Decompositions depend only on an instruction's shape (class, form, memory operands, a few register facts), of
// which a program has few. PlanStore (below) keeps each shape's plan for good; this direct-mapped cache, keyed by
// the whole shape, is its fallback for the shapes beyond the store's capacity.
class PlanCache {
public:
    void reset(const CoreConfig* config) {
        config_ = config;
        for (Entry& e : entries_) e.key = kNoKey;
    }
    const UopPlan& lookup(const Instruction& insn) { return entry(insn, shape_key(insn)).plan; }
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
        if (insn.reads & reg_gpr(4)) k |= 1u << 28;
        if (insn.cls == InsnClass::StringOp) k |= static_cast<std::uint32_t>(insn.rep_count_log2 & 63) << 14;
        static_assert(static_cast<unsigned>(InsnForm::Count_) <= 256, "shape_key keeps the form in 8 bits");
        k |= static_cast<std::uint32_t>(insn.form) << 20;
        return k;
    }

private:
    static constexpr unsigned kEntries = 512;
    static constexpr std::uint32_t kNoKey = ~std::uint32_t{0};
    struct Entry {
        std::uint32_t key;
        UopPlan plan;
    };
    Entry& entry(const Instruction& insn, std::uint32_t key) {
        Entry& e = entries_[(key ^ (key >> 9) ^ (key >> 17)) & (kEntries - 1)];
        if (e.key != key) {
            decompose(*config_, insn, &e.plan);
            e.key = key;
        }
        return e;
    }
    const CoreConfig* config_ = nullptr;
    Entry entries_[kEntries];
};

// Plans that stay where they are until reset, interned by shape, for front ends that describe the same static
// instruction again and again and can keep its plan with it: the Valgrind tool works the plan out once per
// translated instruction, which saves the plan cache's lookup on every execution (Core::stable_plan).
class PlanStore {
public:
    static constexpr unsigned kCapacity = 2048;

    void reset(const CoreConfig* config) {
        config_ = config;
        count_ = 0;
        for (std::uint16_t& s : slots_) s = 0;
    }
    // The plan of `insn`'s shape, or nullptr when the store is full.
    const UopPlan* get(const Instruction& insn) {
        const std::uint32_t key = PlanCache::shape_key(insn);
        unsigned h = (key * 0x9E3779B9u) >> (32 - kSlotBits);
        for (;; h = (h + 1) & (kSlots - 1)) {
            if (slots_[h] == 0) break;
            if (keys_[slots_[h] - 1] == key) return &plans_[slots_[h] - 1];
        }
        if (count_ == kCapacity) return nullptr;
        decompose(*config_, insn, &plans_[count_]);
        keys_[count_] = key;
        slots_[h] = static_cast<std::uint16_t>(count_ + 1);
        return &plans_[count_++];
    }
    // The plans handed out, for walking.
    unsigned size() const { return count_; }
    const UopPlan& operator[](unsigned i) const { return plans_[i]; }
    // Whether `plan` is one of this store's.
    bool holds(const UopPlan& plan) const { return &plan >= plans_ && &plan < plans_ + count_; }
    // The shape key of one of this store's plans (PlanCache::shape_key): what the plan is, whatever order the
    // shapes came in.
    std::uint32_t shape_of(const UopPlan& plan) const { return keys_[&plan - plans_]; }

private:
    static constexpr unsigned kSlotBits = 12;
    static constexpr unsigned kSlots = 1u << kSlotBits;  // twice the capacity: short probes
    const CoreConfig* config_ = nullptr;
    unsigned count_ = 0;
    std::uint16_t slots_[kSlots];  // plan index + 1, 0 when empty
    std::uint32_t keys_[kCapacity];
    UopPlan plans_[kCapacity];
};

// How many uop records the plan produces when a flow emits at most `cap` of its uops.
inline unsigned record_count(const UopPlan& plan, unsigned cap) {
    unsigned n = 0;
    for (unsigned i = 0; i < plan.num_specs; ++i)
        n += plan.specs[i].count > cap ? cap : plan.specs[i].count;
    return n;
}

}  // namespace netburst::emu
