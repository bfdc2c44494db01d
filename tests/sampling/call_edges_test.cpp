// The call edges of `netburst-run record --callgrind` as the shadow call stack keeps them
// (emulator/sampling/shadow_stack.h, call_edges.h): each return adds one call and the costs since its call to the
// edge (call site, callee), a return that pops several frames closes each of them, recursion measures every call,
// open frames are reported once when their thread or image ends, a forked child measures its inherited frames from
// the fork, a call through a stub is named after the stub's jump, and calls past the capacity have no edge.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <utility>

#include "emulator/sampling/shadow_stack.h"
#include "tests/sampling/guest_instructions.h"

using namespace netburst::emu;
using namespace netburst::emu::test;
using netburst::emu::vg::CallEdges;
using netburst::emu::vg::ShadowStack;

namespace {

void* test_alloc(std::size_t n) { return std::malloc(n); }
void test_free(void* p) { std::free(p); }





struct Edge {
    std::uint64_t calls = 0, exact = 0, samples = 0;
    bool operator==(const Edge& o) const { return calls == o.calls && exact == o.exact && samples == o.samples; }
};
std::ostream& operator<<(std::ostream& os, const Edge& e) {
    return os << "{calls " << e.calls << ", exact " << e.exact << ", samples " << e.samples << "}";
}
using Edges = std::map<std::pair<std::uint64_t, std::uint64_t>, Edge>;

Edges edges_of(const CallEdges& table) {
    Edges out;
    table.for_each([&](const CallEdges::Entry& e) { out[{e.site, e.callee}] = Edge{e.calls, e.costs.exact[0], e.costs.samples[0]}; });
    return out;
}

// A thread's stack and the image's edges, with the thread's costs advanced by hand as the sampler would.
struct Thread {
    ShadowStack stack;
    CallEdges edges;
    Thread() { EXPECT_TRUE(edges.init(test_alloc, test_free)); }
    void run(const Instruction& insn, std::uint64_t events = 0, unsigned samples = 0) {
        stack.add_exact(events);  // the instruction's own events come before its call or return acts
        for (unsigned i = 0; i < samples; ++i) stack.add_sample();
        stack.update(insn, &edges);
    }
};

TEST(CallEdges, AReturnAddsOneCallAndWhatHappenedSinceItsCall) {
    Thread t;
    t.run(alu(0x1000), 1);
    t.run(call(0x1003, 0x2000), 2);          // main calls outer: the call's own events are main's
    t.run(alu(0x2000), 10, 1);
    t.run(call(0x2003, 0x3000), 0);          // outer calls inner
    t.run(alu(0x3000), 100, 2);
    t.run(ret(0x3003, 0x2008), 4);           // inner's return is inner's
    t.run(alu(0x2008), 20);
    t.run(ret(0x200b, 0x1008), 0);
    t.run(alu(0x1008), 7);
    const Edges e = edges_of(t.edges);
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e.at({0x2003, 0x3000}), (Edge{1, 104, 2}));
    EXPECT_EQ(e.at({0x1003, 0x2000}), (Edge{1, 10 + 104 + 20, 3}));
    EXPECT_EQ(t.stack.depth(), 0u);
    // Calls from the same site to the same callee add up.
    t.run(call(0x1003, 0x2000));
    t.run(alu(0x2000), 5);
    t.run(ret(0x200b, 0x1008));
    EXPECT_EQ(edges_of(t.edges).at({0x1003, 0x2000}), (Edge{2, 139, 3}));
}

TEST(CallEdges, AReturnThatPopsSeveralFramesClosesEachOfThem) {
    // longjmp (or an exception) from d back into a's frame: b, c and d end at the same point.
    Thread t;
    t.run(call(0x1000, 0xa000));
    t.run(alu(0xa000), 1);
    t.run(call(0xa010, 0xb000));
    t.run(alu(0xb000), 2);
    t.run(call(0xb010, 0xc000));
    t.run(alu(0xc000), 3);
    t.run(call(0xc010, 0xd000));
    t.run(alu(0xd000), 4);
    t.run(ret(0xd100, 0xa015), 5);  // returns to the instruction after a's call of b
    EXPECT_EQ(t.stack.depth(), 1u);
    const Edges e = edges_of(t.edges);
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e.at({0xc010, 0xd000}), (Edge{1, 9, 0}));
    EXPECT_EQ(e.at({0xb010, 0xc000}), (Edge{1, 12, 0}));
    EXPECT_EQ(e.at({0xa010, 0xb000}), (Edge{1, 14, 0}));
    EXPECT_EQ(e.count({0x1000, 0xa000}), 0u);  // still open
}

TEST(CallEdges, RecursionMeasuresEveryCall) {
    // f calls itself twice from one site: the edge f -> f has two calls whose inclusive costs nest (callgrind's
    // convention: each call as measured; readers handle the cycle).
    Thread t;
    t.run(call(0x1000, 0xf000));
    t.run(alu(0xf000), 1);
    t.run(call(0xf010, 0xf000));
    t.run(alu(0xf000), 1);
    t.run(call(0xf010, 0xf000));
    t.run(alu(0xf000), 1);
    t.run(ret(0xf020, 0xf015));
    t.run(ret(0xf020, 0xf015));
    t.run(ret(0xf020, 0x1005));
    const Edges e = edges_of(t.edges);
    EXPECT_EQ(e.at({0xf010, 0xf000}), (Edge{2, 1 + 2, 0}));
    EXPECT_EQ(e.at({0x1000, 0xf000}), (Edge{1, 3, 0}));
}

TEST(CallEdges, OpenFramesAreReportedOnceAndGoOnFromThere) {
    Thread t;
    t.run(call(0x1000, 0x2000));
    t.run(call(0x2010, 0x3000));
    t.run(alu(0x3000), 6, 1);
    t.stack.report_open(&t.edges);  // the image ends (or its thread exits) with both open
    EXPECT_EQ(edges_of(t.edges).at({0x1000, 0x2000}), (Edge{1, 6, 1}));
    EXPECT_EQ(edges_of(t.edges).at({0x2010, 0x3000}), (Edge{1, 6, 1}));
    EXPECT_EQ(t.stack.depth(), 2u);
    // An exec that failed: the image goes on, and the calls add their further costs without counting again.
    t.run(alu(0x3003), 4);
    t.run(ret(0x3010, 0x2015));
    t.run(ret(0x2020, 0x1005));
    EXPECT_EQ(edges_of(t.edges).at({0x1000, 0x2000}), (Edge{1, 10, 1}));
    EXPECT_EQ(edges_of(t.edges).at({0x2010, 0x3000}), (Edge{1, 10, 1}));
}

TEST(CallEdges, AForkedChildMeasuresItsInheritedCallsFromTheFork) {
    Thread t;
    t.run(call(0x1000, 0x2000));
    t.run(alu(0x2000), 50);  // the parent's events
    t.stack.restart_frames();
    t.run(alu(0x2003), 3);
    t.run(ret(0x2010, 0x1005));
    EXPECT_EQ(edges_of(t.edges).at({0x1000, 0x2000}), (Edge{1, 3, 0}));
}

TEST(CallEdges, ACallThroughAStubIsNamedAfterWhereItsJumpsLead) {
    Thread t;
    t.run(call(0x1000, 0x5000));             // call printf@plt
    t.run(jump(0x5000, 0x5010, false), 1);   // a thunk's jump, then the stub's jmp *GOT
    t.run(jump(0x5010, 0x7000, true), 1);
    t.run(alu(0x7000), 5);
    t.run(jump(0x7003, 0x7100, false));      // the callee's own jumps do not rename it
    t.run(ret(0x7200, 0x1005));
    const Edges e = edges_of(t.edges);
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e.at({0x1000, 0x7000}), (Edge{1, 7, 0}));
}

TEST(CallEdges, CallsPastTheCapacityHaveNoEdgeAndTheirCostStaysInTheDeepestFrame) {
    Thread t;
    for (unsigned i = 0; i <= ShadowStack::kCapacity; ++i) t.run(call(0x1000 + 0x10 * i, 0x1000 + 0x10 * (i + 1)));
    EXPECT_EQ(t.stack.overflowed(), 1u);
    t.run(alu(0x9000), 8);
    t.run(ret(0x9010, 0x4242));  // the call that did not fit returns
    EXPECT_EQ(t.edges.size(), 0u);
    const std::uint64_t last = 0x1000 + 0x10 * (ShadowStack::kCapacity - 1);
    t.run(ret(0x9020, last + 5));
    EXPECT_EQ(edges_of(t.edges).at({last, last + 0x10}), (Edge{1, 8, 0}));
}

TEST(CallEdges, WithoutATableTheStackKeepsOnlyTheChain) {
    ShadowStack s;
    s.update(call(0x1000, 0x2000));
    s.add_exact(5);
    s.update(ret(0x2010, 0x1005));
    EXPECT_EQ(s.depth(), 0u);
    EXPECT_EQ(s.costs().exact[0], 5u);
}

TEST(CallEdges, TheTableGrowsAndKeepsEveryEdge) {
    CallEdges table;
    ASSERT_TRUE(table.init(test_alloc, test_free));
    const auto costs = [](std::uint64_t exact, std::uint64_t samples) {
        netburst::emu::vg::EventCosts c{};
        c.exact[0] = exact;
        c.samples[0] = samples;
        return c;
    };
    for (std::uint64_t i = 1; i <= 5000; ++i) table.add(0x400000 + 16 * i, 0x500000 + (i % 7), 1, costs(i, 0));
    for (std::uint64_t i = 1; i <= 5000; ++i) table.add(0x400000 + 16 * i, 0x500000 + (i % 7), 2, costs(i, 1));
    table.add(0x400010, 0x600000, 1, costs(0, 0));  // the same site, another callee (an indirect call)
    table.add(0x400020, 0x600000, 0, costs(0, 0));  // nothing to add: no edge
    EXPECT_EQ(table.size(), 5001u);
    std::uint64_t calls = 0, exact = 0, samples = 0;
    table.for_each([&](const CallEdges::Entry& e) {
        calls += e.calls;
        exact += e.costs.exact[0];
        samples += e.costs.samples[0];
    });
    EXPECT_EQ(calls, 3u * 5000 + 1);
    EXPECT_EQ(exact, 2u * 5000 * 5001 / 2);
    EXPECT_EQ(samples, 5000u);
    table.clear();
    EXPECT_EQ(table.size(), 0u);
}

}  // namespace
