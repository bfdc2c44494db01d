// The uop plan of an instruction with a known form takes the form's latency and throughput from the table
// (emulator/core/form_timing.cpp) on each model family; without a form the class's figure stands.
#include <gtest/gtest.h>

#include "emulator/core/core_config.h"
#include "emulator/core/form_timing.h"
#include "emulator/core/uop_decode.h"
#include "tests/core/core_test_util.h"

using namespace netburst::emu;

namespace {

const UopSpec& op_uop(const UopPlan& plan) {
    for (unsigned i = 0; i < plan.num_specs; ++i)
        if (plan.specs[i].role == UopRole::Op) return plan.specs[i];
    ADD_FAILURE() << "no operation uop";
    return plan.specs[0];
}

UopPlan plan_of(unsigned model, InsnClass cls, InsnForm form) {
    const CoreConfig config = make_core_config(EmulatedMachine{}.with_model(model));
    Instruction insn;
    insn.cls = cls;
    insn.form = form;
    UopPlan plan;
    decompose(config, insn, &plan);
    return plan;
}

}  // namespace

// Each family's figures, as the table's sources give them (in ticks: half cycles).
TEST(FormTiming, PlanUsesTheFormsLatencyOnEachFamily) {
    for (unsigned model : {0u, 1u, 2u}) {
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntMul, InsnForm::Mul32)).latency, 32) << model;  // #350: 16
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntMul, InsnForm::Mul32)).busy, 14) << model;
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::X87Arith, InsnForm::Fmul)).latency, 14) << model;  // #580: 7
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::SseScalarDp, InsnForm::SseMul)).latency, 12) << model;  // 6
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::SseScalarDp, InsnForm::SseMul)).busy, 2) << model;
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntDiv, InsnForm::Idiv8)).latency, 138) << model;  // #362: 69
    }
    for (unsigned model : {3u, 4u, 6u}) {
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntMul, InsnForm::Mul32)).latency, 24) << model;  // #350: 12
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntMul, InsnForm::Mul32)).busy, 11) << model;
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::X87Arith, InsnForm::Fmul)).latency, 16) << model;  // #580: 8
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::SseScalarDp, InsnForm::SseMul)).latency, 14) << model;  // 7
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntShift, InsnForm::ShiftCl)).latency, 4) << model;  // #227: 2
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntDiv, InsnForm::Idiv64)).latency, 214) << model;  // X64: 107
    }
}

TEST(FormTiming, PlanMatchesTheTable) {
    for (unsigned model : {2u, 4u}) {
        const FormTiming t = form_timing(InsnForm::AdcSbb, model);
        ASSERT_NE(t.latency, 0u);
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntAlu, InsnForm::AdcSbb)).latency, t.latency) << model;
    }
}

// No form, or a form the sources do not cover on the model: the class's figure.
TEST(FormTiming, UnknownFormKeepsTheClassFigure) {
    for (unsigned model : {2u, 4u}) {
        const CoreConfig config = make_core_config(EmulatedMachine{}.with_model(model));
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntMul, InsnForm::None)).latency, to_ticks(config.imul_latency));
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntDiv, InsnForm::Idiv16)).latency, to_ticks(config.idiv_latency));
    }
    // Northwood has no 64-bit mode: the 64-bit divide keeps the class's figure there.
    EXPECT_EQ(op_uop(plan_of(2, InsnClass::IntDiv, InsnForm::Div64)).latency,
              to_ticks(make_core_config(EmulatedMachine{}).idiv_latency));
}

// A plain load's form sets how long the load holds the load port (movups/movdqu: #803, #806).
TEST(FormTiming, UnalignedLoadHoldsTheLoadPortTwoCycles) {
    for (unsigned model : {2u, 4u}) {
        const CoreConfig config = make_core_config(EmulatedMachine{}.with_model(model));
        Instruction insn;
        insn.cls = InsnClass::SimdMove;
        insn.form = InsnForm::UnalignedLoad;
        insn.num_mem = 1;
        insn.mem[0].size = 16;
        UopPlan plan;
        decompose(config, insn, &plan);
        ASSERT_EQ(plan.num_specs, 1u);
        EXPECT_EQ(plan.specs[0].role, UopRole::Load);
        EXPECT_EQ(plan.specs[0].busy, 2) << model;
    }
}

// Plans are cached by shape: two forms of one class are two shapes.
TEST(FormTiming, FormIsPartOfTheShape) {
    Instruction a;
    a.cls = InsnClass::IntMul;
    Instruction b = a;
    b.form = InsnForm::Mul32;
    EXPECT_NE(PlanCache::shape_key(a), PlanCache::shape_key(b));
}

// A throughput of n and a half cycles on a unit that holds whole cycles: n + 1 and n in turn (form_timing.cpp,
// `alternates`). #956 CVTTSD2SI r32, xmm: T 2.5 on Northwood, 4 on Prescott.
TEST(FormTiming, HalfCycleThroughputAlternatesWholeCycles) {
    const UopSpec nw = op_uop(plan_of(2, InsnClass::SseScalarDp, InsnForm::CvtSd2Si));
    EXPECT_EQ(nw.busy, 3);
    EXPECT_TRUE(nw.busy_alternates);
    const UopSpec pr = op_uop(plan_of(4, InsnClass::SseScalarDp, InsnForm::CvtSd2Si));
    EXPECT_EQ(pr.busy, 4);
    EXPECT_FALSE(pr.busy_alternates);
    EXPECT_FALSE(op_uop(plan_of(2, InsnClass::SseScalarDp, InsnForm::SseMul)).busy_alternates);  // T 2

    // Independent conversions (xmm0 into eight registers in turn) retire 2.5 cycles apart on Northwood.
    auto cycles_for = [](unsigned n) {
        test::Harness h;
        for (unsigned i = 0; i < n; ++i) {
            Instruction insn = test::of_class(0x1000 + 4 * (i % 64), InsnClass::SseScalarDp, reg_xmm(0),
                                              reg_gpr(8 + i % 8));
            insn.form = InsnForm::CvtSd2Si;
            h.run(insn);
        }
        EXPECT_TRUE(h.ok()) << h.problem();
        return h.core().now();
    };
    const double per = static_cast<double>(cycles_for(2400) - cycles_for(1200)) / 1200;
    EXPECT_NEAR(per, 2.5, 0.05);
}

namespace {

// Cycles per copy of a loop body run `copies` times after as many copies of warm-up (the first instruction's
// retirement to the last one's, in the steady state).
template <class Body>
double cycles_per_copy(unsigned model, Body body, unsigned copies = 64) {
    // (One address for every copy: a loop the trace cache holds.)
    test::Harness h(EmulatedMachine{}.with_model(model));
    std::uint64_t pc = 0x401000;
    for (unsigned i = 0; i < copies; ++i) body(h, pc);
    const Cycle start = h.last().retire;
    for (unsigned i = 0; i < copies; ++i) body(h, pc);
    return static_cast<double>(h.last().retire - start) / copies;
}

Instruction mul_rcx(std::uint64_t pc, InsnForm form) {
    Instruction i = test::of_class(pc, InsnClass::IntMul, reg_gpr(0) | reg_gpr(1),
                                   reg_gpr(0) | reg_gpr(2) | kRegFlags);
    i.form = form;
    return i;
}

}  // namespace

// A one-operand multiply leaves its low half (rax) at the form's latency and its high half (rdx) at the high
// half's: on Prescott a chain through rdx of mul r64 runs at 21 cycles (X64 #343), one through rax at 12.3
// (#351); on Northwood, mul r32's edx at 18 (#342) and eax at 16 (#350).
TEST(FormTiming, OneOperandMultiplyHasItsHighHalfLater) {
    const FormTiming t = form_timing(InsnForm::Mul64, 4);
    EXPECT_EQ(t.high_latency, 42u);
    EXPECT_EQ(t.busy, 11);  // #343 T 11.00
    struct Case {
        unsigned model;
        InsnForm form;
        double low, high;
    };
    for (const Case c : {Case{4, InsnForm::Mul64, 12.5, 21}, Case{2, InsnForm::Mul32, 16, 18}}) {
        // mul rcx; rax feeds the next mul.
        const double low =
            cycles_per_copy(c.model, [&](test::Harness& h, std::uint64_t pc) { h.run(mul_rcx(pc, c.form)); });
        // mul rcx; mov rax, rdx: the high half feeds the next mul.
        const double high = cycles_per_copy(c.model, [&](test::Harness& h, std::uint64_t pc) {
            h.run(mul_rcx(pc, c.form));
            h.run(test::alu(pc + 3, reg_gpr(2), reg_gpr(0)));
        });
        const double mov = c.model >= 3 ? 1 : 0.5;
        // (The multiplier takes uops at the start of a cycle: a chain of 12.5 runs at 13.)
        EXPECT_NEAR(low, c.low, 0.6) << c.model;
        EXPECT_NEAR(high, c.high + mov, 0.6) << c.model;
    }
    // The flags come with the low half: mul rcx; setc cl, a chain through the flags (rax stays put).
    const double flags = cycles_per_copy(4, [&](test::Harness& h, std::uint64_t pc) {
        Instruction m = mul_rcx(pc, InsnForm::Mul64);
        m.reads &= ~reg_gpr(0);
        h.run(m);
        h.run(test::alu(pc + 3, kRegFlags, reg_gpr(1)));
    });
    EXPECT_NEAR(flags, 12.5 + 1, 0.6);  // with the high half it would be 22
}

// Logic operations run on double-speed ALU 0 only (the ORM's port figure: ALU 1 does ADD/SUB): independent ANDs
// go two a cycle, as InstLatX86 measures (#142, T 0.50 / 0.46), where independent ADDs go at the front end's three
// (#72, T 0.34 / 0.35).
TEST(FormTiming, LogicOperationsTakeAluZeroOnly) {
    for (unsigned model : {2u, 4u}) {
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntAlu, InsnForm::Logic)).unit, Unit::Alu0) << model;
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntAlu, InsnForm::NegNot)).unit, Unit::Alu0) << model;
        EXPECT_EQ(op_uop(plan_of(model, InsnClass::IntAlu, InsnForm::None)).unit, Unit::FastAlu) << model;
        auto cycles_per = [model](InsnForm form) {
            auto run = [model, form](unsigned n) {
                test::Harness h(EmulatedMachine{}.with_model(model));
                for (unsigned i = 0; i < n; ++i) {
                    // and %eax, r: eleven destinations in turn, none read before it is written again far later
                    Instruction insn = test::alu(0x1000 + 3 * (i % 64), reg_gpr(0) | reg_gpr(5 + i % 11),
                                                 reg_gpr(5 + i % 11) | kRegFlags);
                    insn.form = form;
                    h.run(insn);
                }
                EXPECT_TRUE(h.ok()) << h.problem();
                return h.core().now();
            };
            return static_cast<double>(run(2400) - run(1200)) / 1200;
        };
        EXPECT_NEAR(cycles_per(InsnForm::Logic), 0.5, 0.03) << model;
        EXPECT_LT(cycles_per(InsnForm::None), 0.4) << model;
    }
}

// movd m32, mm takes a port-1 slot beside its store address (uop_decode.cpp, Builder::store), movq m64, mm none:
// two independent paddq and one store a group run at port 1's one uop a cycle, 2 cycles a group with movq stores
// and 3 with movd ones. The uop count is a store's either way.
TEST(FormTiming, MovdStoreTakesAPortOneSlot) {
    for (unsigned model : {2u, 4u}) {
        auto cycles_per_group = [model](InsnForm form, std::uint64_t* uops) {
            auto run = [model, form, uops](unsigned n) {
                test::Harness h(EmulatedMachine{}.with_model(model));
                for (unsigned i = 0; i < n; ++i) {
                    const std::uint64_t pc = 0x1000 + 16 * (i % 64);
                    // paddq mm(a), mm7 and paddq mm(b), mm7: no chain (mm7 is never written)
                    const unsigned a = i % 3, b = 3 + i % 3;
                    h.run(test::of_class(pc, InsnClass::Mmx64, reg_mm(a) | reg_mm(7), reg_mm(a)));
                    h.run(test::of_class(pc + 4, InsnClass::Mmx64, reg_mm(b) | reg_mm(7), reg_mm(b)));
                    const unsigned size = form == InsnForm::MovdStoreMmx ? 4 : 8;
                    Instruction st = test::store(pc + 8, 0x20000 + 8 * (i % 512), size, reg_mm(6));
                    st.cls = InsnClass::SimdMove;
                    st.form = form;
                    h.run(st);
                }
                EXPECT_TRUE(h.ok()) << h.problem();
                *uops = h.totals().uops;
                return h.core().now();
            };
            const Cycle first = run(1200);
            const std::uint64_t uops_first = *uops;
            const Cycle second = run(2400);
            *uops -= uops_first;
            return static_cast<double>(second - first) / 1200;
        };
        std::uint64_t movd_uops = 0, movq_uops = 0;
        EXPECT_NEAR(cycles_per_group(InsnForm::MovdStoreMmx, &movd_uops), 3.0, 0.1) << model;
        EXPECT_NEAR(cycles_per_group(InsnForm::None, &movq_uops), 2.0, 0.1) << model;
        EXPECT_EQ(movd_uops, movq_uops) << model;
        EXPECT_EQ(movd_uops, 1200u * 4) << model;  // paddq, paddq, store address, store data
    }
}
