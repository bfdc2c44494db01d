// Core model speed: nanoseconds per instruction on synthetic instruction mixes (the Valgrind tool's
// budget: roughly 10 ns per instruction on typical code). Run with `make bench`; the figures are printed, not
// asserted, because machines are noisy. The "ns_per_insn" counter is the figure to report.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "emulator/core/core.h"

using namespace netburst::emu;

namespace {

// A deterministic pseudo-random sequence (xorshift), so that every run sees the same trace.
struct Rng {
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    std::uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
};

Instruction make(std::uint64_t pc, InsnClass cls, RegMask reads, RegMask writes) {
    Instruction i;
    i.pc = pc;
    i.length = 3;
    i.cls = cls;
    i.reads = reads;
    i.writes = writes;
    return i;
}

// Typical compiled loop code: integer work, loads and stores on arrays that fit the L1 or stream through it, a
// well-predicted loop branch, a data-dependent branch that goes one way 90 % of the time, and some scalar SSE and
// x87 arithmetic. About 30 % of instructions touch memory and 15 % are branches.
std::vector<Instruction> typical_mix(std::size_t n) {
    std::vector<Instruction> v;
    v.reserve(n + 32);
    Rng rng;
    const std::uint64_t body = 0x401000;
    const std::uint64_t array = 0x10000000, stream = 0x20000000, stack = 0x7fff0000;
    std::uint64_t i = 0;
    while (v.size() < n) {
        std::uint64_t pc = body;
        auto add = [&](Instruction insn) {
            insn.pc = pc;
            pc += insn.length;
            v.push_back(insn);
        };
        const std::uint64_t idx = i & 511;  // 4 KB of 8-byte elements: L1 resident
        Instruction l = make(0, InsnClass::IntAlu, reg_gpr(6) | reg_gpr(1), reg_gpr(0));
        l.num_mem = 1;
        l.mem[0] = MemOperand{array + idx * 8, 8, false};
        add(l);                                                                        // mov rax, [rsi+rcx*8]
        add(make(0, InsnClass::IntAlu, reg_gpr(0) | reg_gpr(2), reg_gpr(2) | kRegFlags));  // add rdx, rax
        Instruction s = make(0, InsnClass::IntAlu, reg_gpr(2) | reg_gpr(7), 0);
        s.num_mem = 1;
        s.mem[0] = MemOperand{stream + (i * 8 & 0xFFFFF), 8, true};                     // streaming store, 1 MB
        add(s);
        Instruction ld = make(0, InsnClass::SseScalarDp, reg_xmm(0) | reg_gpr(6), reg_xmm(0));
        ld.num_mem = 1;
        ld.mem[0] = MemOperand{array + 4096 + idx * 8, 8, false};
        add(ld);                                                                       // addsd xmm0, [...]
        add(make(0, InsnClass::SseScalarDp, reg_xmm(1) | reg_xmm(0), reg_xmm(1)));     // mulsd xmm1, xmm0
        add(make(0, InsnClass::IntShift, reg_gpr(3), reg_gpr(3) | kRegFlags));         // shl rbx, 1
        Instruction br = make(0, InsnClass::CondBranch, kRegFlags, 0);
        br.length = 2;
        br.taken = rng.next() % 10 == 0;
        br.target = pc + 2 + 6;
        add(br);                                                                       // jcc (90 % not taken)
        if (br.taken) pc += 6;
        Instruction spill = make(0, InsnClass::IntAlu, reg_gpr(4), reg_gpr(3));
        spill.num_mem = 1;
        spill.mem[0] = MemOperand{stack - 16, 8, false};
        add(spill);                                                                    // mov rbx, [rsp-16]
        add(make(0, InsnClass::X87Arith, kRegX87, kRegX87));                           // fadd
        add(make(0, InsnClass::IntAlu, reg_gpr(1), reg_gpr(1) | kRegFlags));           // inc rcx
        Instruction loop = make(0, InsnClass::CondBranch, kRegFlags, 0);
        loop.length = 2;
        loop.taken = (i % 1000) != 999;
        loop.target = body;
        add(loop);                                                                     // jne body
        ++i;
    }
    v.resize(n);
    return v;
}

// examples/matmul.c's inner loop at N = 200, as gcc -O2 compiles it: a row of a read in order, a column of b read
// 1600 bytes per step (every load of b misses the L1 and hits the L2) and the running sum in one register, a
// chain of dependent adds. The stand-in for the Valgrind benchmark's matmul, without Valgrind.
std::vector<Instruction> matmul_column(std::size_t n) {
    constexpr std::uint64_t kN = 200, kRow = kN * 8;
    const std::uint64_t a = 0x600000, b = 0x800000, body = 0x401160;
    std::vector<Instruction> v;
    v.reserve(n + 16);
    for (std::uint64_t col = 0; v.size() < n; ++col) {
        const std::uint64_t i = col / kN % kN, j = col % kN;
        for (std::uint64_t k = 0; k < kN; ++k) {
            std::uint64_t pc = body;
            auto add = [&](Instruction insn, std::uint8_t length) {
                insn.pc = pc;
                insn.length = length;
                pc += length;
                v.push_back(insn);
            };
            Instruction ld = make(0, InsnClass::SimdMove, reg_gpr(2), reg_xmm(0));
            ld.num_mem = 1;
            ld.mem[0] = MemOperand{a + i * kRow + k * 8, 8, false};
            add(ld, 4);                                                                      // movsd (%rdx),%xmm0
            Instruction mul = make(0, InsnClass::SseScalarDp, reg_gpr(0) | reg_xmm(0), reg_xmm(0));
            mul.num_mem = 1;
            mul.mem[0] = MemOperand{b + k * kRow + j * 8, 8, false};
            add(mul, 4);                                                                     // mulsd (%rax),%xmm0
            add(make(0, InsnClass::IntAlu, reg_gpr(0), reg_gpr(0) | kRegFlags), 6);          // add $0xc80,%rax
            add(make(0, InsnClass::IntAlu, reg_gpr(2), reg_gpr(2) | kRegFlags), 4);          // add $0x8,%rdx
            add(make(0, InsnClass::SseScalarDp, reg_xmm(0) | reg_xmm(1), reg_xmm(1)), 4);    // addsd %xmm0,%xmm1
            add(make(0, InsnClass::IntAlu, reg_gpr(1) | reg_gpr(0), kRegFlags), 3);          // cmp %rcx,%rax
            Instruction br = make(0, InsnClass::CondBranch, kRegFlags, 0);
            br.taken = k + 1 < kN;
            br.target = body;
            add(br, 2);                                                                      // jne
        }
    }
    v.resize(n);
    return v;
}

// Pointer-free integer code that misses nothing: the best case.
std::vector<Instruction> alu_only(std::size_t n) {
    std::vector<Instruction> v;
    v.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned r = static_cast<unsigned>(i % 8);
        Instruction insn = make(0x401000 + (i % 64) * 3, InsnClass::IntAlu, reg_gpr(r), reg_gpr(r) | kRegFlags);
        if (i % 64 == 63) {
            insn.cls = InsnClass::CondBranch;
            insn.taken = true;
            insn.target = 0x401000;
            insn.reads = kRegFlags;
        }
        v.push_back(insn);
    }
    return v;
}

void run(benchmark::State& state, const std::vector<Instruction>& trace, bool ht) {
    std::unique_ptr<Core> core(new Core);
    core->reset(make_core_config(EmulatedMachine{}.with_ht(ht)));
    Outcome out;
    if (ht) core->stop_thread(1, &out);  // one trace: logical processor 1 has nothing to run
    std::uint64_t executed = 0;
    for (auto _ : state) {
        for (const Instruction& insn : trace) core->execute(insn, &out);
        benchmark::DoNotOptimize(out.num_uops);
        executed += trace.size();
    }
    // kIsRate | kInvert turns the value into seconds per unit; counting units of 1e-9 instructions gives ns.
    state.counters["ns_per_insn"] = benchmark::Counter(static_cast<double>(executed) / 1e9,
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_CoreTypicalMix(benchmark::State& state) {
    static const std::vector<Instruction> trace = typical_mix(1 << 20);
    run(state, trace, false);
}
BENCHMARK(BM_CoreTypicalMix)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_CoreAluOnly(benchmark::State& state) {
    static const std::vector<Instruction> trace = alu_only(1 << 20);
    run(state, trace, false);
}
BENCHMARK(BM_CoreAluOnly)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_CoreTypicalMixHtConfig(benchmark::State& state) {
    static const std::vector<Instruction> trace = typical_mix(1 << 20);
    run(state, trace, true);
}
BENCHMARK(BM_CoreTypicalMixHtConfig)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_CoreMatmulColumn(benchmark::State& state) {
    static const std::vector<Instruction> trace = matmul_column(1 << 20);
    run(state, trace, false);
}
BENCHMARK(BM_CoreMatmulColumn)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace
BENCHMARK_MAIN();
