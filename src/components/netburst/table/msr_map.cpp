// Data for msr_map.h. Addresses and ESCR numbers: SDM Vol. 3B Table 18-63 and the family 0FH MSR table.
#include "table/msr_map.h"

#include "table/ascii.h"

namespace netburst {

namespace {

constexpr CounterDef counter(const char* name, const char* cccr, std::uint32_t index, Block block, std::uint8_t side) {
    return CounterDef{name, cccr, 0x300 + index, 0x360 + index, block, side};
}

constexpr EscrDef escr(const char* name, std::uint32_t msr, Block block, std::uint8_t select, std::uint8_t side,
                       ModelSet models = kAllModels) {
    return EscrDef{name, msr, block, select, side, counters_of_side(block, side), models};
}

}  // namespace

extern constexpr CounterDef kCounters[kNumCounters] = {
    counter("MSR_BPU_COUNTER0", "MSR_BPU_CCCR0", 0, Block::BPU, 0),
    counter("MSR_BPU_COUNTER1", "MSR_BPU_CCCR1", 1, Block::BPU, 0),
    counter("MSR_BPU_COUNTER2", "MSR_BPU_CCCR2", 2, Block::BPU, 1),
    counter("MSR_BPU_COUNTER3", "MSR_BPU_CCCR3", 3, Block::BPU, 1),
    counter("MSR_MS_COUNTER0", "MSR_MS_CCCR0", 4, Block::MS, 0),
    counter("MSR_MS_COUNTER1", "MSR_MS_CCCR1", 5, Block::MS, 0),
    counter("MSR_MS_COUNTER2", "MSR_MS_CCCR2", 6, Block::MS, 1),
    counter("MSR_MS_COUNTER3", "MSR_MS_CCCR3", 7, Block::MS, 1),
    counter("MSR_FLAME_COUNTER0", "MSR_FLAME_CCCR0", 8, Block::FLAME, 0),
    counter("MSR_FLAME_COUNTER1", "MSR_FLAME_CCCR1", 9, Block::FLAME, 0),
    counter("MSR_FLAME_COUNTER2", "MSR_FLAME_CCCR2", 10, Block::FLAME, 1),
    counter("MSR_FLAME_COUNTER3", "MSR_FLAME_CCCR3", 11, Block::FLAME, 1),
    counter("MSR_IQ_COUNTER0", "MSR_IQ_CCCR0", 12, Block::IQ, 0),
    counter("MSR_IQ_COUNTER1", "MSR_IQ_CCCR1", 13, Block::IQ, 0),
    counter("MSR_IQ_COUNTER2", "MSR_IQ_CCCR2", 14, Block::IQ, 1),
    counter("MSR_IQ_COUNTER3", "MSR_IQ_CCCR3", 15, Block::IQ, 1),
    counter("MSR_IQ_COUNTER4", "MSR_IQ_CCCR4", 16, Block::IQ, 0),
    counter("MSR_IQ_COUNTER5", "MSR_IQ_CCCR5", 17, Block::IQ, 1),
};

// ESCR select numbers per block: BPU 0, IS 1, MOB 2, ITLB 3, PMH 4, IX 5, FSB 6, BSU 7; MS 0, TC 1, TBPU 2;
// FLAME 0, FIRM 1, SAAT 2, U2L 3, DAC 5; IQ 0, ALF 1, RAT 2, SSU 3, CRU0/1 4, CRU2/3 5, CRU4/5 6.
extern constexpr EscrDef kEscrs[kNumEscrs] = {
    escr("MSR_BSU_ESCR0", 0x3A0, Block::BPU, 7, 0),
    escr("MSR_BSU_ESCR1", 0x3A1, Block::BPU, 7, 1),
    escr("MSR_FSB_ESCR0", 0x3A2, Block::BPU, 6, 0),
    escr("MSR_FSB_ESCR1", 0x3A3, Block::BPU, 6, 1),
    escr("MSR_FIRM_ESCR0", 0x3A4, Block::FLAME, 1, 0),
    escr("MSR_FIRM_ESCR1", 0x3A5, Block::FLAME, 1, 1),
    escr("MSR_FLAME_ESCR0", 0x3A6, Block::FLAME, 0, 0),
    escr("MSR_FLAME_ESCR1", 0x3A7, Block::FLAME, 0, 1),
    escr("MSR_DAC_ESCR0", 0x3A8, Block::FLAME, 5, 0),
    escr("MSR_DAC_ESCR1", 0x3A9, Block::FLAME, 5, 1),
    escr("MSR_MOB_ESCR0", 0x3AA, Block::BPU, 2, 0),
    escr("MSR_MOB_ESCR1", 0x3AB, Block::BPU, 2, 1),
    escr("MSR_PMH_ESCR0", 0x3AC, Block::BPU, 4, 0),
    escr("MSR_PMH_ESCR1", 0x3AD, Block::BPU, 4, 1),
    escr("MSR_SAAT_ESCR0", 0x3AE, Block::FLAME, 2, 0),
    escr("MSR_SAAT_ESCR1", 0x3AF, Block::FLAME, 2, 1),
    escr("MSR_U2L_ESCR0", 0x3B0, Block::FLAME, 3, 0),
    escr("MSR_U2L_ESCR1", 0x3B1, Block::FLAME, 3, 1),
    escr("MSR_BPU_ESCR0", 0x3B2, Block::BPU, 0, 0),
    escr("MSR_BPU_ESCR1", 0x3B3, Block::BPU, 0, 1),
    escr("MSR_IS_ESCR0", 0x3B4, Block::BPU, 1, 0),
    escr("MSR_IS_ESCR1", 0x3B5, Block::BPU, 1, 1),
    escr("MSR_ITLB_ESCR0", 0x3B6, Block::BPU, 3, 0),
    escr("MSR_ITLB_ESCR1", 0x3B7, Block::BPU, 3, 1),
    escr("MSR_CRU_ESCR0", 0x3B8, Block::IQ, 4, 0),
    escr("MSR_CRU_ESCR1", 0x3B9, Block::IQ, 4, 1),
    // IQ_ESCR0/1: the SDM MSR table lists them for models 0, 1 and 2; its text (and Linux) say models 1 and 2.
    // We follow the MSR table, the more specific of the two SDM statements. No event in Tables 19-28/19-29 uses them.
    escr("MSR_IQ_ESCR0", 0x3BA, Block::IQ, 0, 0, kModels0To2),
    escr("MSR_IQ_ESCR1", 0x3BB, Block::IQ, 0, 1, kModels0To2),
    escr("MSR_RAT_ESCR0", 0x3BC, Block::IQ, 2, 0),
    escr("MSR_RAT_ESCR1", 0x3BD, Block::IQ, 2, 1),
    // There is no SSU_ESCR1 in the SDM (Linux defines 0x3BF as a guess); select 3 on the odd IQ side is unused.
    escr("MSR_SSU_ESCR0", 0x3BE, Block::IQ, 3, 0),
    escr("MSR_MS_ESCR0", 0x3C0, Block::MS, 0, 0),
    escr("MSR_MS_ESCR1", 0x3C1, Block::MS, 0, 1),
    escr("MSR_TBPU_ESCR0", 0x3C2, Block::MS, 2, 0),
    escr("MSR_TBPU_ESCR1", 0x3C3, Block::MS, 2, 1),
    escr("MSR_TC_ESCR0", 0x3C4, Block::MS, 1, 0),
    escr("MSR_TC_ESCR1", 0x3C5, Block::MS, 1, 1),
    escr("MSR_IX_ESCR0", 0x3C8, Block::BPU, 5, 0),
    escr("MSR_IX_ESCR1", 0x3C9, Block::BPU, 5, 1),
    escr("MSR_ALF_ESCR0", 0x3CA, Block::IQ, 1, 0),
    escr("MSR_ALF_ESCR1", 0x3CB, Block::IQ, 1, 1),
    escr("MSR_CRU_ESCR2", 0x3CC, Block::IQ, 5, 0),
    escr("MSR_CRU_ESCR3", 0x3CD, Block::IQ, 5, 1),
    escr("MSR_CRU_ESCR4", 0x3E0, Block::IQ, 6, 0),
    escr("MSR_CRU_ESCR5", 0x3E1, Block::IQ, 6, 1),
};

const char* block_name(Block block) {
    switch (block) {
    case Block::BPU: return "BPU";
    case Block::MS: return "MS";
    case Block::FLAME: return "FLAME";
    case Block::IQ: return "IQ";
    }
    return "?";
}

EscrId escr_for_cccr_select(unsigned counter, unsigned select, unsigned model) {
    if (counter >= kNumCounters) return EscrId::None;
    const CounterDef& c = kCounters[counter];
    for (unsigned i = 0; i < kNumEscrs; ++i) {
        const EscrDef& e = kEscrs[i];
        if (e.block == c.block && e.side == c.side && e.select == select && model_in(e.models, model))
            return static_cast<EscrId>(i);
    }
    return EscrId::None;
}

bool lookup_msr(std::uint32_t address, unsigned model, MsrRef* out) {
    if (address >= 0x300 && address < 0x300 + kNumCounters) {
        *out = MsrRef{MsrKind::Counter, static_cast<std::uint8_t>(address - 0x300)};
        return true;
    }
    if (address >= 0x360 && address < 0x360 + kNumCounters) {
        *out = MsrRef{MsrKind::Cccr, static_cast<std::uint8_t>(address - 0x360)};
        return true;
    }
    for (unsigned i = 0; i < kNumEscrs; ++i) {
        if (kEscrs[i].msr == address) {
            if (!model_in(kEscrs[i].models, model)) return false;
            *out = MsrRef{MsrKind::Escr, static_cast<std::uint8_t>(i)};
            return true;
        }
    }
    switch (address) {
    case kMsrPebsEnable: *out = MsrRef{MsrKind::PebsEnable, 0}; return true;
    case kMsrPebsMatrixVert: *out = MsrRef{MsrKind::PebsMatrixVert, 0}; return true;
    case kMsrTcPreciseEvent: *out = MsrRef{MsrKind::TcPreciseEvent, 0}; return true;
    case kMsrMiscEnable: *out = MsrRef{MsrKind::MiscEnable, 0}; return true;
    case kMsrDsArea: *out = MsrRef{MsrKind::DsArea, 0}; return true;
    default: return false;
    }
}

const char* msr_name(std::uint32_t address) {
    if (address >= 0x300 && address < 0x300 + kNumCounters) return kCounters[address - 0x300].counter_name;
    if (address >= 0x360 && address < 0x360 + kNumCounters) return kCounters[address - 0x360].cccr_name;
    for (const EscrDef& e : kEscrs)
        if (e.msr == address) return e.name;
    switch (address) {
    case kMsrPebsEnable: return "IA32_PEBS_ENABLE";
    case kMsrPebsMatrixVert: return "MSR_PEBS_MATRIX_VERT";
    case kMsrTcPreciseEvent: return "MSR_TC_PRECISE_EVENT";
    case kMsrMiscEnable: return "IA32_MISC_ENABLE";
    case kMsrDsArea: return "IA32_DS_AREA";
    default: return nullptr;
    }
}

EscrId find_escr(const char* name) {
    for (unsigned i = 0; i < kNumEscrs; ++i) {
        const char* full = kEscrs[i].name;
        if (ascii_iequal(name, full) || ascii_iequal(name, full + 4)) return static_cast<EscrId>(i);
    }
    return EscrId::None;
}

}  // namespace netburst
