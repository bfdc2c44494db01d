// The tool's sampler on a real Emulator (no Valgrind): netburst-run record's event program applied to the PMU and
// its exact-count twin, a synthetic loop whose one load misses the L1 every time (eight addresses 8 KB apart, the
// l1_miss pattern), and the samples file read back. PEBS must name the load, with its data address, every time;
// IEBS must land after it (skid); both must take one sample per period, and the exact counts must sit on the load.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "emulator/emulator.h"
#include "emulator/run/sample_input.h"
#include "emulator/run/sample_plan.h"
#include "emulator/sampling/sampler.h"
#include "tests/sampling/guest_instructions.h"

using namespace netburst;
using namespace netburst::emu;
using namespace netburst::emu::test;
using namespace netburst::emu::run;

namespace {

std::string g_written;
void write_to_string(const void* bytes, std::size_t size) { g_written.append(static_cast<const char*>(bytes), size); }
void* test_alloc(std::size_t n) { return std::malloc(n); }
void test_free(void* p) { std::free(p); }

constexpr std::uint64_t kLoadPc = 0x401000;
constexpr std::uint64_t kRing = 0x10000760;  // eight addresses 8 KB apart: one L1 set, which holds four
constexpr unsigned kRingSize = 8;
constexpr unsigned kFiller = 24;  // independent ALU instructions on each side of the load


struct Recorded {
    Profile profile;
    std::uint64_t loads = 0;
    std::uint64_t samples = 0;
    std::size_t g_written_chains = 0;  // `chain` lines in the samples file
};

// With `nested` (record -g): the loop calls outer, which calls inner, which holds the load and its ALU ops.
constexpr std::uint64_t kMainCall = 0x400800;   // call outer (5 bytes), then the loop branch back to it
constexpr std::uint64_t kOuterCall = 0x400900;  // outer: call inner (5 bytes), then ret
constexpr std::uint64_t kInnerRet = kLoadPc + 3 * (kFiller + 1);

// Runs `iterations` of: kFiller ALU ops, the missing load, kFiller ALU ops, the loop branch (nested: the return
// from inner, the return from outer, the loop's branch back to the call).
// With `edges` (record --callgrind): the samples file gets the call edges; `chains` false: the nested loop without -g.
// `events`: one or more of record's -e, all at `period`.
Recorded run(const std::vector<std::string>& events, std::uint64_t period, unsigned iterations, bool nested = false,
             bool edges = false, bool chains = true) {
    Recorded r;
    SampleOptions so;
    so.period = period;
    so.callchain = nested && chains;
    so.call_edges = edges;
    auto plan = plan_sampling(events, so);
    EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().message);
    if (!plan.ok()) return r;

    std::unique_ptr<Emulator> emu(new Emulator);
    emu->reset(EmulatorConfig{});
    std::unique_ptr<Pmu> exact(new Pmu(emu->pmu()));
    std::unique_ptr<vg::Sampler> sampler(new vg::Sampler);
    g_written.clear();
    vg::SamplerHost host;
    host.write = write_to_string;
    host.alloc = test_alloc;
    host.release = test_free;
    EXPECT_EQ(sampler->init(plan->program.sample, true, host), nullptr);
    if (plan->program.sample.pebs_event() >= 0) emu->pmu().set_guest_memory(sampler->ds_memory());
    for (unsigned i = 0; i < plan->program.num_writes[0]; ++i) {
        const vg::ProgramWrite& w = plan->program.writes[0][i];
        if (w.pmu == 0) EXPECT_EQ(emu->write_msr(0, w.msr, w.value), MsrResult::Ok) << std::hex << w.msr;
        else EXPECT_EQ(exact->write_msr(0, w.msr, w.value, emu->now()), MsrResult::Ok) << std::hex << w.msr;
    }
    Pmu* observers[] = {exact.get()};
    emu->attach_observers(observers, 1);
    EXPECT_TRUE(emu->timing());  // a sampling counter raises interrupts at cycles: the timing tier runs
    sampler->begin_process(4242, "/bin/l1_miss", 0xc0100000, 0xc0104000);
    vg::ShadowStack stack;
    sampler->switch_to(exact.get(), 4243, &stack);

    const auto execute = [&](const Instruction& insn) {
        emu->execute(insn);
        sampler->after(*emu, 0, insn);
    };
    const auto branch_to = [](std::uint64_t pc, InsnClass cls, std::uint64_t target) {
        Instruction b = alu(pc);
        b.cls = cls;
        b.length = cls == InsnClass::Return ? 1 : 5;
        b.taken = true;
        b.target = target;
        return b;
    };
    for (unsigned it = 0; it < iterations; ++it) {
        if (nested) {
            execute(branch_to(kMainCall, InsnClass::DirectCall, kOuterCall));
            execute(branch_to(kOuterCall, InsnClass::DirectCall, kLoadPc - 3 * kFiller));
        }
        std::uint64_t pc = kLoadPc - 3 * kFiller;
        for (unsigned k = 0; k < kFiller; ++k, pc += 3) execute(alu(pc));
        Instruction load = alu(kLoadPc);
        load.num_mem = 1;
        load.mem[0].address = kRing + (it % kRingSize) * 8192;
        load.mem[0].size = 8;
        execute(load);
        ++r.loads;
        pc = kLoadPc + 3;
        for (unsigned k = 0; k < kFiller; ++k, pc += 3) execute(alu(pc));
        if (nested) {
            execute(branch_to(kInnerRet, InsnClass::Return, kOuterCall + 5));
            execute(branch_to(kOuterCall + 5, InsnClass::Return, kMainCall + 5));
            execute(branch_to(kMainCall + 5, InsnClass::CondBranch, kMainCall));
            continue;
        }
        Instruction branch = alu(pc);
        branch.cls = InsnClass::CondBranch;
        branch.taken = true;
        branch.target = kLoadPc - 3 * kFiller;
        execute(branch);
    }
    emu->finish();
    sampler->drain(*emu, 0);
    sampler->finish(emu->now());
    {
        vg::TextWriter w = sampler->writer().line();
        w.str("end\n");
        sampler->writer().commit(w);
    }
    sampler->writer().flush();
    r.samples = sampler->samples();
    for (std::size_t at = g_written.find("\nchain"); at != std::string::npos; at = g_written.find("\nchain", at + 1))
        ++r.g_written_chains;
    auto parsed = parse_samples_text(g_written, &r.profile);
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message) << "\n" << g_written.substr(0, 500);
    return r;
}

Recorded run(const std::string& event, std::uint64_t period, unsigned iterations, bool nested = false,
             bool edges = false, bool chains = true) {
    return run(std::vector<std::string>{event}, period, iterations, nested, edges, chains);
}

std::uint64_t exact_total(const Profile& p, unsigned event = 0) {
    std::uint64_t n = 0;
    for (const Process& proc : p.processes)
        for (const auto& [ip, count] : proc.exact.at(event)) n += count;
    return n;
}

std::uint64_t samples_of(const Profile& p, unsigned event) {
    std::uint64_t n = 0;
    for (const Sample& s : p.samples) n += s.event == event;
    return n;
}

TEST(Sampler, PebsNamesTheMissingLoadAndItsAddressEveryTime) {
    const std::uint64_t period = 101;  // prime to the ring's 8: the samples walk round all eight addresses
    const Recorded r = run("1stL_cache_load_miss_retired:precise=1", period, 8 * 101 * 3);
    ASSERT_EQ(r.profile.processes.size(), 1u);
    const Process& p = r.profile.processes[0];
    // The kernel paths' range travels with the image, for the writers to tell kernel samples by.
    EXPECT_TRUE(p.in_kernel(0xc0100000));
    EXPECT_FALSE(p.in_kernel(0xc0104000));
    // Every load misses (eight lines in a four-way set), and only the load.
    ASSERT_EQ(p.exact[0].size(), 1u);
    EXPECT_EQ(p.exact[0].begin()->first, kLoadPc);
    EXPECT_GE(p.exact[0].begin()->second, r.loads - 8);  // the first walk round the ring may find lines it brought in
    EXPECT_LE(p.exact[0].begin()->second, r.loads);
    // One sample per PERIOD events: the sampled event is the PERIOD-th, the counter reloads from the DS area.
    EXPECT_EQ(r.profile.samples.size(), exact_total(r.profile) / period);
    std::map<std::uint64_t, unsigned> per_address;
    for (const Sample& s : r.profile.samples) {
        EXPECT_TRUE(s.precise);
        EXPECT_EQ(s.ip, kLoadPc);
        EXPECT_EQ(s.tid, 4243u);
        ASSERT_TRUE(s.has_addr);
        ++per_address[s.addr];
    }
    ASSERT_EQ(per_address.size(), kRingSize);
    for (unsigned k = 0; k < kRingSize; ++k) {
        const std::uint64_t a = kRing + k * 8192;
        ASSERT_TRUE(per_address.count(a)) << std::hex << a;
        EXPECT_NEAR(per_address[a], r.profile.samples.size() / 8.0, 1.0) << std::hex << a;
    }
}

TEST(Sampler, PebsOnAPeriodThatIsAMultipleOfTheRingSeesOneAddress) {
    // Deterministic emulation, strictly periodic sampling: the aliasing a real run's other misses would blur.
    const Recorded r = run("1stL_cache_load_miss_retired:precise=1", 8 * 13, 8 * 13 * 10);
    std::set<std::uint64_t> addresses;
    for (const Sample& s : r.profile.samples) addresses.insert(s.addr);
    EXPECT_GE(r.profile.samples.size(), 9u);
    EXPECT_EQ(addresses.size(), 1u);
}

TEST(Sampler, IebsLandsAfterTheLoadAndKeepsThePeriod) {
    const std::uint64_t period = 50;
    const Recorded r = run("1stL_cache_load_miss_retired", period, 2000);
    const std::uint64_t total = exact_total(r.profile);
    ASSERT_GT(total, 1900u);
    // The handler reloads the counter counting the events that arrived while the interrupt was on its way, so
    // samples come every PERIOD events however long the skid.
    EXPECT_GE(r.profile.samples.size(), total / period - 1);
    EXPECT_LE(r.profile.samples.size(), total / period);
    unsigned after = 0;
    for (const Sample& s : r.profile.samples) {
        EXPECT_FALSE(s.precise);
        EXPECT_FALSE(s.has_addr);
        EXPECT_NE(s.ip, kLoadPc) << "an interrupt taken pmi_skid_cycles after the event returns past the load";
        if (s.ip > kLoadPc && s.ip <= kLoadPc + 3 * (kFiller + 1)) ++after;
    }
    // The skid puts the samples in the instructions that follow the load (the ALU ops retire right after it).
    EXPECT_GE(after, r.profile.samples.size() * 9 / 10);
}

// The chain a sample must carry at `ip` in the nested loop: inner's instructions are called from outer, which is
// called from the loop; outer's return is in outer; the loop's branch and call are in the loop.
std::vector<std::uint64_t> callers_at(std::uint64_t ip) {
    if (ip >= kLoadPc - 3 * kFiller && ip <= kInnerRet) return {kOuterCall + 5, kMainCall + 5};
    if (ip == kOuterCall || ip == kOuterCall + 5) return {kMainCall + 5};
    return {};
}

TEST(Sampler, CallChainsAreTheShadowStackAtTheSampledInstruction) {
    const Recorded pebs = run("1stL_cache_load_miss_retired:precise=1", 101, 8 * 101 * 2, true);
    ASSERT_GT(pebs.profile.samples.size(), 10u);
    for (const Sample& s : pebs.profile.samples) {
        EXPECT_EQ(s.ip, kLoadPc);
        EXPECT_EQ(s.callers, (std::vector<std::uint64_t>{kOuterCall + 5, kMainCall + 5}));
    }
    // IEBS: wherever the interrupt returned, the chain is the one of that instruction.
    const Recorded iebs = run("1stL_cache_load_miss_retired", 50, 2000, true);
    ASSERT_GT(iebs.profile.samples.size(), 30u);
    for (const Sample& s : iebs.profile.samples) EXPECT_EQ(s.callers, callers_at(s.ip)) << std::hex << s.ip;
    // Without -g no chain is written.
    const Recorded plain = run("1stL_cache_load_miss_retired:precise=1", 101, 8 * 101, false);
    ASSERT_FALSE(plain.profile.samples.empty());
    for (const Sample& s : plain.profile.samples) EXPECT_TRUE(s.callers.empty());
    EXPECT_EQ(plain.g_written_chains, 0u);
}

TEST(Sampler, CallEdgesCarryEachCallsInclusiveCost) {
    const unsigned iterations = 8 * 101 * 2;
    for (const char* event : {"1stL_cache_load_miss_retired:precise=1", "1stL_cache_load_miss_retired"}) {
        SCOPED_TRACE(event);
        const Recorded r = run(event, 101, iterations, true, true, false);  // edges without -g
        ASSERT_EQ(r.profile.processes.size(), 1u);
        const Process& p = r.profile.processes[0];
        ASSERT_EQ(p.calls.size(), 2u);
        const CallEdge& outer = p.calls.at({kMainCall, kOuterCall});
        const CallEdge& inner = p.calls.at({kOuterCall, kLoadPc - 3 * kFiller});
        EXPECT_EQ(outer.calls, iterations);
        EXPECT_EQ(inner.calls, iterations);
        // Every event is the load's, inside both calls.
        EXPECT_EQ(inner.exact[0], exact_total(r.profile));
        EXPECT_EQ(outer.exact[0], exact_total(r.profile));
        // A sample counts in the calls open at its instruction (with IEBS the skid takes the samples past inner's
        // return, into outer's; with PEBS they are all the load's).
        std::uint64_t in_outer = 0, in_inner = 0;
        for (const Sample& s : r.profile.samples) {
            const std::size_t depth = callers_at(s.ip).size();
            in_outer += depth >= 1;
            in_inner += depth == 2;
        }
        EXPECT_EQ(inner.samples[0], in_inner);
        EXPECT_EQ(outer.samples[0], in_outer);
        EXPECT_GT(outer.samples[0], 0u);
        EXPECT_EQ(r.g_written_chains, 0u);
    }
    // Without --callgrind no edge is written.
    const Recorded plain = run("1stL_cache_load_miss_retired:precise=1", 101, 8 * 101, true, false);
    EXPECT_TRUE(plain.profile.processes.at(0).calls.empty());
}

TEST(Sampler, ExactCountsMatchACountingRun) {
    const Recorded pebs = run("1stL_cache_load_miss_retired:precise=1", 97, 500);
    const Recorded iebs = run("1stL_cache_load_miss_retired", 97, 500);
    // The exact twin counts the same event on its own PMU: the sampling method does not change it.
    EXPECT_EQ(exact_total(pebs.profile), exact_total(iebs.profile));
}

// Two events in one recording, each on its own counter (PEBS on the missing load, the overflow interrupt on retired
// instructions): each sample says which event it is, each event has as many samples and the same exact count as in
// a recording of it alone, and the samples of PEBS still all name the load.
TEST(Sampler, TwoEventsSampleAsEachWouldAlone) {
    const std::uint64_t period = 97;
    const std::vector<std::string> events = {"1stL_cache_load_miss_retired:precise=1", "instr_retired:NBOGUSNTAG"};
    const Recorded both = run(events, period, 500, true, true);
    const Recorded misses = run("1stL_cache_load_miss_retired:precise=1", period, 500, true, true);
    const Recorded insns = run("instr_retired:NBOGUSNTAG", period, 500, true, true);
    ASSERT_EQ(both.profile.processes.size(), 1u);
    ASSERT_EQ(both.profile.processes[0].exact.size(), 2u);
    EXPECT_EQ(exact_total(both.profile, 0), exact_total(misses.profile));
    EXPECT_EQ(exact_total(both.profile, 1), exact_total(insns.profile));
    EXPECT_GT(exact_total(both.profile, 1), 500u * (2 * kFiller + 1));
    EXPECT_EQ(samples_of(both.profile, 0), misses.profile.samples.size());
    EXPECT_EQ(samples_of(both.profile, 1), insns.profile.samples.size());
    EXPECT_EQ(samples_of(both.profile, 0), exact_total(both.profile, 0) / period);
    // Instructions retire faster than the interrupt arrives at this short period, so whole periods go by while one
    // waits (the handler then starts a fresh one): fewer samples than periods, alone as together.
    EXPECT_GT(samples_of(both.profile, 1), exact_total(both.profile, 1) / period / 4);
    EXPECT_LE(samples_of(both.profile, 1), exact_total(both.profile, 1) / period);
    EXPECT_EQ(both.samples, both.profile.samples.size());
    for (const Sample& s : both.profile.samples) {
        EXPECT_EQ(s.precise, s.event == 0);
        if (s.event == 0) {
            EXPECT_EQ(s.ip, kLoadPc);
        }
    }
    // The call edges carry each event's costs: every load is inside both calls, and so are most instructions.
    const Process& p = both.profile.processes[0];
    const CallEdge& outer = p.calls.at({kMainCall, kOuterCall});
    ASSERT_EQ(outer.exact.size(), 2u);
    EXPECT_EQ(outer.exact[0], exact_total(both.profile, 0));
    EXPECT_EQ(outer.exact[1], insns.profile.processes[0].calls.at({kMainCall, kOuterCall}).exact[0]);
    EXPECT_EQ(outer.samples[0], samples_of(both.profile, 0));
}

TEST(Sampler, RejectsASpecItCannotSample) {
    vg::Sampler* s = new vg::Sampler;
    vg::SamplerHost host;
    host.write = write_to_string;
    host.alloc = test_alloc;
    host.release = test_free;
    vg::SampleSpec spec;
    EXPECT_NE(s->init(spec, true, host), nullptr);  // not enabled
    spec.enabled = true;
    spec.num_events = 1;
    vg::SampledCounter& e = spec.events[0];
    e.pebs = true;
    e.counter = 12;
    e.period = 100;
    EXPECT_NE(s->init(spec, true, host), nullptr);  // PEBS only on IQ_COUNTER4
    e.counter = 16;
    e.period = 1;
    EXPECT_NE(s->init(spec, true, host), nullptr);  // a PEBS sample needs an overflow first
    e.period = 2;
    EXPECT_EQ(s->init(spec, true, host), nullptr);
    spec.events[1] = e;
    spec.num_events = 2;
    EXPECT_NE(s->init(spec, true, host), nullptr);  // one PEBS counter
    spec.events[1].pebs = false;
    spec.events[1].counter = 12;
    EXPECT_EQ(s->init(spec, true, host), nullptr);  // PEBS beside an overflow interrupt
    delete s;
}

}  // namespace
