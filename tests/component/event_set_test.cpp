// The component core end to end, through the C entry points the PAPI glue calls, on an in-process emulated
// Pentium 4 executing known work between the calls: exact counts, domains, reset/write/stop, several event sets,
// conflicts with the allocator's explanation, unsupported events, Hyper-Threading.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "component/glue_api.h"
#include "emulator/pmu/memory_window.h"
#include "in_process.h"
#include "table/msr_map.h"

using namespace netburst;
using namespace netburst::component;
using netburst::component::test::InProcessMachine;

namespace {

constexpr int kUser = NB_DOMAIN_USER;
constexpr int kKernel = NB_DOMAIN_KERNEL;

std::vector<unsigned> codes_of(const std::vector<std::string>& names) {
    std::vector<unsigned> codes;
    for (const std::string& n : names) {
        unsigned code = 0;
        EXPECT_EQ(nb_native_name_to_code(n.c_str(), &code), NB_STATUS_OK) << n;
        codes.push_back(code);
    }
    return codes;
}

// An event set of `names` for logical processor `lp`, scheduled; returns the status.
int make_set(nb_event_set* set, const std::vector<std::string>& names, int domain = kUser | kKernel, unsigned lp = 0,
             std::string* why = nullptr) {
    nb_event_set_init(set, domain);
    nb_thread thread{static_cast<std::uint8_t>(lp), 0};
    const std::vector<unsigned> codes = codes_of(names);
    char reason[NB_REASON_LEN] = "";
    const int s = nb_event_set_update(set, &thread, codes.data(), static_cast<unsigned>(codes.size()), reason,
                                      sizeof reason);
    if (why) *why = reason;
    return s;
}

void start(nb_event_set* set) {
    char why[NB_REASON_LEN] = "";
    ASSERT_EQ(nb_event_set_start(set, nullptr, why, sizeof why), NB_STATUS_OK) << why;
}

const char* kTotIns = "instr_retired:NBOGUSNTAG:NBOGUSTAG";
const char* kBrIns = "branch_retired:MMNP:MMNM:MMTP:MMTM";
const char* kBrTkn = "branch_retired:MMTP:MMTM";
const char* kBrNtk = "branch_retired:MMNP:MMNM";

}  // namespace

TEST(EventSet, ComponentInitialisesOnTheEmulator) {
    InProcessMachine m;
    ASSERT_EQ(m.status(), NB_STATUS_OK);
    EXPECT_STREQ(m.info().preset_section, "papi-netburst sse");
    EXPECT_EQ(m.info().model, 2u);
    EXPECT_GT(m.info().num_native_events, 50u);
    EXPECT_STREQ(m.info().disabled_reason, "");
    InProcessMachine l3(emu::EmulatedMachine{}.with_l3(), "x87");
    EXPECT_STREQ(l3.info().preset_section, "papi-netburst x87 L3");
}

TEST(EventSet, InstructionsAndBranchesAreExact) {
    InProcessMachine m;
    nb_event_set set;
    // branch_retired lives on CRU_ESCR2/3, which hold two settings: two of the branch presets at a time.
    ASSERT_EQ(make_set(&set, {kTotIns, kBrTkn, kBrNtk}), NB_STATUS_OK);
    m.straight(50);  // before start: not counted
    start(&set);
    m.loop(1000, 4);
    ASSERT_EQ(nb_event_set_read(&set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 5000);
    EXPECT_EQ(set.values[1], 999);
    EXPECT_EQ(set.values[2], 1);
    m.loop(10, 1);
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 5020);
    EXPECT_EQ(set.values[1] + set.values[2], 1010);
    nb_event_set all;
    ASSERT_EQ(make_set(&all, {kBrIns}), NB_STATUS_OK);
    start(&all);
    m.loop(7, 2);
    nb_event_set_stop(&all, nullptr);
    EXPECT_EQ(all.values[0], 7);
    m.straight(100);  // after stop: not counted
    ASSERT_EQ(nb_event_set_read(&set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 5020);
}

TEST(EventSet, TheCommonPresetSetCountsInOnePass) {
    // PAPI_TOT_CYC PAPI_TOT_INS PAPI_BR_MSP PAPI_L1_DCM PAPI_FP_INS (sse): doc/presets.md's headline set.
    InProcessMachine m;
    nb_event_set set;
    std::string why;
    ASSERT_EQ(make_set(&set,
                       {"global_power_events:RUNNING", kTotIns, "mispred_branch_retired:BOGUS",
                        "1stL_cache_load_miss_retired:NBOGUS", "execution_event:NBOGUS0", "scalar_SP_uop:ALL:TAG0",
                        "scalar_DP_uop:ALL:TAG0"},
                       kUser, 0, &why),
              NB_STATUS_OK)
        << why;
    start(&set);
    m.loop(200, 3, 4096);  // 200 loads, one per page: every one misses the 8 KB L1
    m.straight(300, 3, emu::InsnClass::SseScalarDp);
    m.straight(100, 3, emu::InsnClass::SseScalarSp);
    m.straight(100, 3, emu::InsnClass::X87Arith);  // not in the sse variant
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    EXPECT_GT(set.values[0], set.values[1] / 4) << "cycles";
    EXPECT_EQ(set.values[1], 200 * 4 + 500);
    EXPECT_GE(set.values[2], 0);
    EXPECT_LE(set.values[2], 2) << "a counted loop mispredicts at most at its exit";
    EXPECT_EQ(set.values[3], 200) << "L1 load misses (replay tagging)";
    EXPECT_EQ(set.values[4], 400) << "scalar SSE uops (execution tagging)";
}

TEST(EventSet, DomainsSelectUserAndKernelLevels) {
    InProcessMachine m;
    struct Case {
        int domain;
        long long expected;
    };
    for (Case c : {Case{kUser, 200}, Case{kKernel, 100}, Case{kUser | kKernel, 300}}) {
        nb_event_set set;
        ASSERT_EQ(make_set(&set, {kTotIns}, c.domain), NB_STATUS_OK);
        start(&set);
        m.straight(100, 0);
        m.straight(200, 3);
        ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
        EXPECT_EQ(set.values[0], c.expected) << "domain " << c.domain;
    }
    // :u and :k in the name win over the domain.
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {"instr_retired:NBOGUSNTAG:NBOGUSTAG:k"}, kUser), NB_STATUS_OK);
    start(&set);
    m.straight(70, 0);
    m.straight(30, 3);
    nb_event_set_stop(&set, nullptr);
    EXPECT_EQ(set.values[0], 70);
}

TEST(EventSet, ChangingTheDomainReschedules) {
    InProcessMachine m;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns}, kUser), NB_STATUS_OK);
    char why[NB_REASON_LEN] = "";
    nb_thread thread{0, 0};
    ASSERT_EQ(nb_event_set_set_domain(&set, &thread, kKernel, why, sizeof why), NB_STATUS_OK) << why;
    start(&set);
    m.straight(10, 0);
    m.straight(20, 3);
    nb_event_set_stop(&set, nullptr);
    EXPECT_EQ(set.values[0], 10);
    EXPECT_EQ(nb_event_set_set_domain(&set, &thread, 4, why, sizeof why), NB_STATUS_INVALID);
    EXPECT_EQ(set.domain, kKernel) << "a refused domain leaves the old one";
}

TEST(EventSet, ResetAndWriteWhileRunning) {
    InProcessMachine m;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns, kBrIns}), NB_STATUS_OK);
    start(&set);
    m.loop(100, 1);
    ASSERT_EQ(nb_event_set_reset(&set), NB_STATUS_OK);
    m.loop(10, 1);
    nb_event_set_read(&set);
    EXPECT_EQ(set.values[0], 20);
    EXPECT_EQ(set.values[1], 10);
    const long long values[2] = {(1ll << 40) - 5, 1ll << 45};
    ASSERT_EQ(nb_event_set_write(&set, values), NB_STATUS_OK);
    m.loop(5, 1);  // 10 instructions: the instruction counter wraps its 40 bits
    nb_event_set_read(&set);
    EXPECT_EQ(set.values[0], (1ll << 40) + 5);
    EXPECT_EQ(set.values[1], (1ll << 45) + 5);
    m.loop(5, 1);
    nb_event_set_stop(&set, nullptr);
    EXPECT_EQ(set.values[0], (1ll << 40) + 15) << "the emulator's OVF flag was acknowledged, not counted twice";
}

TEST(EventSet, SeveralEventSetsTakeTurns) {
    InProcessMachine m;
    nb_event_set a, b;
    ASSERT_EQ(make_set(&a, {kTotIns}), NB_STATUS_OK);
    ASSERT_EQ(make_set(&b, {kBrTkn, kTotIns}), NB_STATUS_OK);
    start(&a);
    m.loop(10, 2);
    nb_event_set_stop(&a, nullptr);
    start(&b);
    m.loop(20, 2);
    nb_event_set_stop(&b, nullptr);
    start(&a);  // starting again counts from zero
    m.loop(5, 2);
    nb_event_set_stop(&a, nullptr);
    EXPECT_EQ(a.values[0], 15);
    EXPECT_EQ(b.values[0], 19);
    EXPECT_EQ(b.values[1], 60);
}

TEST(EventSet, StopLeavesNoRegisterProgrammed) {
    InProcessMachine m;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns, "2ndL_cache_load_miss_retired", "x87_FP_retired"}),
              NB_STATUS_OK);
    start(&set);
    m.loop(10, 2);
    nb_event_set_stop(&set, nullptr);
    for (unsigned c = 0; c < kNumCounters; ++c) {
        std::uint64_t v = 1;
        ASSERT_EQ(m.backend().read_msr(kCounters[c].cccr_msr, &v), IoStatus::Ok);
        EXPECT_EQ(v, 0u) << kCounters[c].cccr_name;
    }
    for (unsigned e = 0; e < kNumEscrs; ++e) {
        if (!model_in(kEscrs[e].models, 2)) continue;
        std::uint64_t v = 1;
        ASSERT_EQ(m.backend().read_msr(kEscrs[e].msr, &v), IoStatus::Ok);
        EXPECT_EQ(v, 0u) << kEscrs[e].name;
    }
    std::uint64_t pebs = 1, mv = 1;
    m.backend().read_msr(kMsrPebsEnable, &pebs);
    m.backend().read_msr(kMsrPebsMatrixVert, &mv);
    EXPECT_EQ(pebs, 0u);
    EXPECT_EQ(mv, 0u);
}

TEST(EventSet, ConflictsCarryTheAllocatorsExplanation) {
    InProcessMachine m;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns}), NB_STATUS_OK);
    const nb_event_set before = set;
    std::string why;
    EXPECT_EQ(make_set(&set, {"1stL_cache_load_miss_retired", "2ndL_cache_load_miss_retired"}, kUser, 0, &why),
              NB_STATUS_CONFLICT);
    EXPECT_NE(why.find("1stL_cache_load_miss_retired"), std::string::npos) << why;
    EXPECT_NE(why.find("2ndL_cache_load_miss_retired"), std::string::npos) << why;
    EXPECT_NE(why.find("PEBS"), std::string::npos) << why;
    EXPECT_EQ(make_set(&set, {"memory_loads", "memory_stores"}, kUser, 0, &why), NB_STATUS_CONFLICT);
    EXPECT_NE(why.find("front-end"), std::string::npos) << why;

    // A failed update leaves the set as it was (PAPI re-establishes its old events).
    nb_event_set kept = before;
    nb_thread thread{0, 0};
    const std::vector<unsigned> bad = codes_of({"1stL_cache_load_miss_retired", "2ndL_cache_load_miss_retired"});
    char reason[NB_REASON_LEN];
    EXPECT_EQ(nb_event_set_update(&kept, &thread, bad.data(), 2, reason, sizeof reason), NB_STATUS_CONFLICT);
    EXPECT_EQ(kept.num_events, 1u);
    EXPECT_EQ(kept.codes[0], before.codes[0]);
}

TEST(EventSet, TooManyEventsAndEventsThatNeedAMask) {
    InProcessMachine m;
    nb_event_set set;
    nb_event_set_init(&set, kUser);
    std::vector<unsigned> many(NB_MAX_EVENTS + 1, codes_of({kTotIns})[0]);
    char why[NB_REASON_LEN] = "";
    nb_thread thread{0, 0};
    EXPECT_EQ(nb_event_set_update(&set, &thread, many.data(), static_cast<unsigned>(many.size()), why, sizeof why),
              NB_STATUS_TOO_MANY);

    unsigned code = 0;
    ASSERT_EQ(nb_native_first(&code), NB_STATUS_OK);
    char name[256];
    do {
        nb_native_code_to_name(code, name, sizeof name);
    } while (std::string(name) != "execution_event" && nb_native_next_event(&code) == NB_STATUS_OK);
    ASSERT_STREQ(name, "execution_event");
    EXPECT_EQ(nb_event_set_update(&set, &thread, &code, 1, why, sizeof why), NB_STATUS_NO_EVENT);
    EXPECT_NE(std::string(why).find("NBOGUS0"), std::string::npos) << why;
}

TEST(EventSet, TheSameEventTwiceSharesItsCounter) {
    InProcessMachine m;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {"branch_retired:MMTP:MMTM", "branch_retired:MMTM:MMTP", kTotIns}), NB_STATUS_OK);
    EXPECT_EQ(set.counter_of[0], set.counter_of[1]);
    start(&set);
    m.loop(30, 1);
    nb_event_set_stop(&set, nullptr);
    EXPECT_EQ(set.values[0], 29);
    EXPECT_EQ(set.values[1], 29);
}

// Every CCCR and ESCR of the model reads zero: nothing is left programmed.
void expect_pmu_clean(InProcessMachine& m) {
    for (unsigned c = 0; c < kNumCounters; ++c) {
        std::uint64_t v = 1;
        m.backend().read_msr(kCounters[c].cccr_msr, &v);
        EXPECT_EQ(v, 0u) << kCounters[c].cccr_name;
    }
    for (unsigned e = 0; e < kNumEscrs; ++e) {
        if (!model_in(kEscrs[e].models, 2)) continue;
        std::uint64_t v = 1;
        m.backend().read_msr(kEscrs[e].msr, &v);
        EXPECT_EQ(v, 0u) << kEscrs[e].name;
    }
}

TEST(EventSet, UnmodelledEventsAreRefusedWhenAddedAndLeaveThePmuClean) {
    InProcessMachine m;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns}), NB_STATUS_OK);
    EXPECT_EQ(set.measurable, 1);
    // PAPI_add_event: the set with the new event is scheduled and tried; the emulator cannot count it.
    nb_thread thread{0, 0};
    const std::vector<unsigned> codes = codes_of({kTotIns, "SSE_input_assist:ALL"});
    char why[NB_REASON_LEN] = "";
    EXPECT_EQ(nb_event_set_update(&set, &thread, codes.data(), 2, why, sizeof why), NB_STATUS_UNSUPPORTED);
    EXPECT_NE(std::string(why).find("SSE_input_assist"), std::string::npos) << why;
    EXPECT_EQ(set.num_events, 1u) << "a refused update leaves the set as it was";
    expect_pmu_clean(m);
    // The set as it was still counts.
    start(&set);
    m.straight(25);
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 25);
}

TEST(EventSet, WhileASetRunsTheNextIsTriedAtStart) {
    InProcessMachine m;
    nb_thread thread{0, 0};
    nb_event_set running, next;
    ASSERT_EQ(make_set(&running, {kTotIns}), NB_STATUS_OK);
    char why[NB_REASON_LEN] = "";
    ASSERT_EQ(nb_event_set_start(&running, &thread, why, sizeof why), NB_STATUS_OK) << why;
    EXPECT_EQ(thread.running_sets, 1);
    m.straight(10);
    // Trying this set would reprogram the PMU under the running one: it is scheduled only.
    nb_event_set_init(&next, kUser);
    const std::vector<unsigned> codes = codes_of({"SSE_input_assist:ALL"});
    const unsigned writes = m.backend().writes;
    EXPECT_EQ(nb_event_set_update(&next, &thread, codes.data(), 1, why, sizeof why), NB_STATUS_OK) << why;
    EXPECT_EQ(m.backend().writes, writes) << "no register was written";
    EXPECT_EQ(next.measurable, 0);
    m.straight(15);
    ASSERT_EQ(nb_event_set_stop(&running, &thread), NB_STATUS_OK);
    EXPECT_EQ(running.values[0], 25) << "the running set counted on undisturbed";
    EXPECT_EQ(thread.running_sets, 0);
    // Start finds what update could not try, and leaves nothing programmed.
    EXPECT_EQ(nb_event_set_start(&next, &thread, why, sizeof why), NB_STATUS_UNSUPPORTED);
    EXPECT_NE(std::string(why).find("SSE_input_assist"), std::string::npos) << why;
    EXPECT_EQ(next.running, 0);
    EXPECT_EQ(thread.running_sets, 0);
    expect_pmu_clean(m);
}

TEST(EventSet, SchedulingTheSameEventsAgainDoesNothing) {
    // What PAPI does before each start that follows another set's, and on every multiplexing switch (in its signal
    // handler): the set, its registers and the PMU stay as they are.
    InProcessMachine m;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns, kBrIns}), NB_STATUS_OK);
    const nb_event_set before = set;
    nb_thread thread{0, 0};
    char why[NB_REASON_LEN] = "";
    const std::vector<unsigned> same = codes_of({kTotIns, kBrIns});
    const unsigned writes = m.backend().writes;
    ASSERT_EQ(nb_event_set_update(&set, &thread, same.data(), 2, why, sizeof why), NB_STATUS_OK) << why;
    EXPECT_EQ(m.backend().writes, writes);
    EXPECT_EQ(std::memcmp(&set, &before, sizeof set), 0);
    // Another domain is another schedule.
    ASSERT_EQ(nb_event_set_set_domain(&set, &thread, kKernel, why, sizeof why), NB_STATUS_OK) << why;
    EXPECT_NE(std::memcmp(set.start_writes, before.start_writes, sizeof set.start_writes), 0);
}

TEST(EventSet, AnUnchangedScheduleIsNotTriedAgain) {
    // PAPI schedules a set again before every start that follows another set's, and its multiplexing does so on
    // every switch, from its timer signal: a schedule that was tried once is not programmed again.
    InProcessMachine m;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns, kBrIns}, kUser), NB_STATUS_OK);
    nb_thread thread{0, 0};
    char why[NB_REASON_LEN] = "";
    // In the user domain, :u is another code with the same schedule.
    const std::vector<unsigned> alias = codes_of({kTotIns, std::string(kBrIns) + ":u"}), fewer = codes_of({kTotIns});
    ASSERT_NE(alias[1], set.codes[1]);
    const unsigned writes = m.backend().writes;
    ASSERT_EQ(nb_event_set_update(&set, &thread, alias.data(), 2, why, sizeof why), NB_STATUS_OK) << why;
    EXPECT_EQ(m.backend().writes, writes);
    EXPECT_EQ(set.measurable, 1);
    ASSERT_EQ(nb_event_set_update(&set, &thread, fewer.data(), 1, why, sizeof why), NB_STATUS_OK) << why;
    EXPECT_GT(m.backend().writes, writes) << "a different schedule is tried";
    EXPECT_EQ(set.measurable, 1);
}

TEST(EventSet, HyperThreadingCountsTheOwningLogicalProcessor) {
    InProcessMachine m(emu::EmulatedMachine{}.with_ht());
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns}, kUser, 1), NB_STATUS_OK);
    EXPECT_EQ(set.logical_processor, 1);
    m.on_thread(1);
    start(&set);
    m.straight(40);
    m.on_thread(0);
    m.straight(70);  // the other logical processor's instructions are not counted
    m.on_thread(1);
    m.straight(2);
    nb_event_set_stop(&set, nullptr);
    EXPECT_EQ(set.values[0], 42);
}

TEST(EventSet, EverythingIsRefusedWithoutAnActiveComponent) {
    unsigned code = 0;
    EXPECT_EQ(nb_native_first(&code), NB_STATUS_DISABLED);
    EXPECT_EQ(nb_native_name_to_code("instr_retired:NBOGUSNTAG", &code), NB_STATUS_DISABLED);
    nb_component_info info;
    // Natively, detection finds neither the emulator nor a Pentium 4 (the machine running the tests).
    EXPECT_EQ(nb_component_init(&info), NB_STATUS_DISABLED);
    EXPECT_NE(std::string(info.disabled_reason).find("netburst-run"), std::string::npos) << info.disabled_reason;
    nb_component_shutdown();
}

// PAPI's hardware overflow (nb_event_set_set_overflow, nb_event_set_take_overflow): one interrupt per threshold,
// each naming only the interrupting event, with the instruction it returns to; the counter reloaded each time and
// the 64-bit counts exact (in process nothing runs between the handler's read and its reload).
TEST(EventSet, HardwareOverflowReloadsAndKeepsCountsExact) {
    InProcessMachine m;
    EXPECT_NE(m.info().interrupt_signal, 0);
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {kTotIns, kBrIns}), NB_STATUS_OK);
    EXPECT_EQ(nb_event_set_set_overflow(&set, 2, 1000), NB_STATUS_INVALID);
    ASSERT_EQ(nb_event_set_set_overflow(&set, 0, 1000), NB_STATUS_OK);
    EXPECT_NE(set.overflow_counters, 0u);
    start(&set);
    int interrupts = 0;
    for (int chunk = 0; chunk < 100; ++chunk) {
        m.loop(50, 4);  // 250 instructions, 50 branches
        std::uint64_t address = 0, events = 0;
        while (nb_event_set_take_overflow(&set, &address, &events) == NB_STATUS_OK) {
            if (events == 0) continue;
            EXPECT_EQ(events, 1u);
            EXPECT_GE(address, 0x400000u);
            ++interrupts;
        }
        if (chunk == 50) {
            ASSERT_EQ(nb_event_set_read(&set), NB_STATUS_OK);
            EXPECT_EQ(set.values[0], 51 * 250);
        }
    }
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 25000);
    EXPECT_EQ(set.values[1], 5000);
    // The 25th wrap comes with the last instruction; its interrupt waits for an instruction that never retires.
    EXPECT_GE(interrupts, 24);
    EXPECT_LE(interrupts, 25);
    // Overflow off again: the start writes are the encoder's.
    ASSERT_EQ(nb_event_set_set_overflow(&set, 0, 0), NB_STATUS_OK);
    EXPECT_EQ(set.overflow_counters, 0u);
    nb_event_set plain;
    ASSERT_EQ(make_set(&plain, {kTotIns, kBrIns}), NB_STATUS_OK);
    ASSERT_EQ(set.num_start_writes, plain.num_start_writes);
    for (unsigned i = 0; i < set.num_start_writes; ++i) EXPECT_EQ(set.start_writes[i].value, plain.start_writes[i].value);
}

// :precise with overflow: PEBS on IQ_COUNTER4, one interrupt per record, each at the load's own instruction, and
// the count exact across the PMU's own reloads (each record stands for a period).
TEST(EventSet, PreciseOverflowSamplesByPebs) {
    InProcessMachine m;
    nb_event_set set;
    std::string why;
    ASSERT_EQ(make_set(&set, {"memory_loads:precise=1", kTotIns}, kUser, 0, &why), NB_STATUS_OK) << why;
    EXPECT_EQ(set.pebs_event, 0);
    EXPECT_EQ(set.counter_of[0], 16);
    // The in-process PMU writes PEBS records straight into the set's DS save area, which is this process's memory
    // at its own address; anything outside it is refused, as unmapped guest memory would be.
    emu::MemoryWindow memory{reinterpret_cast<std::uintptr_t>(set.pebs_area),
                             reinterpret_cast<unsigned char*>(set.pebs_area), sizeof set.pebs_area};
    m.emulator().pmu().set_guest_memory(memory.view());
    EXPECT_EQ(nb_event_set_set_overflow(&set, 0, 1), NB_STATUS_INVALID);  // the sampled event follows the wrap
    ASSERT_EQ(nb_event_set_set_overflow(&set, 0, 100), NB_STATUS_OK);
    EXPECT_EQ(set.overflow_counters, 0u);  // PEBS interrupts through its buffer, not the counter's OVF_PMI
    start(&set);
    int samples = 0, elsewhere = 0;
    papi_netburst_pebs_sample sample{};
    for (int chunk = 0; chunk < 10; ++chunk) {
        const std::uint64_t load = m.pc();  // the loop's first instruction is its load
        m.loop(105, 3, 64);                 // 105 loads in 420 instructions
        m.straight(100);     // the last record's interrupt is taken some cycles after the load retires
        std::uint64_t address = 0, events = 0;
        while (nb_event_set_take_overflow(&set, &address, &events) == NB_STATUS_OK) {
            if (events == 0) continue;
            EXPECT_EQ(events, 1u);
            ++samples;
            elsewhere += address != load;
            ASSERT_EQ(nb_event_set_pebs_sample(&set, &sample), NB_STATUS_OK);
            EXPECT_EQ(sample.field[PAPI_NETBURST_EIP], address);
            EXPECT_EQ(sample.sequence, static_cast<std::uint64_t>(samples));
        }
        if (chunk == 4) {
            ASSERT_EQ(nb_event_set_read(&set), NB_STATUS_OK);
            EXPECT_EQ(set.values[0], 5 * 105);
        }
    }
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 1050);
    EXPECT_EQ(set.values[1], 5200);
    EXPECT_EQ(samples, 10);  // every 100th load
    EXPECT_EQ(elsewhere, 0);
    // Overflow off: the plain encoder's writes, and the counter counts again.
    ASSERT_EQ(nb_event_set_set_overflow(&set, 0, 0), NB_STATUS_OK);
    EXPECT_EQ(set.pebs_armed, 0);
    start(&set);
    m.loop(105, 3, 64);
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 105);
}

TEST(EventSet, PreciseRefusalsAreExplained) {
    InProcessMachine m;
    unsigned code = 0;
    char why[NB_REASON_LEN] = "";
    EXPECT_EQ(nb_native_name_to_code_why("mispred_branch_retired:precise=1", &code, why, sizeof why),
              NB_STATUS_NO_EVENT);
    EXPECT_NE(std::strstr(why, "cannot drive PEBS"), nullptr) << why;
    nb_event_set set;
    std::string reason;
    EXPECT_EQ(make_set(&set, {"1stL_cache_load_miss_retired:precise=1", "memory_stores:precise=2"}, kUser, 0, &reason),
              NB_STATUS_CONFLICT);
    EXPECT_NE(reason.find("PEBS has one counter, MSR_IQ_COUNTER4"), std::string::npos) << reason;
    // Logical processor 1 samples on IQ_COUNTER5.
    InProcessMachine ht(emu::EmulatedMachine{}.with_ht());
    ht.on_thread(1);
    ASSERT_EQ(make_set(&set, {"1stL_cache_load_miss_retired:precise=1"}, kUser, 1, &reason), NB_STATUS_OK) << reason;
    EXPECT_EQ(set.counter_of[0], 17);
}

// PEBS beside an ordinary overflow in one set: each event gets its own samples, the PEBS ones at the load.
TEST(EventSet, PreciseAndOrdinaryOverflowInOneSet) {
    InProcessMachine m;
    nb_event_set set;
    std::string why;
    ASSERT_EQ(make_set(&set, {"memory_loads:precise=1", kTotIns}, kUser, 0, &why), NB_STATUS_OK) << why;
    // The in-process PMU writes PEBS records straight into the set's DS save area, which is this process's memory
    // at its own address; anything outside it is refused, as unmapped guest memory would be.
    emu::MemoryWindow memory{reinterpret_cast<std::uintptr_t>(set.pebs_area),
                             reinterpret_cast<unsigned char*>(set.pebs_area), sizeof set.pebs_area};
    m.emulator().pmu().set_guest_memory(memory.view());
    ASSERT_EQ(nb_event_set_set_overflow(&set, 0, 100), NB_STATUS_OK);
    ASSERT_EQ(nb_event_set_set_overflow(&set, 1, 1000), NB_STATUS_OK);
    start(&set);
    int precise = 0, ordinary = 0, precise_elsewhere = 0;
    for (int chunk = 0; chunk < 10; ++chunk) {
        const std::uint64_t load = m.pc();
        m.loop(105, 3, 64);
        m.straight(100);
        std::uint64_t address = 0, events = 0;
        while (nb_event_set_take_overflow(&set, &address, &events) == NB_STATUS_OK) {
            if (events & 1u) {
                ++precise;
                precise_elsewhere += address != load;
            }
            if (events & 2u) ++ordinary;
        }
    }
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 1050);
    EXPECT_EQ(set.values[1], 5200);
    EXPECT_EQ(precise, 10);
    EXPECT_EQ(precise_elsewhere, 0);
    EXPECT_GE(ordinary, 4);  // the fifth wrap comes with the last instructions; its interrupt may wait
    EXPECT_LE(ordinary, 5);
}
