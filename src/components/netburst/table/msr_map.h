// The NetBurst PMU register file as data: 18 counters with their CCCRs, 45 ESCRs, and the tagging and PEBS MSRs.
//
// Source: Intel SDM Vol. 3B Table 18-63 (ESCR/counter/CCCR map) and the family 0FH MSR table (Table 35-41 in the
// 2016 edition). Everything that needs an address, an ESCR number or the counters an ESCR feeds reads it from here:
// the allocator, the encoder, the MSR backend's allow-list and the emulator's register decoder.
//
// This header and its .cpp are freestanding-safe (no allocation, no exceptions, constant-initialised data) because
// the emulator links them into a Valgrind tool, which has no C++ runtime.
#pragma once

#include <cstdint>

#include "table/cpu_model.h"

namespace netburst {

// The four counter blocks. Each block has its own set of ESCRs; a CCCR can only select ESCRs of its block.
enum class Block : std::uint8_t { BPU, MS, FLAME, IQ };
constexpr unsigned kNumBlocks = 4;
const char* block_name(Block block);

constexpr unsigned kNumCounters = 18;
constexpr unsigned kNumEscrs = 45;
constexpr unsigned kCounterWidthBits = 40;
constexpr std::uint64_t kCounterValueMask = (std::uint64_t{1} << kCounterWidthBits) - 1;

// The counter value from which the threshold-th event wraps the 40-bit counter: the overflow, and with OVF_PMI its
// interrupt.
constexpr std::uint64_t overflow_start_value(std::uint64_t threshold) {
    return ((std::uint64_t{1} << kCounterWidthBits) - threshold) & kCounterValueMask;
}
// A PEBS counter's start and reload value: the record is written by the first event after the overflow (and that
// event is not counted), so period - 1 counted events and the sampled one make a period.
constexpr std::uint64_t pebs_start_value(std::uint64_t period) { return overflow_start_value(period - 1); }

// A counter started for an overflow begins in the upper half of its range (at most 2^39 events short of the wrap),
// so a value in the lower half has wrapped since it was started: an x86 PMI handler's test of the top bit.
constexpr bool wrapped_since_start(std::uint64_t value) {
    return (value & kCounterValueMask) < (std::uint64_t{1} << (kCounterWidthBits - 1));
}

// The value that restarts a counter of `period` events after its overflow, read as `value`: the events it counted
// past the wrap (the overrun) belong to the next period, which ends period minus overrun events on; a period or
// more of overrun skips to the period after, and two or more start a fresh period.
constexpr std::uint64_t overflow_reload_value(std::uint64_t period, std::uint64_t value) {
    const std::int64_t whole = static_cast<std::int64_t>(period);
    const std::int64_t overrun = wrapped_since_start(value) ? static_cast<std::int64_t>(value & kCounterValueMask) : 0;
    std::int64_t rest = whole - overrun;
    if (rest <= -whole) rest = whole;
    else if (rest <= 0) rest += whole;
    return overflow_start_value(static_cast<std::uint64_t>(rest));
}

// The counters an ESCR or a block can reach, as a bitmask over counter numbers 0-17.
using CounterMask = std::uint32_t;
constexpr CounterMask counter_bit(unsigned counter) { return CounterMask{1} << counter; }
constexpr CounterMask kAllCounters = (CounterMask{1} << kNumCounters) - 1;

struct CounterDef {
    const char* counter_name;  // MSR_BPU_COUNTER0
    const char* cccr_name;     // MSR_BPU_CCCR0
    std::uint32_t counter_msr;
    std::uint32_t cccr_msr;
    Block block;
    std::uint8_t side;  // 0: fed by the ESCRn0 side of its block; 1: fed by the ESCRn1 side
};
extern const CounterDef kCounters[kNumCounters];

// ESCRs in MSR address order. The enumerator order is part of the table: kEscrs[id] describes id.
enum class EscrId : std::uint8_t {
    BSU_ESCR0, BSU_ESCR1, FSB_ESCR0, FSB_ESCR1, FIRM_ESCR0, FIRM_ESCR1, FLAME_ESCR0, FLAME_ESCR1,
    DAC_ESCR0, DAC_ESCR1, MOB_ESCR0, MOB_ESCR1, PMH_ESCR0, PMH_ESCR1, SAAT_ESCR0, SAAT_ESCR1,
    U2L_ESCR0, U2L_ESCR1, BPU_ESCR0, BPU_ESCR1, IS_ESCR0, IS_ESCR1, ITLB_ESCR0, ITLB_ESCR1,
    CRU_ESCR0, CRU_ESCR1, IQ_ESCR0, IQ_ESCR1, RAT_ESCR0, RAT_ESCR1, SSU_ESCR0,
    MS_ESCR0, MS_ESCR1, TBPU_ESCR0, TBPU_ESCR1, TC_ESCR0, TC_ESCR1, IX_ESCR0, IX_ESCR1,
    ALF_ESCR0, ALF_ESCR1, CRU_ESCR2, CRU_ESCR3, CRU_ESCR4, CRU_ESCR5,
    None = 0xFF,
};
constexpr unsigned escr_index(EscrId id) { return static_cast<unsigned>(id); }

struct EscrDef {
    const char* name;  // MSR_BSU_ESCR0
    std::uint32_t msr;
    Block block;
    std::uint8_t select;  // the value a CCCR writes into its ESCR-select field (bits 15:13) to use this ESCR
    std::uint8_t side;    // 0 for the ESCRn0 (even) side, 1 for the ESCRn1 (odd) side
    CounterMask counters;
    ModelSet models;  // models that implement this ESCR
};
extern const EscrDef kEscrs[kNumEscrs];

// The counters fed by one side of one block (SDM Table 18-63): BPU 0,1 | 2,3; MS 4,5 | 6,7; FLAME 8,9 | 10,11;
// IQ 12,13,16 | 14,15,17.
constexpr CounterMask counters_of_side(Block block, unsigned side) {
    switch (block) {
    case Block::BPU: return side == 0 ? (counter_bit(0) | counter_bit(1)) : (counter_bit(2) | counter_bit(3));
    case Block::MS: return side == 0 ? (counter_bit(4) | counter_bit(5)) : (counter_bit(6) | counter_bit(7));
    case Block::FLAME: return side == 0 ? (counter_bit(8) | counter_bit(9)) : (counter_bit(10) | counter_bit(11));
    case Block::IQ:
        return side == 0 ? (counter_bit(12) | counter_bit(13) | counter_bit(16))
                         : (counter_bit(14) | counter_bit(15) | counter_bit(17));
    }
    return 0;
}

// The ESCR that counter `counter` reads when its CCCR's ESCR-select field holds `select`, or EscrId::None when no
// ESCR of that number feeds the counter (select 4 in the FLAME block, or an ESCR absent on `model`).
EscrId escr_for_cccr_select(unsigned counter, unsigned select, unsigned model);

// Tagging, PEBS and feature MSRs.
constexpr std::uint32_t kMsrMiscEnable = 0x1A0;      // IA32_MISC_ENABLE: bit 7 PMU available, bit 12 PEBS unavailable
constexpr std::uint32_t kMsrTcPreciseEvent = 0x3F0;  // MSR_TC_PRECISE_EVENT: front-end tagging of trace-cache events
constexpr std::uint32_t kMsrPebsEnable = 0x3F1;      // IA32_PEBS_ENABLE: replay-tag selects, UOP_TAG, PEBS enables
constexpr std::uint32_t kMsrPebsMatrixVert = 0x3F2;  // MSR_PEBS_MATRIX_VERT: which uop kinds replay tagging watches
constexpr std::uint32_t kMsrDsArea = 0x600;          // IA32_DS_AREA: linear address of the DS save area

constexpr unsigned kMiscEnablePmuAvailableBit = 7;
constexpr unsigned kMiscEnablePebsUnavailableBit = 12;

// IA32_PEBS_ENABLE bits. Bits 0-2, 9, 10, 15 and 16 select the replay event a metric tags (Table 19-33).
constexpr unsigned kPebsEnableUopTagBit = 24;     // enables replay tagging
constexpr unsigned kPebsEnableMyThreadBit = 25;   // ENABLE_PEBS (ENABLE_PEBS_MY_THR with Hyper-Threading)
constexpr unsigned kPebsEnableOtherThreadBit = 26;  // ENABLE_PEBS_OTH_THR, Hyper-Threading only
constexpr std::uint64_t kPebsEnableWritableMask = 0x07018607;
// The counter that drives PEBS for logical processor 0: IQ_COUNTER4 (SDM 18.15.7; IQ_COUNTER5, 17, for logical
// processor 1 with Hyper-Threading).
constexpr unsigned kPebsCounterThread0 = 16;
// The PEBS half of the DS save area (SDM 17.4.9) and the PEBS record (18.15.7), in the processor's two layouts:
// IA-32e mode's, with 8-byte fields from 20H and records of 18 fields of 8 bytes (EFLAGS, EIP, EAX, EBX, ECX, EDX,
// ESI, EDI, EBP, ESP, R8-R15), and the 32-bit one, with 4-byte fields from 10H and records of 10 fields of 4 bytes
// (EFLAGS to ESP). The counter-reset value follows the threshold in both; it is read as 8 bytes in both (the counter
// is 40 bits; the 32-bit layout's width of it is not verified, doc/emulator-pmu.md).
struct DsLayout {
    unsigned field_bytes;         // a pointer field, and a record's field
    unsigned pebs_base;           // PEBS buffer base
    unsigned pebs_index;          // where the next record goes
    unsigned pebs_maximum;        // absolute maximum: one past the last record
    unsigned pebs_threshold;      // interrupt threshold
    unsigned pebs_counter_reset;  // the value the PEBS counter reloads with after a record (8 bytes)
    unsigned management_bytes;    // the management area; the component's buffer follows it
    unsigned record_fields;
    constexpr unsigned record_bytes() const { return record_fields * field_bytes; }
};
constexpr DsLayout kDsLayout64{8, 0x20, 0x28, 0x30, 0x38, 0x40, 0x48, 18};
constexpr DsLayout kDsLayout32{4, 0x10, 0x14, 0x18, 0x1c, 0x20, 0x28, 10};
// The layout of a program built for this architecture: what a 64-bit libpapi sets up and the tool's amd64 build
// writes, or a 32-bit libpapi and the x86 build (a 32-bit program runs the processor in 32-bit mode).
constexpr DsLayout kDsLayoutNative = sizeof(void*) == 8 ? kDsLayout64 : kDsLayout32;
constexpr unsigned kDsFieldBytes = kDsLayoutNative.field_bytes;
constexpr unsigned kDsPebsBase = kDsLayoutNative.pebs_base;
constexpr unsigned kDsPebsIndex = kDsLayoutNative.pebs_index;
constexpr unsigned kDsPebsMaximum = kDsLayoutNative.pebs_maximum;
constexpr unsigned kDsPebsThreshold = kDsLayoutNative.pebs_threshold;
constexpr unsigned kDsPebsCounterReset = kDsLayoutNative.pebs_counter_reset;
constexpr unsigned kDsManagementBytes = kDsLayoutNative.management_bytes;
constexpr unsigned kPebsRecordFields = kDsLayoutNative.record_fields;
constexpr unsigned kPebsRecordBytes = kDsLayoutNative.record_bytes();
// MSR_PEBS_MATRIX_VERT bits: 0 loads, 1 stores, 4 tagged mispredicted branches.
constexpr std::uint64_t kMatrixVertWritableMask = 0x13;

// What an MSR address is, for decoders and allow-lists.
enum class MsrKind : std::uint8_t { Counter, Cccr, Escr, PebsEnable, PebsMatrixVert, TcPreciseEvent, MiscEnable, DsArea };
struct MsrRef {
    MsrKind kind;
    std::uint8_t index;  // counter number for Counter/Cccr, escr_index() for Escr, 0 otherwise
};

// Looks an address up among the PMU MSRs that exist on `model`. Returns false for anything else.
bool lookup_msr(std::uint32_t address, unsigned model, MsrRef* out);

// The SDM name of a PMU MSR ("MSR_CRU_ESCR2"), or nullptr when the address is not a PMU MSR of any model.
const char* msr_name(std::uint32_t address);

// Looks an ESCR up by name, with or without the "MSR_" prefix, case-insensitively.
EscrId find_escr(const char* name);

}  // namespace netburst
