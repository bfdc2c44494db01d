// The pipeline: wrong-path uops, the store-buffer stall, store forwarding and MOB replays, split accesses, 64K
// aliasing, microcode flows, the trace cache's modes, self-modifying code, the frontier and the Outcome's capacity.
#include <gtest/gtest.h>

#include "tests/core/core_test_util.h"

namespace netburst::emu::test {
namespace {

// A loop whose inner branch is random: many mispredictions, hence many wrong-path uops.
std::vector<Instruction> branchy(unsigned n, unsigned thread = 0) {
    std::vector<Instruction> v;
    std::uint64_t x = 99;
    for (unsigned i = 0; i < n; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const bool taken = (x >> 33) & 1;
        v.push_back(load(0x401000, 0x10000000 + (i % 256) * 8, 8, reg_gpr(6), reg_gpr(0), thread));
        Instruction fadd = of_class(0x401003, InsnClass::SseScalarDp, reg_xmm(0) | reg_xmm(1), reg_xmm(0), thread);
        v.push_back(fadd);
        v.push_back(alu(0x401007, reg_gpr(0), kRegFlags, thread));
        v.push_back(branch(0x40100A, 0x401020, taken, InsnClass::CondBranch, thread));
        if (!taken) v.push_back(alu(0x40100C, reg_gpr(2), reg_gpr(2) | kRegFlags, thread));
        v.push_back(alu(0x401020, reg_gpr(6), reg_gpr(6) | kRegFlags, thread));
        v.push_back(branch(0x401023, 0x401000, true, InsnClass::CondBranch, thread));
    }
    return v;
}

TEST(CorePipeline, WrongPathUopsAreAlwaysBogus) {
    Harness h;
    const auto trace = branchy(2000);
    h.run_all(trace);
    EXPECT_TRUE(h.ok()) << h.problem();
    const Totals& t = h.totals();
    const Core::Stats s = h.core().stats(0);
    EXPECT_GT(h.core().detail(0).mispredicts, 500u);
    EXPECT_GT(t.bogus_uops, 0u);
    EXPECT_EQ(t.bogus_uops, s.bogus_uops);
    // Non-bogus records are exactly the correct path: one instruction per input, the decomposition's uops.
    EXPECT_EQ(t.instructions, trace.size());
    EXPECT_EQ(t.uops, s.uops_retired);
    EXPECT_EQ(s.instructions, trace.size());
    // Wrong-path uops never carry replay causes, and they group into instructions.
    EXPECT_EQ(t.bogus_with_causes, 0u);
    EXPECT_GT(t.bogus_instructions, 0u);
    EXPECT_GT(t.bogus_exec_events, 0u);  // some wrong-path SSE uops executed before the branch resolved
}

TEST(CorePipeline, WrongPathIsBoundedByResolutionTime) {
    Harness h;
    // A branch that depends on a load missing all caches resolves late: the wrong path fills the ROB (capped by
    // the Outcome); a branch on a register resolves after about the pipeline depth.
    h.run(alu(0x401000, 0, reg_gpr(3) | kRegFlags));
    h.run(branch(0x401003, 0x401100, true));  // forward taken, unknown: mispredicted
    const std::uint64_t quick = h.totals().bogus_uops;
    EXPECT_GT(quick, 20u);
    EXPECT_LT(quick, 100u);
    h.run(load(0x401100, 0x70000000, 4, 0, reg_gpr(0)));
    h.run(alu(0x401104, reg_gpr(0), kRegFlags));
    h.run(branch(0x401107, 0x401200, true));
    const std::uint64_t slow = h.totals().bogus_uops - quick;
    EXPECT_GT(slow, quick);
    EXPECT_TRUE(h.ok()) << h.problem();
}

TEST(CorePipeline, StoreBufferFullStallsAllocation) {
    Harness h;
    // Stores to new lines miss the L2; the write-combining buffers fill, then the store buffer.
    for (unsigned i = 0; i < 400; ++i) {
        h.run(store(0x401000, 0x20000000 + std::uint64_t{i} * 128, 8, reg_gpr(0)));
        h.run(alu(0x401004, reg_gpr(6), reg_gpr(6) | kRegFlags));
    }
    EXPECT_TRUE(h.ok()) << h.problem();
    EXPECT_GT(h.totals().count(EventId::ResourceStall, 5), 1000u);  // SBFULL cycles
    EXPECT_GT(h.core().detail(0).sb_stall_cycles, 1000u);
    // Stores to one (warm) line, one every six uops: even with the ROB full they need fewer than 24 entries, and
    // they drain as fast as they come (they combine on their way to the L2).
    Harness g;
    g.run(load(0x400F00, 0x20000000, 8, 0, reg_gpr(3)));
    for (unsigned i = 0; i < 400; ++i) {
        g.run(store(0x401000, 0x20000000 + (i % 8) * 8, 8, reg_gpr(0)));
        for (unsigned k = 0; k < 4; ++k) g.run(alu(0x401004 + k * 3, reg_gpr(6 + k % 2), reg_gpr(6 + k % 2)));
    }
    EXPECT_EQ(g.totals().count(EventId::ResourceStall, 5), 0u);
}

TEST(CorePipeline, StoreForwardingAndMobReplays) {
    Harness h;
    const std::uint64_t a = 0x30000000;
    h.run(load(0x400F00, a, 8, 0, reg_gpr(5)));  // bring the line in
    // Forwarding: same start, smaller load.
    h.run(store(0x401000, a, 8, reg_gpr(0)));
    h.run(load(0x401004, a, 4, 0, reg_gpr(1)));
    const Totals& t = h.totals();
    EXPECT_EQ(t.causes[cause_index(kReplayMob)], 0u);
    // PARTIAL_DATA: a larger load than the store.
    h.run(store(0x401008, a + 64, 4, reg_gpr(0)));
    h.run(load(0x40100C, a + 64, 8, 0, reg_gpr(1)));
    EXPECT_EQ(t.count(EventId::MobLoadReplay, 4), 1u);
    EXPECT_EQ(t.mob_bits[4], 1u);
    // UNALGN_ADDR: overlapping at a different alignment within 4 bytes.
    h.run(store(0x401010, a + 128, 8, reg_gpr(0)));
    h.run(load(0x401014, a + 129, 4, 0, reg_gpr(1)));
    EXPECT_EQ(t.count(EventId::MobLoadReplay, 5), 1u);
    EXPECT_EQ(t.mob_bits[5], 1u);
    // NO_STD: an SSE store whose data comes from a slow divide (its address is ready at once).
    h.run(of_class(0x401018, InsnClass::SseDivDp, reg_xmm(2), reg_xmm(2)));
    Instruction movsd = store(0x40101C, a + 192, 8, reg_xmm(2) | reg_gpr(6));
    movsd.cls = InsnClass::SimdMove;
    h.run(movsd);
    h.run(load(0x401020, a + 192, 8, 0, reg_gpr(1)));
    EXPECT_EQ(t.count(EventId::MobLoadReplay, 3), 1u);
    // NO_STA: the store's address comes from the divide.
    h.run(of_class(0x401024, InsnClass::IntDiv, reg_gpr(7), reg_gpr(7)));
    h.run(store(0x401028, a + 256, 8, reg_gpr(7)));
    h.run(load(0x40102C, a + 320, 8, 0, reg_gpr(1)));
    EXPECT_EQ(t.count(EventId::MobLoadReplay, 1), 1u);
    EXPECT_EQ(t.causes[cause_index(kReplayMob)], 4u);
    EXPECT_TRUE(h.ok()) << h.problem();
}

// A store's address is formed from its base and index registers only, where the front end names them: a store of
// a slow result (rax from a divide) to [rdi] has its address at once, and a younger load to another address is not
// held for it (no NO_STA). Without the address registers, every general register read forms the address.
TEST(CorePipeline, AStoreAddressWaitsOnlyForItsAddressRegisters) {
    for (const bool named : {true, false}) {
        Harness h(EmulatedMachine{}.with_model(4));
        const std::uint64_t a = 0x30000000;
        h.run(load(0x400F00, a + 64, 8, 0, reg_gpr(5)));  // bring the load's line in
        h.run(of_class(0x401000, InsnClass::IntDiv, reg_gpr(0), reg_gpr(0)));
        Instruction st = store(0x401004, a, 8, reg_gpr(0) | reg_gpr(7));
        if (named) st.address = reg_gpr(7);
        h.run(st);
        h.run(load(0x401008, a + 64, 8, reg_gpr(6), reg_gpr(1)));
        EXPECT_EQ(h.totals().count(EventId::MobLoadReplay, 1), named ? 0u : 1u) << (named ? "named" : "not named");
        EXPECT_TRUE(h.ok()) << h.problem();
    }
}

// Cycles per loop iteration of `body` (instructions at consecutive addresses, then a taken branch back), in the
// steady state after a warm-up.
double cycles_per_iteration(Harness& h, const std::vector<Instruction>& body, unsigned iterations = 400) {
    Cycle start = 0;
    for (unsigned i = 0; i < iterations; ++i) {
        if (i == iterations / 4) start = h.totals().last_retire;
        h.run_all(body);
        h.run(branch(0x402000, 0x401000, true));
    }
    return static_cast<double>(h.totals().last_retire - start) / (iterations - iterations / 4);
}

// adc on independent carries overlaps: three accumulators, each `add` then `adc $0` into its own register (GMP's
// pentium4 mod_34lsub1), take one adc latency per iteration (10 on Prescott), not three. A chain through CF takes
// the full latency per copy (the per-form suite's adc_r32).
TEST(CorePipeline, AdcOnIndependentCarriesOverlaps) {
    Harness h(EmulatedMachine{}.with_model(4));
    std::vector<Instruction> body;
    for (unsigned k = 0; k < 3; ++k) {
        body.push_back(alu(0x401000 + 8 * k, reg_gpr(k), reg_gpr(k) | kRegFlags));
        Instruction adc = alu(0x401004 + 8 * k, reg_gpr(8 + k) | kRegFlags, reg_gpr(8 + k) | kRegFlags);
        adc.form = InsnForm::AdcSbb;
        body.push_back(adc);
    }
    const double c = cycles_per_iteration(h, body);
    EXPECT_GT(c, 9.5);
    EXPECT_LT(c, 12.0);
    EXPECT_TRUE(h.ok()) << h.problem();
}

// A uop whose immediate is wider than a trace-cache slot holds takes two delivery slots (CoreConfig::tc_imm_bits;
// [IL] #67/#68 ADD r32, 0x8000 / 0x10000: Northwood 0.68 / 0.68, Prescott 0.39 / 0.69 cycles). Twelve adds on
// independent registers: four cycles an iteration with narrow immediates, about eight with wide ones; 17 bits
// are wide on Northwood only.
TEST(CorePipeline, WideImmediateTakesTwoDeliverySlots) {
    const auto run = [](unsigned model, std::uint8_t imm_bits) {
        Harness h(EmulatedMachine{}.with_model(model));
        std::vector<Instruction> body;
        for (unsigned k = 0; k < 12; ++k) {
            const unsigned r = k < 4 ? k : k + 1;  // not rsp
            Instruction a = alu(0x401000 + 6 * k, reg_gpr(r), reg_gpr(r) | kRegFlags);
            a.imm_bits = imm_bits;
            body.push_back(a);
        }
        const double c = cycles_per_iteration(h, body);
        EXPECT_TRUE(h.ok()) << h.problem();
        return c;
    };
    EXPECT_LT(run(4, 16), 5.0);
    EXPECT_LT(run(4, 17), 5.0);
    EXPECT_GT(run(4, 18), 7.5);
    EXPECT_LT(run(2, 16), 5.0);
    EXPECT_GT(run(2, 17), 7.5);
}

// Prescott's delivery: 8 uops every 3 cycles (Agner Fog, microarchitecture manual, 5.2 "Trace cache delivery
// rate"), Northwood's 3 a cycle. 23 independent single-uop instructions and the loop branch: 24 uops, 9 cycles an
// iteration on model 4 and 8 on model 2.
TEST(CorePipeline, PrescottDeliversEightUopsInThreeCycles) {
    const auto run = [](unsigned model) {
        Harness h(EmulatedMachine{}.with_model(model));
        std::vector<Instruction> body;
        for (unsigned k = 0; k < 23; ++k) {
            const unsigned r = (k % 12) < 4 ? k % 12 : k % 12 + 1;  // not rsp
            body.push_back(alu(0x401000 + 3 * k, reg_gpr(r), reg_gpr(r)));
        }
        const double c = cycles_per_iteration(h, body);
        EXPECT_TRUE(h.ok()) << h.problem();
        return c;
    };
    EXPECT_NEAR(run(4), 9.0, 0.2);
    EXPECT_NEAR(run(2), 8.0, 0.2);
}

// Prescott's 64-bit right shifts (X64 #236, #240): shr r64 by a constant issues one per cycle, not at the
// double-speed ALUs' rate, so 16 on independent registers take 16 cycles an iteration (shl r64, #224, takes
// about 6: allocation's three a cycle). shr r64 by cl keeps the flags it may not write: four on independent
// registers chain through them, 8 cycles each (GMP's x86_64 lshift and rshift, 8 c/l on Nocona).
TEST(CorePipeline, Prescott64BitRightShifts) {
    const auto shift = [](std::uint64_t pc, unsigned r, InsnForm form, RegMask extra) {
        Instruction i = alu(pc, reg_gpr(r) | extra, reg_gpr(r) | kRegFlags);
        i.cls = InsnClass::IntShift;
        i.form = form;
        return i;
    };
    std::vector<Instruction> by_imm, shl_imm, by_cl;
    for (unsigned k = 0; k < 16; ++k) {
        by_imm.push_back(shift(0x401000 + 4 * k, 2 + k % 14, InsnForm::Shr64, 0));
        shl_imm.push_back(shift(0x401000 + 4 * k, 2 + k % 14, InsnForm::ShiftImm, 0));
    }
    for (unsigned k = 0; k < 4; ++k)
        by_cl.push_back(shift(0x401000 + 4 * k, 2 + k, InsnForm::ShiftCl64, reg_gpr(1) | kRegFlags));
    Harness a(EmulatedMachine{}.with_model(4)), b(EmulatedMachine{}.with_model(4)), c(EmulatedMachine{}.with_model(4));
    const double imm = cycles_per_iteration(a, by_imm), shl = cycles_per_iteration(b, shl_imm);
    const double cl = cycles_per_iteration(c, by_cl);
    EXPECT_GT(imm, 15.5);
    EXPECT_LT(imm, 17.5);
    EXPECT_LT(shl, 8.0);
    EXPECT_GT(cl, 31.5);
    EXPECT_LT(cl, 33.5);
    EXPECT_TRUE(a.ok() && b.ok() && c.ok());
}

// The uop queues and schedulers bound how far allocation runs ahead of dispatch: a loop whose iterations are
// independent but each one long chain (GMP's generic popcount and hamdist) overlaps only as many chains as the
// general queue and the fast-ALU schedulers hold (32 + 2 x 12 uops), not as many as the ROB (126). Independent
// uops still go at the allocation rate.
std::vector<Instruction> chains(bool dependent) {
    std::vector<Instruction> body;
    body.push_back(alu(0x401000, reg_gpr(3), reg_gpr(2) | kRegFlags));  // starts the iteration's chain from r3
    for (unsigned k = 1; k < 40; ++k) {
        const unsigned r = dependent ? 2 : 4 + k % 8;
        body.push_back(alu(0x401000 + 4 * k, reg_gpr(r), reg_gpr(r) | kRegFlags));
    }
    body.push_back(alu(0x4010A0, reg_gpr(2) | reg_gpr(10), reg_gpr(10) | kRegFlags));  // the accumulator
    return body;
}

TEST(CorePipeline, SchedulerCapacityBoundsChainOverlap) {
    const CoreConfig on = make_core_config(EmulatedMachine{}.with_model(4));
    CoreConfig off = on, small = on;
    off.mem_queue_entries = off.gen_queue_entries = 0;
    small.sched_entries = 4;
    Harness a(on), b(off), c(on), d(small);
    // 42 uops an iteration, 40 of them one chain of 1-cycle uops. With the ROB as the only bound three chains
    // overlap: the allocation rate, 14 cycles. With at most 56 uops waiting (the general queue's 32, the fast-ALU
    // pool's 24), a chain waits for the one before to be about half done: about 20 cycles; with a pool of 8, more.
    const double bounded = cycles_per_iteration(a, chains(true));
    const double unbounded = cycles_per_iteration(b, chains(true));
    const double independent = cycles_per_iteration(c, chains(false));
    const double smaller = cycles_per_iteration(d, chains(true));
    EXPECT_LT(unbounded, 17.0);
    EXPECT_GT(bounded, 19.0);
    EXPECT_LT(bounded, 24.0);
    EXPECT_GT(smaller, bounded + 2.0);
    EXPECT_LT(independent, 16.0);  // independent uops still go at the allocation rate
    EXPECT_GT(a.core().stats(0).uops_retired, 0u);
    EXPECT_EQ(a.core().stats(0).uops_retired, b.core().stats(0).uops_retired);  // counts do not change
    EXPECT_TRUE(a.ok() && b.ok() && c.ok() && d.ok());
}

Instruction push_rax(std::uint64_t pc, std::uint64_t slot) {
    Instruction i = store(pc, slot, 8, reg_gpr(0) | reg_gpr(4));
    i.writes = reg_gpr(4);
    return i;
}
Instruction pop_rax(std::uint64_t pc, std::uint64_t slot) {
    return load(pc, slot, 8, reg_gpr(4), reg_gpr(0) | reg_gpr(4));
}

// A long run of stores to one warm line leaves the store buffer at the rate InstLatX86 measures for
// MOV [m32], r32 (#30): one every 1.75 cycles on Northwood, 1.83 on Prescott.
TEST(CorePipeline, StoresLeaveTheBufferAtTheMeasuredRate) {
    for (const auto& [model, expected] : {std::pair{2u, 1.75}, std::pair{4u, 11.0 / 6.0}}) {
        Harness h(EmulatedMachine{}.with_model(model));
        h.run(load(0x400F00, 0x20000000, 8, 0, reg_gpr(3)));
        std::vector<Instruction> body;
        for (unsigned k = 0; k < 16; ++k)
            body.push_back(store(0x401000 + 2 * k, 0x20000040, 4, reg_gpr(0) | reg_gpr(6)));
        EXPECT_NEAR(cycles_per_iteration(h, body) / 16, expected, 0.05) << model;
        EXPECT_GT(h.totals().count(EventId::ResourceStall, 5), 0u) << model;  // SBFULL: the buffer is the limit
        EXPECT_TRUE(h.ok()) << h.problem();
    }
}

// GMP's and_n loop (x86_64/logops_n.asm), four limbs an iteration: mov (up,i,8), r; and (vp,i,8), r;
// mov r, (rp,i,8). A store's address uop reads the base and index only, not the register it stores: with the
// address registers given, the next iteration's loads need not wait for the last store's data (there is no
// memory disambiguation: a load waits for every older store address, NO_STA), and the loop runs at the load
// port's two loads a limb. Taking every register a store reads as an address register chains each iteration's
// loads to the last one's results: load 4 + and 1 + store address, 5.5 cycles a limb on Prescott.
TEST(CorePipeline, LogicLoopRunsAtTheLoadPortWithAddressRegistersNamed) {
    auto per_limb = [](bool address_known) {
        Harness h(EmulatedMachine{}.with_model(4));
        const RegMask rcx = reg_gpr(1), rdx = reg_gpr(2), rsi = reg_gpr(6), rdi = reg_gpr(7);
        double total = 0;
        std::vector<Instruction> body;
        for (unsigned k = 0; k < 4; ++k) {
            const RegMask r = reg_gpr(8 + k % 2);
            Instruction ld = load(0x401000 + 16 * k, 0x20000000 + 8 * k, 8, rdx | rcx, r);
            Instruction op = load(0x401004 + 16 * k, 0x20001440 + 8 * k, 8, rsi | rcx | r, r | kRegFlags);
            op.form = InsnForm::Logic;
            Instruction st = store(0x401008 + 16 * k, 0x20002880 + 8 * k, 8, r | rdi | rcx);
            if (address_known) {  // 0: not known, and every general register read counts
                ld.address = rdx | rcx;
                op.address = rsi | rcx;
                st.address = rdi | rcx;
            }
            body.push_back(ld);
            body.push_back(op);
            body.push_back(st);
        }
        total = cycles_per_iteration(h, body) / 4;
        EXPECT_TRUE(h.ok()) << h.problem();
        return total;
    };
    EXPECT_NEAR(per_limb(true), 2.0, 0.15);
    EXPECT_GT(per_limb(false), 4.0);
}

// Store-to-load forwarding chains: the store data, the forwarding delay, the load's own latency. push + pop
// through rax: 0.5 + 6 + 2 on Northwood (measured 8.1, #488), 1 + 0.5 + 4 on Prescott (5); the stack-pointer
// updates read only the stack pointer, so they are off the chain. An SSE store and load through xmm1: the FP move
// unit's 6 + 6 + 9 (measured 21, #882), 7 + 0.5 + 12 (20).
TEST(CorePipeline, ForwardedChainsTakeStoreDataForwardingAndTheLoad) {
    for (const auto& [model, push_pop, sse] : {std::tuple{2u, 8.5, 21.0}, std::tuple{4u, 5.5, 19.5}}) {
        Harness h(EmulatedMachine{}.with_model(model));
        std::vector<Instruction> body;
        for (unsigned k = 0; k < 8; ++k) {
            body.push_back(push_rax(0x401000 + 4 * k, 0x7fff0000 - 8));
            body.push_back(pop_rax(0x401002 + 4 * k, 0x7fff0000 - 8));
        }
        EXPECT_NEAR(cycles_per_iteration(h, body) / 8, push_pop, 0.1) << model;
        // The loads wait in the MOB: for the store's address (NO_STA: without the address registers, which a
        // trace does not give, the model takes every register a store reads as an address register, rax too)
        // or its data (NO_STD).
        const Totals& t = h.totals();
        EXPECT_GT(t.count(EventId::MobLoadReplay, 1) + t.count(EventId::MobLoadReplay, 3), 0u) << model;
        EXPECT_TRUE(h.ok()) << h.problem();

        Harness g(EmulatedMachine{}.with_model(model));
        body.clear();
        for (unsigned k = 0; k < 8; ++k) {
            Instruction st = store(0x401000 + 8 * k, 0x30000000, 8, reg_xmm(1) | reg_gpr(6));
            st.cls = InsnClass::SimdMove;
            Instruction ld = load(0x401004 + 8 * k, 0x30000000, 8, reg_gpr(6), reg_xmm(1));
            ld.cls = InsnClass::SimdMove;
            body.push_back(st);
            body.push_back(ld);
        }
        EXPECT_NEAR(cycles_per_iteration(g, body) / 8, sse, 0.6) << model;
        EXPECT_TRUE(g.ok()) << g.problem();
    }
}

// movups/movdqu loads hold the load port two cycles (#803, #806: T 2 to 2.4); movaps one.
TEST(CorePipeline, UnalignedSixteenByteLoadsHoldTheLoadPortTwoCycles) {
    for (unsigned model : {2u, 4u}) {
        for (const auto& [form, expected] : {std::pair{InsnForm::UnalignedLoad, 2.0}, std::pair{InsnForm::None, 1.0}}) {
            Harness h(EmulatedMachine{}.with_model(model));
            std::vector<Instruction> body;
            for (unsigned k = 0; k < 16; ++k) {
                Instruction ld = load(0x401000 + 4 * k, 0x30000004, 16, reg_gpr(0), reg_xmm(k));
                ld.cls = InsnClass::SimdMove;
                ld.form = form;
                body.push_back(ld);
            }
            EXPECT_NEAR(cycles_per_iteration(h, body) / 16, expected, 0.1) << model;
        }
    }
}

TEST(CorePipeline, SixtyFourKAliasing) {
    Harness h;
    h.run(load(0x400F00, 0x40000000, 4, 0, reg_gpr(3)));  // warm the pages (DTLB) and the lines
    h.run(load(0x400F04, 0x40010000, 4, 0, reg_gpr(3)));
    h.run(load(0x400F08, 0x40010040, 4, 0, reg_gpr(3)));
    // The second warming load already conflicted in the L1 (its line replaced the first); count from here.
    const std::uint64_t before = h.totals().count(EventId::MemoryCancel, 3);
    EXPECT_EQ(before, 1u);
    h.run(store(0x401000, 0x40000000, 4, reg_gpr(0)));
    h.run(load(0x401004, 0x40010000, 4, 0, reg_gpr(1)));  // 64 KB away from the in-flight store: conflicts
    h.run(load(0x401008, 0x40010040, 4, 0, reg_gpr(1)));  // no conflict
    EXPECT_EQ(h.totals().count(EventId::MemoryCancel, 3) - before, 1u);
}

TEST(CorePipeline, SplitLoadsAndStores) {
    Harness h;
    h.run(load(0x401000, 0x50000000 + 60, 8, 0, reg_gpr(0)));   // crosses a 64-byte line
    h.run(load(0x401004, 0x50000000 + 128, 8, 0, reg_gpr(0)));  // does not
    h.run(store(0x401008, 0x50000000 + 250, 8, reg_gpr(0)));    // crosses
    const Totals& t = h.totals();
    EXPECT_EQ(t.count(EventId::LoadPortReplay, 1), 1u);
    EXPECT_EQ(t.count(EventId::MemoryComplete, 0), 1u);
    EXPECT_EQ(t.count(EventId::StorePortReplay, 1), 1u);
    EXPECT_EQ(t.count(EventId::MemoryComplete, 1), 1u);
    EXPECT_EQ(t.causes[cause_index(kReplaySplit)], 2u);
    EXPECT_EQ(t.mob_bits[1], 2u);  // the SPLIT_LD / SPLIT_ST bit
    EXPECT_TRUE(h.ok()) << h.problem();
}

TEST(CorePipeline, DependentsOfAMissingLoadAreReplayed) {
    // The add depends on a load that misses: it waits for the data (plus the replay loop), not for the hit
    // latency.
    Harness h;
    h.run(load(0x401000, 0x60000000, 4, 0, reg_gpr(0)));
    const Cycle load_retire = h.last().retire;
    h.run(alu(0x401003, reg_gpr(0), reg_gpr(0) | kRegFlags));
    EXPECT_GE(h.last().retire, load_retire);
    Harness g;
    g.run(load(0x401000, 0x60000000, 4, 0, reg_gpr(0)));
    g.run(alu(0x401003, reg_gpr(1), reg_gpr(1) | kRegFlags));  // independent
    EXPECT_LE(g.last().retire, g.totals().last_retire);
}

// ld2's loop and the fidelity suite's load_r64: 16 copies of mov rax, [rax] on a line that points at itself, then
// dec rcx and jnz. `lead` independent ALU uops and whether the line is cached change when the chain starts and how
// late its first load is; none of it may change how fast the chain then runs.
Cycle self_chase_cycles(unsigned model, unsigned lead, bool line_cached, unsigned iterations, unsigned counted) {
    Harness h(EmulatedMachine{}.with_model(model));
    const std::uint64_t line = 0x10c080, loop = 0x109177;
    if (line_cached) h.run(load(0x109100, line, 8, 0, reg_gpr(2)));
    for (unsigned i = 0; i < lead; ++i) h.run(alu(0x109110 + 3 * i, reg_gpr(3), reg_gpr(3) | kRegFlags));
    h.run(alu(0x109174, reg_gpr(2), reg_gpr(0)));  // mov rax, rdx
    Cycle from = 0;
    for (unsigned it = 0; it < iterations; ++it) {
        if (it + counted == iterations) from = h.totals().last_retire;
        for (unsigned k = 0; k < 16; ++k) h.run(load(loop + 3 * k, line, 8, reg_gpr(0), reg_gpr(0)));
        h.run(alu(loop + 48, reg_gpr(1), reg_gpr(1) | kRegFlags));
        h.run(branch(loop + 51, loop, it + 1 != iterations));
    }
    EXPECT_TRUE(h.ok()) << h.problem();
    return h.totals().last_retire - from;
}

TEST(CorePipeline, ChainsOfL1HitsRunAtTheL1LatencyHoweverTheyStart) {
    // The measured L1 load-to-use latency of a pointer chase: 2 cycles on Northwood, 4 on Prescott. A first load
    // that misses sends only the loads in its shadow round the replay loop; the chain then runs at the L1
    // latency, the same for every start.
    for (unsigned model : {2u, 4u}) {
        const Cycle latency = model == 2 ? 2 : 4;
        for (bool cached : {false, true})
            for (unsigned lead = 0; lead < 8; ++lead)
                EXPECT_EQ(self_chase_cycles(model, lead, cached, 400, 300), 300 * 16 * latency)
                    << "model " << model << ", lead " << lead << (cached ? ", line cached" : ", line in memory");
    }
}

// The fidelity suite's sf_fail_size: mov [rsi], eax; mov rax, [rsi] eight times (the load is larger than the store,
// so it waits until the store has written the cache), then dec and jnz. The store's address waits for rax too
// (the input does not say which registers form an address), so each pair waits for the one before.
Cycle failed_forward_cycles(bool base_was_late, unsigned iterations, unsigned counted) {
    Harness h(EmulatedMachine{}.with_model(2));
    const std::uint64_t slot = 0x14810c0, loop = 0x409e30;
    if (base_was_late) h.run(load(0x409e20, 0x7000000, 8, 0, reg_gpr(6)));  // rsi from a load that misses
    else h.run(alu(0x409e20, 0, reg_gpr(6)));                               // rsi from an ALU
    h.run(alu(0x409e2b, 0, reg_gpr(0)));
    Cycle from = 0;
    for (unsigned it = 0; it < iterations; ++it) {
        if (it + counted == iterations) from = h.totals().last_retire;
        for (unsigned k = 0; k < 8; ++k) {
            h.run(store(loop + 5 * k, slot, 4, reg_gpr(0) | reg_gpr(6)));
            h.run(load(loop + 5 * k + 2, slot, 8, reg_gpr(6), reg_gpr(0)));
        }
        h.run(alu(loop + 40, reg_gpr(7), reg_gpr(7) | kRegFlags));
        h.run(branch(loop + 43, loop, it + 1 != iterations));
    }
    EXPECT_TRUE(h.ok()) << h.problem();
    return h.totals().last_retire - from;
}

TEST(CorePipeline, AValueThatCameLateLongAgoDoesNotHoldItsReaders) {
    // The replay system's stop concerns a value that is late when a uop reads it: rsi, late once at the start
    // and long since there, must not make the stores wait for rax as if its lateness were known.
    EXPECT_EQ(failed_forward_cycles(true, 300, 200), failed_forward_cycles(false, 300, 200));
}

TEST(CorePipeline, TraceCacheBuildThenDeliver) {
    Harness h;
    std::vector<Instruction> loop;
    for (unsigned i = 0; i < 20; ++i) loop.push_back(alu(0x401000 + i * 3, reg_gpr(i % 4), reg_gpr(i % 4) | kRegFlags));
    loop.push_back(branch(0x401000 + 60, 0x401000, true));
    for (int rep = 0; rep < 50; ++rep) h.run_all(loop);
    h.stop(0);  // delivers everything still gathered
    const Totals& t = h.totals();
    EXPECT_TRUE(h.ok()) << h.problem();
    EXPECT_EQ(t.count(EventId::UopQueueWrites, 0), 21u);           // the first pass is built
    EXPECT_EQ(t.count(EventId::UopQueueWrites, 1), 21u * 49u);     // the rest delivered
    EXPECT_GT(t.count(EventId::BpuFetchRequest, 0), 0u);
    EXPECT_EQ(t.count(EventId::ItlbReference, 1), 1u);             // one ITLB miss, for the first fetch
    EXPECT_EQ(t.count(EventId::PageWalkType, 1), 1u);              // ITMISS
    EXPECT_TRUE(h.core().tc_holds(0x401000, 0));
    // One logical processor: LP1 counts as idle, so only DI and BI occur.
    EXPECT_GT(t.count(EventId::TcDeliverMode, 2), 0u);  // DI
    EXPECT_GT(t.count(EventId::TcDeliverMode, 5), 0u);  // BI
    for (unsigned bit : {0u, 1u, 3u, 4u, 6u, 7u}) EXPECT_EQ(t.count(EventId::TcDeliverMode, bit), 0u) << bit;
    // Every cycle up to the end is in one of them, and RUNNING covers them all.
    const std::uint64_t running = t.count(EventId::GlobalPowerEvents, 0);
    EXPECT_EQ(running, h.core().stats(0).cycles);
    EXPECT_LE(t.count(EventId::TcDeliverMode, 2) + t.count(EventId::TcDeliverMode, 5), running);
}

TEST(CorePipeline, MicrocodeFlowsAndTheRecordCap) {
    Harness h;
    Instruction rep = of_class(0x401000, InsnClass::StringOp, reg_gpr(1) | reg_gpr(6) | reg_gpr(7),
                               reg_gpr(1) | reg_gpr(6) | reg_gpr(7));
    rep.rep_count_log2 = 12;  // 4096 iterations
    rep.num_mem = 2;
    rep.mem[0] = MemOperand{0x70000000, 8, false};
    rep.mem[1] = MemOperand{0x71000000, 8, true};
    h.run(rep);
    EXPECT_TRUE(h.ok()) << h.problem();
    const Totals& t = h.totals();
    const CoreConfig& c = h.core().config();
    const std::uint64_t flow = c.string_setup_uops + 4096ull * c.string_iteration_uops;
    EXPECT_EQ(h.core().stats(0).uops_retired, flow);
    EXPECT_LE(t.uops, Outcome::kMaxUops);
    EXPECT_GT(h.core().detail(0).uop_records_summarised, 0u);
    EXPECT_EQ(t.count(EventId::TcMsXfer, 0), 2u);          // one transfer, counted twice
    EXPECT_GT(h.last().retire, flow / 3);                  // timed at three uops per cycle
    // Syscall, Microcode and x87 transcendental flows fit whole.
    h.run(of_class(0x401010, InsnClass::Syscall));
    EXPECT_EQ(h.last().num_uops, c.syscall_uops);
    h.run(of_class(0x401020, InsnClass::X87Complex, kRegX87, kRegX87));
    EXPECT_EQ(h.last().num_uops, c.x87_complex_uops);
    EXPECT_EQ(t.count(EventId::X87FpUop, 15), c.x87_complex_uops);
    h.run(of_class(0x401030, InsnClass::Microcode));
    EXPECT_EQ(h.last().num_uops, c.microcode_uops);
    h.stop(0);
    EXPECT_EQ(t.count(EventId::UopQueueWrites, 2),  // FROM_ROM: every uop of the four flows
              flow + c.syscall_uops + c.x87_complex_uops + c.microcode_uops);
    EXPECT_TRUE(h.ok()) << h.problem();
}

TEST(CorePipeline, HugeStringFlowsStayBoundedInBothThreadModes) {
    for (bool ht : {false, true}) {
        Harness h(EmulatedMachine{}.with_ht(ht));
        Instruction rep = of_class(0x401000, InsnClass::StringOp, reg_gpr(1), reg_gpr(1));
        rep.rep_count_log2 = 30;  // a billion iterations: timed in bulk, a handful of records
        h.run(rep);
        EXPECT_TRUE(h.ok()) << h.problem();
        EXPECT_LE(h.last().num_events + h.last().num_intervals, 40u);
        const CoreConfig& c = h.core().config();
        EXPECT_EQ(h.core().stats(0).uops_retired, c.string_setup_uops + (1ull << 30) * c.string_iteration_uops);
        h.stop(0);
        if (ht) h.stop(1);
        EXPECT_EQ(h.totals(0).count(EventId::UopQueueWrites, 2), h.core().stats(0).uops_retired);
    }
}

TEST(CorePipeline, SerialisingInstructionsPublishEverything) {
    Harness h;
    for (unsigned i = 0; i < 100; ++i) h.run(alu(0x401000 + (i % 8) * 3, reg_gpr(0), reg_gpr(0) | kRegFlags));
    h.run(of_class(0x401100, InsnClass::Microcode));  // cpuid, rdmsr...: everything before has retired
    const Outcome& o = h.last();
    EXPECT_EQ(h.totals().count(EventId::GlobalPowerEvents, 0), o.retire + 1);
    EXPECT_GE(o.frontier, o.retire);
}

TEST(CorePipeline, FrontierNeverDecreasesAndRecordsNeverFallBehindIt) {
    // The harness checks every Outcome; this is a mixed trace with a bit of everything.
    Harness h;
    const auto trace = branchy(500);
    for (std::size_t i = 0; i < trace.size(); ++i) {
        h.run(trace[i]);
        if (i % 97 == 0) h.run(store(0x401100, 0x20000000 + i * 128, 8, reg_gpr(0)));
        if (i % 131 == 0) h.run(load(0x401104, 0x70000000 + i * 4096, 4, 0, reg_gpr(3)));
        if (i % 389 == 0) h.run(of_class(0x401108, InsnClass::X87Complex, kRegX87, kRegX87));
    }
    h.stop(0);
    EXPECT_TRUE(h.ok()) << h.problem();
    EXPECT_GT(h.frontier(), 0u);
}

TEST(CorePipeline, SelfModifyingCodeFlushesTheTraceCache) {
    Harness h;
    for (int rep = 0; rep < 3; ++rep)
        for (unsigned i = 0; i < 8; ++i) h.run(alu(0x401000 + i * 3, reg_gpr(0), reg_gpr(0)));
    EXPECT_TRUE(h.core().tc_holds(0x401000, 0));
    h.run(store(0x500000, 0x401010, 4, reg_gpr(0)));  // into the code
    EXPECT_FALSE(h.core().tc_holds(0x401000, 0));
    EXPECT_EQ(h.totals().count(EventId::TcMisc, 4), 2u);        // FLUSH, counted twice
    EXPECT_EQ(h.totals().count(EventId::MachineClear, 6), 1u);  // SMCLEAR
    EXPECT_GT(h.totals().count(EventId::MachineClear, 0), 0u);  // CLEAR cycles
    // Data stores elsewhere do not.
    h.run(store(0x500004, 0x900000, 4, reg_gpr(0)));
    EXPECT_EQ(h.totals().count(EventId::TcMisc, 4), 2u);
    EXPECT_TRUE(h.ok()) << h.problem();
}

TEST(CorePipeline, PrivilegeLevelPassesThrough) {
    Harness h;
    Instruction k = alu(0x401000, 0, 0);
    k.cpl = 0;
    EXPECT_EQ(h.run(k).cpl, 0);
    k.cpl = 3;
    EXPECT_EQ(h.run(k).cpl, 3);
}

TEST(CorePipeline, ExecutionEventsByClass) {
    Harness h;
    Instruction addsd = of_class(0x401000, InsnClass::SseScalarDp, reg_xmm(0), reg_xmm(0));
    addsd.num_mem = 1;
    addsd.mem[0] = MemOperand{0x10000000, 8, false};
    h.run(addsd);                                                                    // load + scalar DP
    h.run(of_class(0x401004, InsnClass::SsePackedSp, reg_xmm(1), reg_xmm(1)));
    h.run(of_class(0x401008, InsnClass::Mmx64, 0, 0));
    h.run(of_class(0x40100C, InsnClass::Simd128Int, 0, 0));
    h.run(of_class(0x401010, InsnClass::X87Arith, kRegX87, kRegX87));
    h.run(of_class(0x401014, InsnClass::X87Move, kRegX87, kRegX87));
    const Totals& t = h.totals();
    EXPECT_EQ(t.count(EventId::ScalarDpUop, 15), 1u);
    EXPECT_EQ(t.count(EventId::PackedSpUop, 15), 1u);
    EXPECT_EQ(t.count(EventId::Mmx64Uop, 15), 1u);
    EXPECT_EQ(t.count(EventId::Mmx128Uop, 15), 1u);
    EXPECT_EQ(t.count(EventId::X87FpUop, 15), 1u);
    EXPECT_EQ(t.count(EventId::X87SimdMovesUop, 4), 1u);  // the SSE load (ALLP2)
    EXPECT_EQ(t.count(EventId::X87SimdMovesUop, 3), 1u);  // the x87 register move (ALLP0)
    EXPECT_EQ(t.exec_events, 7u);                          // the same uops carry the execution events
}

TEST(CorePipeline, OutcomeCapacityHoldsUnderLoad) {
    // Instructions with two memory operands that both miss everything, one after the other: many bus records per
    // Outcome, some of which wait for the next one.
    Harness h;
    for (unsigned i = 0; i < 300; ++i) {
        Instruction rmw = alu(0x401000, reg_gpr(0), reg_gpr(0) | kRegFlags);
        rmw.num_mem = 2;
        rmw.mem[0] = MemOperand{0x80000000 + std::uint64_t{i} * 8192, 8, false};
        rmw.mem[1] = MemOperand{0x90000000 + std::uint64_t{i} * 8192, 8, true};
        h.run(rmw);
    }
    h.stop(0);
    EXPECT_TRUE(h.ok()) << h.problem();
    EXPECT_GT(h.core().detail(0).records_deferred, 0u);  // some records went out with later Outcomes
    EXPECT_EQ(h.core().detail(0).records_dropped, 0u);   // none was lost
}

}  // namespace
}  // namespace netburst::emu::test
