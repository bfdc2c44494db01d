// The fast path must be the general path restricted to the instructions it takes: every Outcome, record for
// record, must be identical with CoreConfig::fast_path on and off.
#include <gtest/gtest.h>

#include <cstring>

#include "tests/emulator/core_test_util.h"

namespace netburst::emu::test {
namespace {

std::vector<Instruction> mixed(unsigned n) {
    std::vector<Instruction> v;
    std::uint64_t x = 7;
    for (unsigned i = 0; i < n; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const unsigned r = static_cast<unsigned>(x >> 40);
        const std::uint64_t pc = 0x401000 + (i % 97) * 4;
        switch (r % 14) {
        case 0: v.push_back(load(pc, 0x10000000 + (x >> 20) % 65536, 4 << (r % 3), reg_gpr(6), reg_gpr(0))); break;
        case 1: v.push_back(store(pc, 0x10000000 + (x >> 22) % 16384, 8, reg_gpr(0))); break;
        case 2: {
            Instruction a = alu(pc, reg_gpr(1), reg_gpr(1) | kRegFlags);
            a.num_mem = 1;
            a.mem[0] = MemOperand{0x10000000 + (x >> 24) % 4096, 4, false};
            v.push_back(a);
            break;
        }
        case 3: v.push_back(branch(pc, pc + 0x40, (r >> 4) & 1)); break;
        case 4: v.push_back(of_class(pc, InsnClass::SseScalarDp, reg_xmm(r % 4), reg_xmm(r % 4))); break;
        case 5: v.push_back(of_class(pc, InsnClass::X87Arith, kRegX87, kRegX87)); break;
        case 6: v.push_back(of_class(pc, InsnClass::IntShift, reg_gpr(2), reg_gpr(2) | kRegFlags)); break;
        case 7: v.push_back(branch(pc, 0x402000, true, InsnClass::DirectCall)); break;
        case 8: v.push_back(branch(pc, 0x401000 + (r % 97) * 4, true, InsnClass::Return)); break;
        case 9: v.push_back(of_class(pc, InsnClass::IntMul, reg_gpr(3), reg_gpr(3))); break;
        case 10:
        case 11: {
            // Read-modify-write (addl $1, -4(%rbp)): load, op, store address and data, on a few hot addresses so
            // that later loads meet the store in the store buffer.
            Instruction a = alu(pc, reg_gpr(5), kRegFlags);
            const std::uint64_t address = 0x10000000 + ((x >> 26) % 8) * (r % 14 == 10 ? 4 : 8);
            a.num_mem = 2;
            a.mem[0] = MemOperand{address, 4, false};
            a.mem[1] = MemOperand{address, 4, true};
            v.push_back(a);
            break;
        }
        default: v.push_back(alu(pc, reg_gpr(r % 8), reg_gpr((r >> 3) % 8) | kRegFlags)); break;
        }
    }
    return v;
}

bool same(const Outcome& a, const Outcome& b, std::string* why) {
    if (a.fetch != b.fetch || a.retire != b.retire || a.frontier != b.frontier) {
        *why = "fetch/retire/frontier";
        return false;
    }
    if (a.num_uops != b.num_uops || a.num_events != b.num_events || a.num_intervals != b.num_intervals) {
        *why = "record counts";
        return false;
    }
    for (unsigned i = 0; i < a.num_uops; ++i) {
        const UopRecord &x = a.uops[i], &y = b.uops[i];
        if (x.retire != y.retire || x.kind != y.kind || x.bogus != y.bogus ||
            x.last_of_instruction != y.last_of_instruction || x.has_exec_event != y.has_exec_event ||
            (x.has_exec_event && (x.exec_event != y.exec_event || x.exec_mask_bit != y.exec_mask_bit ||
                                  x.exec_cycle != y.exec_cycle)) ||
            x.replay_causes != y.replay_causes || x.mob_mask != y.mob_mask) {
            *why = "uop record";
            return false;
        }
    }
    for (unsigned i = 0; i < a.num_events; ++i) {
        const EventRecord &x = a.events[i], &y = b.events[i];
        if (x.cycle != y.cycle || x.event != y.event || x.mask_bit != y.mask_bit || x.count != y.count) {
            *why = "event record";
            return false;
        }
    }
    for (unsigned i = 0; i < a.num_intervals; ++i) {
        const IntervalRecord &x = a.intervals[i], &y = b.intervals[i];
        if (x.begin != y.begin || x.end != y.end || x.event != y.event || x.mask_bit != y.mask_bit ||
            x.per_cycle != y.per_cycle) {
            *why = "interval record";
            return false;
        }
    }
    return true;
}

void check_equivalent(unsigned model, const std::vector<Instruction>& trace) {
    CoreConfig fast = make_core_config(model, false, false);
    CoreConfig slow = fast;
    slow.fast_path = false;
    std::unique_ptr<Core> a(new Core), b(new Core);
    a->reset(fast);
    b->reset(slow);
    std::unique_ptr<Outcome> oa(new Outcome), ob(new Outcome);
    for (std::size_t i = 0; i < trace.size(); ++i) {
        a->execute(trace[i], oa.get());
        b->execute(trace[i], ob.get());
        std::string why;
        ASSERT_TRUE(same(*oa, *ob, &why)) << "instruction " << i << ": " << why;
    }
    a->stop_thread(0, oa.get());
    b->stop_thread(0, ob.get());
    std::string why;
    EXPECT_TRUE(same(*oa, *ob, &why)) << "stop: " << why;
    EXPECT_EQ(a->stats(0).cycles, b->stats(0).cycles);
}

TEST(CoreFastPath, IdenticalToTheGeneralPathNorthwood) { check_equivalent(2, mixed(20000)); }

TEST(CoreFastPath, IdenticalToTheGeneralPathPrescott) { check_equivalent(3, mixed(20000)); }

TEST(CoreFastPath, IdenticalOnTheSpruntLoops) {
    check_equivalent(2, fp_add_latency(300, 16));
    check_equivalent(2, l1_miss(300));
}

}  // namespace
}  // namespace netburst::emu::test
