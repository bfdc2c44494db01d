// The x87 stack and MMX registers in the core: the front end names stack registers from TOP (instruction.h), and
// the core keeps TOP and maps them onto physical registers. These check the mechanism (independent stack registers
// are independent, pushes and pops move what st(i) means, fxch renames, mmN is the physical register N); the
// figures themselves are the fidelity suite's (tests/fidelity, doc/fidelity.md).
#include <gtest/gtest.h>

#include <vector>

#include "tests/core/core_test_util.h"

namespace netburst::emu::test {
namespace {

Instruction x87(std::uint64_t pc, RegMask reads, RegMask writes) {
    return of_class(pc, InsnClass::X87Arith, reads, writes);
}

// Cycles of `body` repeated `rounds` times, after a warm-up round (the trace cache then delivers).
Cycle cycles_of(const std::vector<Instruction>& body, unsigned rounds) {
    Harness h;
    for (unsigned r = 0; r < rounds + 1; ++r) h.run_all(body);
    EXPECT_TRUE(h.ok()) << h.problem();
    return h.totals().last_retire;
}

TEST(X87Stack, IndependentStackRegistersAreIndependentChains) {
    // fadd st(i), st for i = 1..7: seven chains; against fadd st, st(1) fourteen times: one chain.
    std::vector<Instruction> independent, chain;
    for (unsigned k = 0; k < 14; ++k) {
        const unsigned i = 1 + k % 7;
        independent.push_back(x87(0x1000 + 2 * k, reg_st(0) | reg_st(i), reg_st(i)));
        chain.push_back(x87(0x1000 + 2 * k, reg_st(0) | reg_st(1), reg_st(0)));
    }
    const Cycle par = cycles_of(independent, 20), ser = cycles_of(chain, 20);
    // The chain runs at fadd's latency (5 on model 2) per instruction, the seven chains at about one per cycle.
    EXPECT_GT(ser, 2 * par) << "independent " << par << ", chain " << ser;
}

// Forty dependent fadds on a stack register: a chain of 200 cycles or more (fadd's latency is 5 on model 2). A
// second chain overlaps the first only as far as the general uop queue and the 12-entry FP scheduler hold its uops
// behind the first one's (doc/emulator-model.md, "Uop queues and schedulers"): about 50 cycles of the 200, where
// continuing the first chain overlaps nothing.
void chain_on(std::vector<Instruction>* seq, std::uint64_t pc, unsigned st) {
    for (unsigned k = 0; k < 40; ++k) seq->push_back(x87(pc + 4 * k, reg_st(0) | reg_st(st), reg_st(st)));
}

// The cycles `seq` takes once its code is warm: it runs first without registers (filling the caches and the trace
// cache without touching the scoreboard or TOP), then as it is.
Cycle warm_cycles(const std::vector<Instruction>& seq) {
    Harness h;
    for (Instruction i : seq) {
        i.reads = i.writes = 0;
        h.run(i);
    }
    const Cycle start = h.totals().last_retire;
    h.run_all(seq);
    EXPECT_TRUE(h.ok()) << h.problem();
    return h.totals().last_retire - start;
}

TEST(X87Stack, PushesAndPopsMoveWhatStackRegistersName) {
    // A chain into st(0), then a push: the old st(0) is now st(1). A second chain on st(1) continues the first one
    // (the two run one after the other); a second chain on st(2), a register nobody wrote, overlaps it.
    auto run = [](unsigned second) {
        std::vector<Instruction> seq;
        chain_on(&seq, 0x2000, 0);
        seq.push_back(x87(0x2100, 0, reg_st(7) | kX87Push));  // fld: the new st(0)
        chain_on(&seq, 0x2200, second);
        return warm_cycles(seq);
    };
    EXPECT_GT(run(1), run(2) + 40) << run(1) << " against " << run(2);

    // A pop undoes the push: after fld and fstp, st(0) is the first chain's register again.
    auto run_pop = [](bool pop) {
        std::vector<Instruction> seq;
        chain_on(&seq, 0x3000, 0);
        seq.push_back(x87(0x3100, 0, reg_st(7) | kX87Push));
        seq.push_back(of_class(0x3104, InsnClass::X87Move, reg_st(0), pop ? kX87Pop : 0));
        chain_on(&seq, 0x3200, 0);
        return warm_cycles(seq);
    };
    EXPECT_GT(run_pop(true), run_pop(false) + 40) << run_pop(true) << " against " << run_pop(false);
}

TEST(X87Stack, FxchRenamesWithoutLatency) {
    // A chain through st(0) and st(1) alternately via fxch costs the chain's latency only: the same cycles as the
    // chain on st(0) alone, within the fxch uops' issue slots.
    std::vector<Instruction> with_fxch, plain;
    for (unsigned k = 0; k < 16; ++k) {
        with_fxch.push_back(x87(0x4000 + 4 * k, reg_st(0), reg_st(0)));
        with_fxch.push_back(of_class(0x4002 + 4 * k, InsnClass::X87Move, 0, reg_st(0) | reg_st(1) | kX87Exchange));
        plain.push_back(x87(0x4000 + 4 * k, reg_st(0), reg_st(0)));
        plain.push_back(of_class(0x4002 + 4 * k, InsnClass::X87Move, 0, 0));
    }
    const Cycle a = cycles_of(with_fxch, 10), b = cycles_of(plain, 10);
    // With fxch, consecutive fadds work on two different registers: two chains, about half the cycles.
    EXPECT_LT(a * 10, b * 7) << "with fxch " << a << ", without " << b;

    // fxch st(1) twice is the identity: the chain stays one chain.
    std::vector<Instruction> twice;
    for (unsigned k = 0; k < 16; ++k) {
        twice.push_back(x87(0x5000 + 6 * k, reg_st(0), reg_st(0)));
        twice.push_back(of_class(0x5002 + 6 * k, InsnClass::X87Move, 0, reg_st(0) | reg_st(1) | kX87Exchange));
        twice.push_back(of_class(0x5004 + 6 * k, InsnClass::X87Move, 0, reg_st(0) | reg_st(1) | kX87Exchange));
    }
    EXPECT_GE(cycles_of(twice, 10) * 10, b * 9);
}

TEST(X87Stack, MmxRegistersAreThePhysicalRegisters) {
    // Forty dependent pmullw (latency 6) on mm1, then forty on mm1 again or on mm2: the same register continues the
    // chain, another one overlaps it.
    auto pmul = [](std::uint64_t pc, unsigned mm) {
        Instruction i = of_class(pc, InsnClass::Mmx64, reg_mm(0) | reg_mm(mm), reg_mm(mm));
        i.form = InsnForm::PmulMmx;
        return i;
    };
    auto run = [&](unsigned second) {
        std::vector<Instruction> seq;
        for (unsigned k = 0; k < 40; ++k) seq.push_back(pmul(0x6000 + 4 * k, 1));
        for (unsigned k = 0; k < 40; ++k) seq.push_back(pmul(0x6100 + 4 * k, second));
        return warm_cycles(seq);
    };
    EXPECT_GT(run(1), run(2) + 40) << run(1) << " against " << run(2);

    // mm1 is the physical register R1, which is st(1) when TOP is 0: an x87 chain on st(1) after the MMX chain on
    // mm1 waits for it (MMX code sets TOP to 0).
    auto mixed = [&](unsigned st) {
        std::vector<Instruction> seq;
        for (unsigned k = 0; k < 40; ++k) seq.push_back(pmul(0x7000 + 4 * k, 1));
        chain_on(&seq, 0x7100, st);
        return warm_cycles(seq);
    };
    EXPECT_GT(mixed(1), mixed(2) + 40) << mixed(1) << " against " << mixed(2);
}

}  // namespace
}  // namespace netburst::emu::test
