// Helpers for the core-model tests: instruction builders for synthetic traces, and a harness that runs a Core,
// checks the Outcome invariants on every instruction (no overflow, records never before the previous frontier,
// frontier never decreasing) and totals what the PMU would see.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "emulator/core/core.h"
#include "table/events.h"

namespace netburst::emu::test {

// --- Instruction builders ---------------------------------------------------------------------------------------
inline Instruction alu(std::uint64_t pc, RegMask reads = 0, RegMask writes = 0, unsigned thread = 0) {
    Instruction i;
    i.pc = pc;
    i.length = 3;
    i.cls = InsnClass::IntAlu;
    i.reads = reads;
    i.writes = writes;
    i.thread = static_cast<std::uint8_t>(thread);
    return i;
}
inline Instruction load(std::uint64_t pc, std::uint64_t address, unsigned size, RegMask reads, RegMask writes,
                        unsigned thread = 0) {
    Instruction i = alu(pc, reads, writes, thread);
    i.num_mem = 1;
    i.mem[0].address = address;
    i.mem[0].size = static_cast<std::uint8_t>(size);
    return i;
}
inline Instruction store(std::uint64_t pc, std::uint64_t address, unsigned size, RegMask reads, unsigned thread = 0) {
    Instruction i = alu(pc, reads, 0, thread);
    i.num_mem = 1;
    i.mem[0].address = address;
    i.mem[0].size = static_cast<std::uint8_t>(size);
    i.mem[0].is_store = true;
    return i;
}
inline Instruction branch(std::uint64_t pc, std::uint64_t target, bool taken, InsnClass cls = InsnClass::CondBranch,
                          unsigned thread = 0) {
    Instruction i;
    i.pc = pc;
    i.length = 2;
    i.cls = cls;
    i.taken = taken;
    i.target = target;
    i.reads = cls == InsnClass::CondBranch ? kRegFlags : 0;
    i.thread = static_cast<std::uint8_t>(thread);
    return i;
}
inline Instruction of_class(std::uint64_t pc, InsnClass cls, RegMask reads = 0, RegMask writes = 0,
                            unsigned thread = 0) {
    Instruction i = alu(pc, reads, writes, thread);
    i.cls = cls;
    return i;
}

// --- Totals -------------------------------------------------------------------------------------------------------
struct Totals {
    std::uint64_t events[kNumEvents][16] = {};  // event counts, intervals expanded (per_cycle x length)
    std::uint64_t uops = 0, bogus_uops = 0, instructions = 0, bogus_instructions = 0;
    std::uint64_t causes[8] = {};               // non-bogus uops per ReplayCause bit
    std::uint64_t bogus_with_causes = 0;
    std::uint64_t exec_events = 0, bogus_exec_events = 0;
    std::uint64_t loads = 0, stores = 0, branches = 0;
    std::uint64_t mob_bits[16] = {};
    Cycle last_retire = 0;

    std::uint64_t count(EventId e, unsigned bit) const { return events[static_cast<unsigned>(e)][bit]; }
};

class Harness {
public:
    explicit Harness(const CoreConfig& config) : core_(new Core) { core_->reset(config); }
    explicit Harness(const EmulatedMachine& machine = {}) : Harness(make_core_config(machine)) {}

    Core& core() { return *core_; }
    const Totals& totals(unsigned thread = 0) const { return totals_[thread]; }
    const Outcome& last() const { return out_; }
    bool ok() const { return ok_; }
    const char* problem() const { return problem_; }
    Cycle frontier() const { return frontier_; }

    const Outcome& run(const Instruction& insn) {
        core_->execute(insn, &out_);
        absorb(out_);
        return out_;
    }
    void run_all(const std::vector<Instruction>& trace) {
        for (const Instruction& i : trace) run(i);
    }
    // Two traces on the two logical processors, interleaved the way a driver would (next_thread).
    void run_smt(const std::vector<Instruction>& t0, const std::vector<Instruction>& t1) {
        std::size_t i0 = 0, i1 = 0;
        while (i0 < t0.size() || i1 < t1.size()) {
            const unsigned t = core_->next_thread(i0 < t0.size(), i1 < t1.size());
            if (t == 0) {
                run(t0[i0++]);
                if (i0 == t0.size()) stop(0);
            } else {
                run(t1[i1++]);
                if (i1 == t1.size()) stop(1);
            }
        }
    }
    void stop(unsigned thread) {
        core_->stop_thread(thread, &out_);
        absorb(out_);
    }

private:
    void fail(const char* why) {
        if (ok_) problem_ = why;
        ok_ = false;
    }
    void absorb(const Outcome& o) {
        Totals& t = totals_[o.thread & 1];
        if (o.overflowed) fail("outcome overflowed");
        if (o.frontier < frontier_) fail("frontier decreased");
        for (unsigned i = 0; i < o.num_events; ++i) {
            const EventRecord& e = o.events[i];
            if (e.cycle < frontier_) fail("event before the previous frontier");
            t.events[static_cast<unsigned>(e.event)][e.mask_bit & 15] += e.count;
        }
        for (unsigned i = 0; i < o.num_intervals; ++i) {
            const IntervalRecord& r = o.intervals[i];
            if (r.begin < frontier_) fail("interval before the previous frontier");
            if (r.end <= r.begin) fail("empty interval");
            t.events[static_cast<unsigned>(r.event)][r.mask_bit & 15] += (r.end - r.begin) * r.per_cycle;
        }
        for (unsigned i = 0; i < o.num_uops; ++i) {
            const UopRecord& u = o.uops[i];
            if (u.retire < frontier_) fail("uop retires before the previous frontier");
            if (u.bogus) {
                ++t.bogus_uops;
                if (u.last_of_instruction) ++t.bogus_instructions;
                if (u.replay_causes != 0) ++t.bogus_with_causes;
                if (u.has_exec_event) ++t.bogus_exec_events;
            } else {
                ++t.uops;
                if (u.last_of_instruction) ++t.instructions;
                for (unsigned b = 0; b < 8; ++b)
                    if (u.replay_causes >> b & 1) ++t.causes[b];
                for (unsigned b = 0; b < 16; ++b)
                    if (u.mob_mask >> b & 1) ++t.mob_bits[b];
                if (u.has_exec_event) ++t.exec_events;
                if (u.kind == UopKind::Load) ++t.loads;
                if (u.kind == UopKind::Store) ++t.stores;
                if (u.kind == UopKind::Branch) ++t.branches;
                if (u.retire > t.last_retire) t.last_retire = u.retire;
            }
        }
        frontier_ = o.frontier;
    }

    std::unique_ptr<Core> core_;
    Outcome out_;
    Totals totals_[2];
    Cycle frontier_ = 0;
    bool ok_ = true;
    const char* problem_ = "";
};

inline unsigned cause_index(ReplayCause c) { return static_cast<unsigned>(__builtin_ctz(c)); }

// --- The Sprunt benchmarks as synthetic traces ---------------------------------------------------------------------
// fp_add_latency: "a long series of serially dependent FP adds". A loop of `adds` dependent x87 adds closed by a
// counter decrement and a backward branch.
inline std::vector<Instruction> fp_add_latency(unsigned iterations, unsigned adds, unsigned thread = 0) {
    std::vector<Instruction> v;
    const std::uint64_t base = 0x401000;
    for (unsigned it = 0; it < iterations; ++it) {
        std::uint64_t pc = base;
        for (unsigned a = 0; a < adds; ++a, pc += 2) v.push_back(of_class(pc, InsnClass::X87Arith, kRegX87, kRegX87, thread));
        v.push_back(alu(pc, reg_gpr(1), reg_gpr(1) | kRegFlags, thread));  // dec ecx
        v.push_back(branch(pc + 3, base, it + 1 != iterations, InsnClass::CondBranch, thread));
    }
    return v;
}

// l1_miss: "a steady stream of independent memory loads, all of which miss the L1 cache"; the PEBS profile shows
// eight addresses 8 KB apart, visited by an eight-iteration loop executed again and again. Each iteration loads
// into a register nothing reads (independent loads), advances the pointer and counts down.
inline std::vector<Instruction> l1_miss(unsigned outer, unsigned thread = 0, std::uint64_t array = 0x08049760) {
    std::vector<Instruction> v;
    const std::uint64_t inner = 0x401100, top = 0x4010F0;
    for (unsigned o = 0; o < outer; ++o) {
        v.push_back(alu(top, 0, reg_gpr(0), thread));       // mov eax, array
        v.push_back(alu(top + 5, 0, reg_gpr(1), thread));   // mov ecx, 8
        for (unsigned i = 0; i < 8; ++i) {
            v.push_back(load(inner, array + i * 8192, 4, reg_gpr(0), reg_gpr(3), thread));  // mov ebx, [eax]
            v.push_back(alu(inner + 2, reg_gpr(0), reg_gpr(0) | kRegFlags, thread));         // add eax, 8192
            v.push_back(alu(inner + 7, reg_gpr(1), reg_gpr(1) | kRegFlags, thread));         // dec ecx
            v.push_back(branch(inner + 8, inner, i != 7, InsnClass::CondBranch, thread));    // jnz inner
        }
        v.push_back(alu(inner + 10, reg_gpr(2), reg_gpr(2) | kRegFlags, thread));            // dec edx
        v.push_back(branch(inner + 11, top, o + 1 != outer, InsnClass::CondBranch, thread)); // jnz top
    }
    return v;
}

// l1_miss as the paper's PEBS section describes it: only the target load `mov (%eax),%eax` misses (the same eight
// addresses), "preceded and followed by large sequential blocks of loads that always hit the cache". The block
// size is not given (more than 69); scripts/sprunt-benchmarks.sh writes the same loop with blocks of 100.
inline std::vector<Instruction> l1_miss_pebs(unsigned outer, unsigned block, unsigned thread = 0) {
    std::vector<Instruction> v;
    const std::uint64_t array = 0x08049760, buffer = 0x0805a000, top = 0x804838b, target = 0x80484c3;
    const std::uint64_t before = target - 2 - 3 * block, after = target + 2;
    for (unsigned o = 0; o < outer; ++o) {
        v.push_back(alu(top, 0, reg_gpr(3), thread));      // mov ebx, array
        v.push_back(alu(top + 5, 0, reg_gpr(2), thread));  // mov edx, 8
        for (unsigned i = 0; i < 8; ++i) {
            for (unsigned k = 0; k < block; ++k)
                v.push_back(load(before + 3 * k, buffer + 4 * k, 4, reg_gpr(6), reg_gpr(1), thread));
            v.push_back(alu(target - 2, reg_gpr(3), reg_gpr(0), thread));                     // mov eax, ebx
            v.push_back(load(target, array + i * 8192, 4, reg_gpr(0), reg_gpr(0), thread));  // mov (%eax),%eax
            for (unsigned k = 0; k < block; ++k)
                v.push_back(load(after + 3 * k, buffer + 4 * k, 4, reg_gpr(6), reg_gpr(1), thread));
            const std::uint64_t tail = after + 3 * block;
            v.push_back(alu(tail, reg_gpr(3), reg_gpr(3) | kRegFlags, thread));      // add ebx, 8192
            v.push_back(alu(tail + 6, reg_gpr(2), reg_gpr(2) | kRegFlags, thread));  // dec edx
            v.push_back(branch(tail + 7, before, i != 7, InsnClass::CondBranch, thread));
        }
        v.push_back(alu(top + 0x26f, reg_gpr(7), reg_gpr(7) | kRegFlags, thread));
        v.push_back(branch(top + 0x270, top, o + 1 != outer, InsnClass::CondBranch, thread));
    }
    return v;
}

}  // namespace netburst::emu::test
