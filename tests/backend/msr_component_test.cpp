// The component on a fake Pentium 4 through the C entry points the PAPI glue calls: the exact MSR writes of event
// sets (tagging MSRs and ESCRs before any CCCR enable), T0/T1 bits on a Hyper-Threaded Xeon, counters other
// software holds, the CCCR1 erratum, counting and 64-bit extension, CPU attachment, and the machine restored at
// shutdown.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "component/component.h"
#include "component/glue_api.h"
#include "fake_machine.h"
#include "table/msr_map.h"
#include "table/registers.h"

using namespace netburst;
using namespace netburst::component;
using namespace netburst::component::test;

namespace {

constexpr int kUser = NB_DOMAIN_USER;
constexpr int kKernel = NB_DOMAIN_KERNEL;

// The component initialised on a fake machine, shut down at the end of the scope.
class Component {
public:
    explicit Component(FakeMachine& m) { status = initialize_component(m.sources(), nullptr, &info); }
    ~Component() { shutdown_component(); }
    Component(const Component&) = delete;
    Component& operator=(const Component&) = delete;
    int status = -1;
    nb_component_info info{};
};

std::vector<unsigned> codes_of(const std::vector<std::string>& names) {
    std::vector<unsigned> codes;
    for (const std::string& n : names) {
        unsigned code = 0;
        EXPECT_EQ(nb_native_name_to_code(n.c_str(), &code), NB_STATUS_OK) << n;
        codes.push_back(code);
    }
    return codes;
}

int make_set(nb_event_set* set, const std::vector<std::string>& names, int domain = kUser | kKernel,
             std::string* why = nullptr) {
    nb_event_set_init(set, domain);
    nb_thread thread{};
    EXPECT_EQ(nb_thread_init(&thread), NB_STATUS_OK);
    const std::vector<unsigned> codes = codes_of(names);
    char reason[NB_REASON_LEN] = "";
    const int s = nb_event_set_update(set, &thread, codes.data(), static_cast<unsigned>(codes.size()), reason,
                                      sizeof reason);
    if (why) *why = reason;
    return s;
}

int start(nb_event_set* set, std::string* why = nullptr) {
    char reason[NB_REASON_LEN] = "";
    const int s = nb_event_set_start(set, nullptr, reason, sizeof reason);
    if (why) *why = reason;
    return s;
}

bool is_cccr(std::uint32_t msr) { return msr >= 0x360 && msr < 0x360 + kNumCounters; }
bool is_escr(std::uint32_t msr) { return msr >= 0x3A0 && msr <= 0x3E1; }
bool enables(const Access& a) { return is_cccr(a.msr) && (a.value & (1ull << kCccrEnableBit)); }

// instr_retired:NBOGUSNTAG: event select 02H, mask bit 0, on CRU_ESCR0/1 (ESCR number 4 in the IQ block).
constexpr std::uint64_t kInstrRetiredT0 = (0x02ull << 25) | (1ull << 9) | 0xC;  // T0_OS | T0_USR
constexpr std::uint64_t kInstrRetiredT1 = (0x02ull << 25) | (1ull << 9) | 0x3;  // T1_OS | T1_USR
constexpr std::uint64_t kCccrCru01 = (1ull << 12) | (4ull << 13) | (3ull << 16);  // enable, ESCR 4, any thread

}  // namespace

TEST(MsrComponent, InitialisesWithCpuAttachAndNotes) {
    FakeMachine m;
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    EXPECT_EQ(c.info.cpu_attach, 1);
    EXPECT_EQ(c.info.model, 2u);
    EXPECT_NE(std::string(c.info.notes).find("CCCR1 Enable erratum"), std::string::npos) << c.info.notes;
    EXPECT_STREQ(c.info.preset_section, "papi-netburst sse");
}

TEST(MsrComponent, TheExactWritesOfOneEventOnEachLogicalProcessor) {
    FakeMachine m;
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {"instr_retired:NBOGUSNTAG"}), NB_STATUS_OK);
    m.clear_log();
    ASSERT_EQ(start(&set), NB_STATUS_OK);
    const std::vector<Access> expected = {{true, 0, 0x3B8, kInstrRetiredT0},
                                          {true, 0, 0x30C, 0},
                                          {true, 0, 0x30C, 0},  // erratum N15
                                          {true, 0, 0x36C, kCccrCru01}};
    EXPECT_EQ(m.writes(), expected);
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    nb_thread_shutdown(nullptr);

    // The same event from CPU 2: package 0's registers, with the T1 bits.
    m.placement().current_cpu = 2;
    ASSERT_EQ(make_set(&set, {"instr_retired:NBOGUSNTAG"}), NB_STATUS_OK);
    EXPECT_EQ(set.logical_processor, 1u);
    m.clear_log();
    ASSERT_EQ(start(&set), NB_STATUS_OK);
    const std::vector<Access> expected_t1 = {{true, 2, 0x3B8, kInstrRetiredT1},
                                             {true, 2, 0x30C, 0},
                                             {true, 2, 0x30C, 0},
                                             {true, 2, 0x36C, kCccrCru01}};
    EXPECT_EQ(m.writes(), expected_t1);
    EXPECT_EQ(m.get(0, 0x3B8), kInstrRetiredT1);
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
}

TEST(MsrComponent, TaggingMsrsAndEscrsAreWrittenBeforeAnyCccrEnable) {
    FakeMachine m;
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    const std::vector<std::vector<std::string>> sets = {
        {"1stL_cache_load_miss_retired", "instr_retired:NBOGUSNTAG", "global_power_events:RUNNING"},
        {"x87_FP_retired", "branch_retired:MMTP:MMTM", "BSQ_cache_reference:RD_2ndL_HITS"},
        {"memory_loads", "mispred_branch_retired:BOGUS", "uop_queue_writes:FROM_TC_BUILD:FROM_TC_DELIVER"},
    };
    for (const auto& names : sets) {
        nb_event_set set;
        std::string why;
        ASSERT_EQ(make_set(&set, names, kUser, &why), NB_STATUS_OK) << why;
        m.clear_log();
        ASSERT_EQ(start(&set, &why), NB_STATUS_OK) << why;
        const std::vector<Access> w = m.writes();
        // The writes are exactly the encoder's start program, counters doubled.
        std::vector<Access> expected;
        for (unsigned i = 0; i < set.num_start_writes; ++i) {
            const nb_msr_write& sw = set.start_writes[i];
            expected.push_back({true, 0, sw.msr, sw.value});
            if (sw.msr >= 0x300 && sw.msr < 0x300 + kNumCounters) expected.push_back({true, 0, sw.msr, sw.value});
        }
        EXPECT_EQ(w, expected) << names[0];
        std::size_t first_enable = w.size(), last_setup = 0;
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (enables(w[i]) && first_enable == w.size()) first_enable = i;
            if (is_escr(w[i].msr) || w[i].msr == kMsrPebsEnable || w[i].msr == kMsrPebsMatrixVert) last_setup = i;
        }
        ASSERT_LT(first_enable, w.size()) << names[0];
        EXPECT_LT(last_setup, first_enable) << names[0] << ": an ESCR or tagging MSR written after a CCCR enable";
        for (const Access& a : w) EXPECT_NE(a.msr, 0x361u) << "counter 1: CCCR1 erratum";
        if (names[0] == "1stL_cache_load_miss_retired") {
            EXPECT_EQ(w[0], (Access{true, 0, kMsrPebsEnable, 0x01000001}));
            EXPECT_EQ(w[1], (Access{true, 0, kMsrPebsMatrixVert, 1}));
        }
        ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    }
}

TEST(MsrComponent, CountsAreExtendedTo64BitsThroughTheOvfFlag) {
    FakeMachine m;
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {"instr_retired:NBOGUSNTAG"}), NB_STATUS_OK);
    ASSERT_EQ(start(&set), NB_STATUS_OK);
    m.set(0, 0x30C, 12345);  // the hardware counted
    ASSERT_EQ(nb_event_set_read(&set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], 12345);
    // The counter wrapped past 2^40 and ended at 100; the sticky OVF flag says so.
    m.set(0, 0x30C, 100);
    m.set(0, 0x36C, kCccrCru01 | (1ull << kCccrOvfBit));
    ASSERT_EQ(nb_event_set_read(&set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], (1ll << 40) + 100);
    EXPECT_EQ(m.get(0, 0x36C), kCccrCru01) << "the flag is acknowledged";
    // A wrap that ends at or above the previous value shows only in the flag.
    m.set(0, 0x30C, 5000);
    m.set(0, 0x36C, kCccrCru01 | (1ull << kCccrOvfBit));
    ASSERT_EQ(nb_event_set_read(&set), NB_STATUS_OK);
    EXPECT_EQ(set.values[0], (2ll << 40) + 5000);
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
    EXPECT_EQ(m.get(0, 0x36C), 0u) << "stopped";
}

TEST(MsrComponent, CountersOtherSoftwareHoldsAreAvoidedAndExplained) {
    FakeMachine m;
    constexpr std::uint64_t kWatchdog = (1ull << 12) | (6ull << 13) | (3ull << 16);  // FSB ESCR (6), enabled
    m.set(0, 0x360, kWatchdog);  // counter 0 on FSB_ESCR0: Linux's NMI watchdog on logical processor 0
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    nb_event_set set;
    std::string why;
    // global_power_events moves to FSB_ESCR1, on counter 2 (0 is taken, 1 is the erratum's).
    ASSERT_EQ(make_set(&set, {"global_power_events:RUNNING"}, kUser, &why), NB_STATUS_OK) << why;
    m.clear_log();
    ASSERT_EQ(start(&set), NB_STATUS_OK);
    for (const Access& a : m.writes()) {
        EXPECT_NE(a.msr, 0x360u) << "the watchdog's CCCR";
        EXPECT_NE(a.msr, 0x300u) << "the watchdog's counter";
        EXPECT_NE(a.msr, 0x3A2u) << "the watchdog's ESCR";
    }
    EXPECT_EQ(m.get(0, 0x360), kWatchdog);
    EXPECT_EQ(m.get(0, 0x3A3) >> 25, 0x13u) << "global_power_events on FSB_ESCR1";
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);

    // With the other logical processor's watchdog too (counter 2 on FSB_ESCR1), no FSB ESCR is left.
    m.set(0, 0x362, kWatchdog);
    EXPECT_EQ(make_set(&set, {"global_power_events:RUNNING"}, kUser, &why), NB_STATUS_CONFLICT);
    EXPECT_NE(why.find("enabled by other software"), std::string::npos) << why;
    EXPECT_NE(why.find("erratum"), std::string::npos) << why;
}

TEST(MsrComponent, TheCccr1ErratumCostsABpuCounter) {
    FakeMachine m;
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    nb_event_set set;
    std::string why;
    const std::vector<std::string> three = {"BPU_fetch_request:TCMISS", "ITLB_reference:HIT",
                                            "page_walk_type:DTMISS"};
    ASSERT_EQ(make_set(&set, three, kUser, &why), NB_STATUS_OK) << why;
    for (unsigned i = 0; i < set.num_events; ++i) EXPECT_NE(set.counter_of[i], 1) << three[i];
    std::vector<std::string> four = three;
    four.push_back("BSQ_cache_reference:RD_2ndL_HITS");
    EXPECT_EQ(make_set(&set, four, kUser, &why), NB_STATUS_CONFLICT) << "the emulator fits four; here three";
    EXPECT_NE(why.find("counter 1 (MSR_BPU_CCCR1) is never used"), std::string::npos) << why;
}

TEST(MsrComponent, AStartMeetsACounterEnabledSinceSchedulingAndWritesNothing) {
    FakeMachine m;
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {"instr_retired:NBOGUSNTAG"}), NB_STATUS_OK);
    m.set(0, 0x36C, (1ull << 12) | (5ull << 13) | (3ull << 16));  // another tool took counter 12 meanwhile
    const std::vector<std::uint64_t> before = m.registers();
    m.clear_log();
    std::string why;
    EXPECT_EQ(start(&set, &why), NB_STATUS_CONFLICT);
    EXPECT_NE(why.find("counters 12 were enabled by other software"), std::string::npos) << why;
    EXPECT_TRUE(m.writes().empty());
    EXPECT_EQ(m.registers(), before);
}

TEST(MsrComponent, AttachedSetsCountTheirCpuFromAnyThread) {
    FakeMachine m;
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    nb_event_set on3, on2;
    ASSERT_EQ(make_set(&on3, {"instr_retired:NBOGUSNTAG"}), NB_STATUS_OK);
    EXPECT_EQ(on3.logical_processor, 0u) << "scheduled for the calling thread's CPU 0 first";
    char why[NB_REASON_LEN] = "";
    ASSERT_EQ(nb_event_set_attach_cpu(&on3, 3, why, sizeof why), NB_STATUS_OK) << why;
    EXPECT_EQ(on3.attached_cpu, 3);
    EXPECT_EQ(on3.logical_processor, 1u) << "CPU 3 is thread 1 of package 1";
    EXPECT_EQ(nb_event_set_attach_cpu(&on3, 8, why, sizeof why), NB_STATUS_INVALID);
    EXPECT_NE(std::string(why).find("CPU 8 does not exist"), std::string::npos) << why;
    m.clear_log();
    ASSERT_EQ(start(&on3), NB_STATUS_OK);
    for (const Access& a : m.writes()) EXPECT_EQ(a.cpu, 3u);
    EXPECT_EQ(m.get(1, 0x3B8), kInstrRetiredT1);
    EXPECT_EQ(m.get(0, 0x3B8), 0u);

    // CPU 2, package 0's second logical processor: instr_retired goes to CRU_ESCR1 there... or 0; and a set on
    // CPU 0 beside it must take the other CRU ESCR, because the package's registers are shared.
    ASSERT_EQ(make_set(&on2, {"instr_retired:NBOGUSNTAG"}), NB_STATUS_OK);
    ASSERT_EQ(nb_event_set_attach_cpu(&on2, 2, why, sizeof why), NB_STATUS_OK) << why;
    ASSERT_EQ(start(&on2), NB_STATUS_OK);
    nb_event_set on0;
    ASSERT_EQ(make_set(&on0, {"instr_retired:NBOGUSNTAG"}), NB_STATUS_OK);
    m.clear_log();
    ASSERT_EQ(start(&on0), NB_STATUS_OK);
    EXPECT_EQ(m.get(0, 0x3B8), kInstrRetiredT1) << "CPU 2's set";
    EXPECT_EQ(m.get(0, 0x3B9), kInstrRetiredT0) << "CPU 0's set, on the other CRU ESCR";
    EXPECT_EQ(m.get(0, 0x36E), kCccrCru01) << "counter 14, fed by CRU_ESCR1";
    m.set(0, 0x30C, 11);
    m.set(0, 0x30E, 22);
    ASSERT_EQ(nb_event_set_read(&on2), NB_STATUS_OK);
    ASSERT_EQ(nb_event_set_read(&on0), NB_STATUS_OK);
    EXPECT_EQ(on2.values[0], 11);
    EXPECT_EQ(on0.values[0], 22);
    for (nb_event_set* s : {&on0, &on2, &on3}) EXPECT_EQ(nb_event_set_stop(s, nullptr), NB_STATUS_OK);
}

TEST(MsrComponent, TheKernelDomainSetsTheOsBits) {
    FakeMachine m;
    Component c(m);
    ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
    nb_event_set set;
    ASSERT_EQ(make_set(&set, {"instr_retired:NBOGUSNTAG"}, kKernel), NB_STATUS_OK);
    ASSERT_EQ(start(&set), NB_STATUS_OK);
    EXPECT_EQ(m.get(0, 0x3B8), (0x02ull << 25) | (1ull << 9) | 0x8) << "T0_OS only";
    ASSERT_EQ(nb_event_set_stop(&set, nullptr), NB_STATUS_OK);
}

TEST(MsrComponent, ShutdownLeavesTheMachineAsItWasFound) {
    FakeMachine m;
    m.set(0, 0x3B8, 0x0600000C);  // left by a previous tool
    m.set(0, kMsrPebsEnable, 0x01000002);
    const std::vector<std::uint64_t> before = m.registers();
    {
        Component c(m);
        ASSERT_EQ(c.status, NB_STATUS_OK) << c.info.disabled_reason;
        nb_event_set set;
        ASSERT_EQ(make_set(&set, {"instr_retired:NBOGUSNTAG", "1stL_cache_load_miss_retired"}), NB_STATUS_OK);
        ASSERT_EQ(start(&set), NB_STATUS_OK);
        EXPECT_NE(m.registers(), before);
        // Still running at PAPI_shutdown.
        nb_thread_shutdown(nullptr);
    }
    EXPECT_EQ(m.registers(), before);
    EXPECT_EQ(m.placement().unpins, 1u) << "the thread got its CPU affinity back";
}
