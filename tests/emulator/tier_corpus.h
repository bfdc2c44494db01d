// The corpus of the tier tests (core_tier_test.cpp, emulator_tier_test.cpp): instruction traces that exercise
// every piece of functional state and every functional event the core model has, so that the functional tier's
// counts can be compared with the timing tier's on them.
//
// Each trace is a program as a processor would see it: code at fixed addresses (an address always holds the same
// instruction), executed along real control flow (loops, calls and returns, switches through indirect jumps), with
// its data accesses. Deterministic (a fixed xorshift seed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emulator/model/emulated_machine.h"
#include "emulator/model/instruction.h"

namespace netburst::emu::test {

struct CorpusTrace {
    std::string name;
    EmulatedMachine machine;
    // Program order; with Hyper-Threading the interleaving of the two logical processors is part of the trace
    // (each instruction's `thread`), so that both tiers see the same order.
    std::vector<Instruction> insns;
};

class CorpusBuilder {
public:
    explicit CorpusBuilder(unsigned thread = 0, std::uint64_t seed = 0x2545F4914F6CDD1Dull)
        : thread_(static_cast<std::uint8_t>(thread)), rng_(seed) {}

    std::vector<Instruction>& out() { return out_; }
    std::uint64_t random() {
        rng_ ^= rng_ << 13;
        rng_ ^= rng_ >> 7;
        rng_ ^= rng_ << 17;
        return rng_;
    }
    void set_cpl(unsigned cpl) { cpl_ = static_cast<std::uint8_t>(cpl); }

    // One instruction at `pc`.
    Instruction& op(std::uint64_t pc, InsnClass cls, RegMask reads = 0, RegMask writes = 0, unsigned length = 3) {
        Instruction i;
        i.pc = pc;
        i.length = static_cast<std::uint8_t>(length);
        i.cls = cls;
        i.reads = reads;
        i.writes = writes;
        i.thread = thread_;
        i.cpl = cpl_;
        out_.push_back(i);
        return out_.back();
    }
    Instruction& mem(std::uint64_t pc, InsnClass cls, std::uint64_t address, unsigned size, bool store,
                     RegMask reads = reg_gpr(6), RegMask writes = 0) {
        Instruction& i = op(pc, cls, reads, writes, 4);
        i.num_mem = 1;
        i.mem[0] = MemOperand{address, static_cast<std::uint8_t>(size), store};
        return i;
    }
    Instruction& branch(std::uint64_t pc, InsnClass cls, std::uint64_t target, bool taken) {
        Instruction& i = op(pc, cls, cls == InsnClass::CondBranch ? kRegFlags : 0, 0, 2);
        i.target = target;
        i.taken = taken;
        return i;
    }
    Instruction& call(std::uint64_t pc, std::uint64_t target, std::uint64_t stack, bool indirect) {
        Instruction& i = branch(pc, indirect ? InsnClass::IndirectCall : InsnClass::DirectCall, target, true);
        i.length = 5;
        i.num_mem = 1;
        i.mem[0] = MemOperand{stack, 8, true};  // the return address
        i.writes = reg_gpr(4);
        return i;
    }
    Instruction& ret(std::uint64_t pc, std::uint64_t target, std::uint64_t stack) {
        Instruction& i = branch(pc, InsnClass::Return, target, true);
        i.length = 1;
        i.num_mem = 1;
        i.mem[0] = MemOperand{stack, 8, false};
        i.writes = reg_gpr(4);
        return i;
    }

private:
    std::vector<Instruction> out_;
    std::uint8_t thread_;
    std::uint8_t cpl_ = 3;
    std::uint64_t rng_;
};

// --- Kernels --------------------------------------------------------------------------------------------------

// Nested loops over arrays: sequential, strided (column) and random loads, stores, load-ops and read-modify-writes,
// x87 and SSE arithmetic, a data-dependent branch, a loop exit that mispredicts, calls to a leaf function, a
// switch through an indirect jump and an indirect call, 16-byte loads.
inline void loops_kernel(CorpusBuilder& b, unsigned outer, std::uint64_t code = 0x401000,
                         std::uint64_t data = 0x10000000) {
    const std::uint64_t leaf = code + 0x800, table = data + 0x200000, stack = 0x7ffe0000 + (code & 0xF000);
    for (unsigned i = 0; i < outer; ++i) {
        const std::uint64_t top = code;
        for (unsigned k = 0; k < 24; ++k) {
            std::uint64_t pc = top;
            b.mem(pc, InsnClass::SimdMove, data + (i * 24 + k) * 8 % 0x8000, 8, false, reg_gpr(2), reg_xmm(0));
            pc += 4;
            b.mem(pc, InsnClass::SseScalarDp, data + 0x100000 + k * 3200 + (i % 400) * 8, 8, false,
                  reg_gpr(0) | reg_xmm(0), reg_xmm(0));
            pc += 4;
            b.op(pc, InsnClass::IntAlu, reg_gpr(0), reg_gpr(0) | kRegFlags);
            pc += 3;
            b.op(pc, InsnClass::SseScalarDp, reg_xmm(0) | reg_xmm(1), reg_xmm(1));
            pc += 3;
            const std::uint64_t r = b.random();
            b.mem(pc, InsnClass::IntAlu, data + 0x400000 + (r % (1u << 20)) * 8, 4, false, reg_gpr(3),
                  reg_gpr(1) | kRegFlags);  // random load-op
            pc += 4;
            // 90 % not taken; taken, it skips nothing (its target is the next instruction), so the trace stays
            // one program's path either way.
            b.branch(pc, InsnClass::CondBranch, pc + 2, (r >> 32) % 10 == 0);
            pc += 2;
            b.mem(pc, InsnClass::IntAlu, data + 0x300000 + (i * 24 + k) * 64, 8, true, reg_gpr(1));  // store
            pc += 4;
            Instruction& rmw = b.mem(pc, InsnClass::IntAlu, data + 0x310000 + (k % 8) * 8, 4, false, reg_gpr(5),
                                     kRegFlags);  // add [mem], reg
            rmw.num_mem = 2;
            rmw.mem[1] = MemOperand{rmw.mem[0].address, 4, true};
            pc += 4;
            b.op(pc, InsnClass::X87Arith, kRegX87, kRegX87);
            pc += 2;
            b.mem(pc, InsnClass::SsePackedSp, data + 0x320000 + (k % 16) * 16, 16, false, reg_xmm(2), reg_xmm(2));
            pc += 4;
            b.op(pc, InsnClass::IntShift, reg_gpr(7), reg_gpr(7) | kRegFlags);
            pc += 3;
            b.op(pc, InsnClass::IntMul, reg_gpr(7), reg_gpr(7) | kRegFlags);
            pc += 3;
            if (k % 6 == 0) {
                b.call(pc, leaf, stack - 8, false);
                b.op(leaf, InsnClass::IntAlu, reg_gpr(0), reg_gpr(0) | kRegFlags);
                b.mem(leaf + 3, InsnClass::IntAlu, stack - 16, 8, false, reg_gpr(4), reg_gpr(3));
                b.ret(leaf + 7, pc + 5, stack - 8);
            }
            pc += 5;
            if (k % 8 == 3) {  // a switch: an indirect jump through a table, to one of three cases
                const unsigned c = static_cast<unsigned>(b.random() % 3);
                b.mem(pc, InsnClass::IntAlu, table + c * 8, 8, false, reg_gpr(0), reg_gpr(1));
                b.branch(pc + 4, InsnClass::IndirectJump, code + 0x600 + c * 0x40, true);
                b.op(code + 0x600 + c * 0x40, InsnClass::IntAlu, reg_gpr(2), reg_gpr(2) | kRegFlags);
                b.branch(code + 0x603 + c * 0x40, InsnClass::DirectJump, pc + 6, true);
            }
            pc += 6;
            if (k % 12 == 7) {  // an indirect call through a table of two functions
                const std::uint64_t target = leaf + 0x100 * (1 + b.random() % 2);
                b.call(pc, target, stack - 8, true).reads = reg_gpr(0);
                b.op(target, InsnClass::SseScalarSp, reg_xmm(3), reg_xmm(3));
                b.ret(target + 4, pc + 5, stack - 8);
            }
            pc += 5;
            b.op(pc, InsnClass::IntAlu, reg_gpr(1), reg_gpr(1) | kRegFlags);
            b.branch(pc + 3, InsnClass::CondBranch, top, k != 23);  // the loop: its exit mispredicts
        }
    }
}

// Everything the microcode ROM delivers, serialising instructions, a fence and a pause, string operations of
// several lengths (one beyond the record cap), system calls into a short kernel path at CPL 0 and back.
inline void microcode_kernel(CorpusBuilder& b, unsigned rounds, std::uint64_t code = 0x402000,
                             std::uint64_t data = 0x11000000) {
    const std::uint64_t kernel = 0xffffffff81e00000ull, kstack = 0xffffc90000004000ull;
    for (unsigned i = 0; i < rounds; ++i) {
        std::uint64_t pc = code;
        b.op(pc, InsnClass::Microcode, reg_gpr(0), reg_gpr(0) | reg_gpr(2));  // cpuid
        pc += 2;
        b.op(pc, InsnClass::X87Complex, kRegX87, kRegX87);  // fsin
        pc += 2;
        b.op(pc, InsnClass::X87Div, kRegX87, kRegX87);
        pc += 2;
        b.op(pc, InsnClass::SseDivDp, reg_xmm(1), reg_xmm(1));
        pc += 4;
        Instruction& s = b.mem(pc, InsnClass::StringOp, data + (i % 32) * 256, 8, true, reg_gpr(7) | reg_gpr(1),
                               reg_gpr(7) | reg_gpr(1));
        s.rep_count_log2 = static_cast<std::uint8_t>(i % 12);  // up to 2048 iterations: beyond the record cap
        pc += 3;
        Instruction& m = b.mem(pc, InsnClass::StringOp, data + 0x1000, 1, false, reg_gpr(6), reg_gpr(6));
        m.num_mem = 2;
        m.mem[1] = MemOperand{data + 0x2000 + i * 8, 1, true};  // rep movsb
        m.rep_count_log2 = 3;
        pc += 3;
        b.op(pc, InsnClass::Fence);
        pc += 3;
        b.op(pc, InsnClass::Halt);  // pause
        pc += 2;
        b.op(pc, InsnClass::Mmx64, reg_xmm(4), reg_xmm(4));
        pc += 3;
        b.op(pc, InsnClass::Simd128Int, reg_xmm(5), reg_xmm(5));
        pc += 4;
        b.mem(pc, InsnClass::X87Move, data + 0x3000, 10, true, kRegX87);  // fstp tbyte
        pc += 3;
        b.mem(pc, InsnClass::SimdMove, data + 0x3100, 16, true, reg_xmm(5));  // movdqa store
        pc += 4;
        if (i % 4 == 1) {
            b.op(pc, InsnClass::Syscall, reg_gpr(0), reg_gpr(0) | reg_gpr(1) | reg_gpr(11));
            b.set_cpl(0);
            std::uint64_t kpc = kernel;
            b.op(kpc, InsnClass::Microcode);  // swapgs
            kpc += 3;
            for (unsigned k = 0; k < 6; ++k, kpc += 4)
                b.mem(kpc, InsnClass::IntAlu, kstack - 8 * (k + 1), 8, true, reg_gpr(k));  // push
            b.mem(kpc, InsnClass::IntAlu, 0xffff888100200040ull, 8, false, reg_gpr(0), reg_gpr(3));
            kpc += 4;
            b.branch(kpc, InsnClass::CondBranch, kpc + 0x40, false);
            kpc += 2;
            for (unsigned k = 0; k < 6; ++k, kpc += 4)
                b.mem(kpc, InsnClass::IntAlu, kstack - 8 * (6 - k), 8, false, reg_gpr(4), reg_gpr(k));  // pop
            b.op(kpc, InsnClass::Microcode);  // swapgs
            b.branch(kpc + 3, InsnClass::IndirectJump, pc + 2, true);  // sysret
            b.set_cpl(3);
        }
        pc += 2;
        b.op(pc, InsnClass::IntAlu, reg_gpr(1), reg_gpr(1) | kRegFlags);
        b.branch(pc + 3, InsnClass::CondBranch, code, i + 1 != rounds);
    }
    // A store in the middle of a trace line, with instructions after it in the line, that now and then writes
    // into the loop's own code.
    const std::uint64_t loop = code + 0x400;
    for (unsigned i = 0; i < rounds; ++i) {
        b.op(loop, InsnClass::IntAlu, reg_gpr(1), reg_gpr(1) | kRegFlags);
        b.mem(loop + 3, InsnClass::IntAlu, i % 8 == 7 ? loop + 0x20 : data + 0x4000 + i * 8, 1, true, reg_gpr(3));
        b.op(loop + 7, InsnClass::IntAlu, reg_gpr(2), reg_gpr(2) | kRegFlags);
        b.op(loop + 10, InsnClass::IntAlu, reg_gpr(4), reg_gpr(4) | kRegFlags);
        b.branch(loop + 13, InsnClass::CondBranch, loop, i + 1 != rounds);
    }
}

// Loads and stores crossing 64-byte lines, 16-byte SSE accesses, and a store into code the trace cache holds
// (self-modifying code: the trace cache is flushed and the code rebuilt).
inline void split_and_smc_kernel(CorpusBuilder& b, unsigned rounds, std::uint64_t code = 0x403000,
                                 std::uint64_t data = 0x12000000) {
    for (unsigned i = 0; i < rounds; ++i) {
        std::uint64_t pc = code;
        b.mem(pc, InsnClass::IntAlu, data + 60 + (i % 8) * 128, 8, false, reg_gpr(6), reg_gpr(0));  // split load
        pc += 4;
        b.mem(pc, InsnClass::IntAlu, data + 0x1000 + 62 + (i % 8) * 128, 4, true, reg_gpr(0));  // split store
        pc += 4;
        b.mem(pc, InsnClass::SsePackedDp, data + 0x2000 + 56 + (i % 4) * 64, 16, false, reg_xmm(0), reg_xmm(0));
        pc += 4;
        b.mem(pc, InsnClass::IntAlu, data + 0x3000 + i * 4, 4, true, reg_gpr(1));  // store then load it back
        pc += 4;
        b.mem(pc, InsnClass::IntAlu, data + 0x3000 + i * 4, 4, false, reg_gpr(6), reg_gpr(2));
        pc += 4;
        if (i % 16 == 15) b.mem(pc, InsnClass::IntAlu, code + 0x10, 1, true, reg_gpr(3));  // patch own code
        pc += 4;
        b.op(pc, InsnClass::IntAlu, reg_gpr(1), reg_gpr(1) | kRegFlags);
        b.branch(pc + 3, InsnClass::CondBranch, code, i + 1 != rounds);
    }
    // A store in the middle of a trace line, with instructions after it in the line, that now and then writes
    // into the loop's own code.
    const std::uint64_t loop = code + 0x400;
    for (unsigned i = 0; i < rounds; ++i) {
        b.op(loop, InsnClass::IntAlu, reg_gpr(1), reg_gpr(1) | kRegFlags);
        b.mem(loop + 3, InsnClass::IntAlu, i % 8 == 7 ? loop + 0x20 : data + 0x4000 + i * 8, 1, true, reg_gpr(3));
        b.op(loop + 7, InsnClass::IntAlu, reg_gpr(2), reg_gpr(2) | kRegFlags);
        b.op(loop + 10, InsnClass::IntAlu, reg_gpr(4), reg_gpr(4) | kRegFlags);
        b.branch(loop + 13, InsnClass::CondBranch, loop, i + 1 != rounds);
    }
}

// A stream over more memory than the L2 (and the L3) holds, with stores, so that lines are written back and the
// bus is busy; a scattered walk over many pages for the DTLB; code over many 4 KB pages for the ITLB and the
// trace cache.
inline void memory_kernel(CorpusBuilder& b, unsigned lines, std::uint64_t code = 0x404000,
                          std::uint64_t data = 0x20000000) {
    for (unsigned i = 0; i < lines; ++i) {
        std::uint64_t pc = code;
        b.mem(pc, InsnClass::IntAlu, data + std::uint64_t{i} * 64, 8, false, reg_gpr(6), reg_gpr(0));
        pc += 4;
        b.mem(pc, InsnClass::IntAlu, data + 0x4000000 + std::uint64_t{i} * 64, 8, true, reg_gpr(0));
        pc += 4;
        b.mem(pc, InsnClass::IntAlu, data + 0x8000000 + (b.random() % 4096) * 4096, 8, false, reg_gpr(6),
              reg_gpr(3));
        pc += 4;
        if (i % 64 == 0) {  // far code: a new page of instructions
            const std::uint64_t far = 0x500000 + (i / 64 % 200) * 4096;
            b.branch(pc, InsnClass::DirectJump, far, true);
            for (unsigned k = 0; k < 5; ++k) b.op(far + k * 3, InsnClass::IntAlu, reg_gpr(k), reg_gpr(k));
            b.branch(far + 15, InsnClass::DirectJump, pc + 2, true);
        }
        pc += 2;
        b.op(pc, InsnClass::IntAlu, reg_gpr(1), reg_gpr(1) | kRegFlags);
        b.branch(pc + 3, InsnClass::CondBranch, code, i + 1 != lines);
    }
}

// --- The corpus ---------------------------------------------------------------------------------------------------

// Two instruction streams interleaved in chunks of pseudo-random length (the driver's order, for both tiers).
inline std::vector<Instruction> interleave(const std::vector<Instruction>& a, const std::vector<Instruction>& b,
                                           std::uint64_t seed) {
    std::vector<Instruction> v;
    std::size_t i = 0, j = 0;
    CorpusBuilder rng(0, seed);
    while (i < a.size() || j < b.size()) {
        const std::size_t n = 1 + rng.random() % 40;
        for (std::size_t k = 0; k < n && i < a.size(); ++k) v.push_back(a[i++]);
        const std::size_t m = 1 + rng.random() % 40;
        for (std::size_t k = 0; k < m && j < b.size(); ++k) v.push_back(b[j++]);
    }
    return v;
}

inline std::vector<CorpusTrace> tier_corpus() {
    std::vector<CorpusTrace> corpus;
    auto add = [&](const std::string& name, const EmulatedMachine& machine, auto fill) {
        CorpusTrace t;
        t.name = name;
        t.machine = machine;
        CorpusBuilder b;
        fill(b);
        t.insns = std::move(b.out());
        corpus.push_back(std::move(t));
    };
    add("loops", EmulatedMachine{}, [](CorpusBuilder& b) { loops_kernel(b, 60); });
    add("microcode", EmulatedMachine{}, [](CorpusBuilder& b) { microcode_kernel(b, 40); });
    add("split_smc", EmulatedMachine{}, [](CorpusBuilder& b) { split_and_smc_kernel(b, 200); });
    add("memory", EmulatedMachine{}, [](CorpusBuilder& b) { memory_kernel(b, 20000); });
    add("memory_l3", EmulatedMachine{}.with_l3(), [](CorpusBuilder& b) { memory_kernel(b, 20000); });
    add("everything_prescott", EmulatedMachine{}.with_model(3), [](CorpusBuilder& b) {
        loops_kernel(b, 20);
        microcode_kernel(b, 12);
        split_and_smc_kernel(b, 40);
        memory_kernel(b, 3000);
    });
    {
        // Two threads of two processes on the two logical processors.
        CorpusBuilder t0(0), t1(1, 77);
        loops_kernel(t0, 30);
        split_and_smc_kernel(t0, 50);
        microcode_kernel(t1, 20, 0x402000, 0x11000000);
        memory_kernel(t1, 4000);
        CorpusTrace t;
        t.name = "two_threads";
        t.machine.hyper_threading = true;
        t.insns = interleave(t0.out(), t1.out(), 99);
        corpus.push_back(std::move(t));
    }
    return corpus;
}

}  // namespace netburst::emu::test
