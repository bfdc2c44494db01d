// Helpers for the PMU model tests: program the PMU the way software does (wrmsr with values built by the table's
// own encoders or taken from the thesis, doc/references.md) and feed it handcrafted Outcomes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <vector>

#include "emulator/pmu/pmu.h"
#include "table/events.h"
#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst::emu::test {

// ESCR T bits (registers.h layout).
constexpr unsigned T1_USR = 1, T1_OS = 2, T0_USR = 4, T0_OS = 8;
constexpr unsigned T0_ALL = T0_USR | T0_OS, T_ALL = 15;

constexpr std::uint32_t counter_msr(unsigned n) { return 0x300 + n; }
constexpr std::uint32_t cccr_msr(unsigned n) { return 0x360 + n; }
std::uint32_t escr_msr(const char* name);

const EventDef& event(const char* name);
unsigned mask_bit(const char* event_name, const char* mask);
std::uint16_t mask_bits(const char* event_name, std::initializer_list<const char*> masks);

// An ESCR value for `event` with the named masks and T bits; tag_value != 0 also sets Tag Enable.
std::uint64_t escr_value(const char* event_name, std::initializer_list<const char*> masks, unsigned tbits,
                         unsigned tag_value = 0);
// A CCCR value that enables counting of `event_name`'s ESCRs (its CCCR select), active thread ANY, plus `extra`.
std::uint64_t cccr_value(const char* event_name, CccrFields extra = CccrFields{});

// Guest memory as a map of bytes, for the DS area and PEBS records.
struct FakeMemory {
    std::map<std::uint64_t, std::uint8_t> bytes;
    GuestMemory view();
    void put64(std::uint64_t address, std::uint64_t value, unsigned size = 8);
    std::uint64_t get64(std::uint64_t address, unsigned size = 8) const;
};

// One instruction with one uop (last_of_instruction) retiring at `retire`; frontier = retire.
Outcome instruction(std::uint64_t pc, Cycle retire, unsigned thread = 0, unsigned cpl = 3);
// An instruction with no uops carrying one event occurrence, frontier = cycle.
Outcome event_at(Cycle cycle, EventId event, unsigned bit, unsigned count = 1, unsigned thread = 0, unsigned cpl = 3);

// The tests' PMU: the default machine, except that an imprecise PMI is taken at the event after the overflow, without
// the machine's skid, so that a test can say exactly when.
inline PmuConfig test_config() {
    PmuConfig c;
    c.machine.pmi_skid_cycles = 0;
    return c;
}

class PmuTest : public ::testing::Test {
protected:
    void SetUp() override { reset(test_config()); }
    void reset(const PmuConfig& config) {
        pmu = std::make_unique<Pmu>();
        pmu->reset(config);
    }
    void wrmsr(std::uint32_t msr, std::uint64_t value, Cycle now = 0, unsigned thread = 0) {
        ASSERT_EQ(pmu->write_msr(thread, msr, value, now), MsrResult::Ok) << std::hex << "msr 0x" << msr << " value 0x" << value;
    }
    std::uint64_t rdmsr(std::uint32_t msr, Cycle now = 0, unsigned thread = 0) {
        std::uint64_t v = ~0ull;
        EXPECT_EQ(pmu->read_msr(thread, msr, &v, now), MsrResult::Ok) << std::hex << "msr 0x" << msr;
        return v;
    }
    std::uint64_t counter(unsigned n, Cycle now = 0) { return rdmsr(counter_msr(n), now); }
    bool ovf(unsigned n) { return (rdmsr(cccr_msr(n)) >> kCccrOvfBit) & 1u; }
    // Programs counter n to count `event` on ESCR `escr` (e.g. "CRU_ESCR2").
    void program(unsigned n, const char* escr, const char* event_name, std::initializer_list<const char*> masks,
                 unsigned tbits = T0_ALL, CccrFields extra = CccrFields{}, Cycle now = 0) {
        wrmsr(escr_msr(escr), escr_value(event_name, masks, tbits), now);
        wrmsr(cccr_msr(n), cccr_value(event_name, extra), now);
    }
    void feed(const Outcome& o) { pmu->consume(o); }
    std::vector<PmiRecord> pmis() {
        std::vector<PmiRecord> out(64);
        out.resize(pmu->take_pmis(out.data(), static_cast<unsigned>(out.size())));
        return out;
    }

    std::unique_ptr<Pmu> pmu;
};

}  // namespace netburst::emu::test
