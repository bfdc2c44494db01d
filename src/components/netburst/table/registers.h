// Bit layouts of the ESCR and CCCR registers (SDM Vol. 3B 18.15.3 and 18.15.4), with encoders, decoders and
// reserved-bit checks. Freestanding-safe: the emulator decodes guest MSR writes with these same functions.
#pragma once

#include <cstdint>

#include "table/msr_map.h"

namespace netburst {

// ESCR: bits 0-3 select thread and privilege (T1_USR, T1_OS, T0_USR, T0_OS), bit 4 enables tagging, bits 8:5 hold
// the tag value, bits 24:9 the event mask and bits 30:25 the event select. Bit 31 and bits 63:32 are reserved.
// (Some SDM event tables write ESCR[31:25]; the layout figure and every implementation use 30:25.)
struct EscrFields {
    bool t1_usr = false;
    bool t1_os = false;
    bool t0_usr = false;
    bool t0_os = false;
    bool tag_enable = false;
    std::uint8_t tag_value = 0;    // 4 bits
    std::uint16_t event_mask = 0;  // 16 bits
    std::uint8_t event_select = 0; // 6 bits
};

constexpr std::uint64_t kEscrReservedMask = 0xFFFFFFFF80000000ull;

std::uint64_t encode_escr(const EscrFields& f);
EscrFields decode_escr(std::uint64_t value);

// CCCR: bit 12 enable, 15:13 ESCR select, 17:16 active thread, 18 compare, 19 complement, 23:20 threshold,
// 24 edge, 25 FORCE_OVF, 26 OVF_PMI_T0, 27 OVF_PMI_T1, 30 cascade, 31 OVF. Bits 11:0, 29:28 and 63:32 are
// reserved, except bit 11 of the six IQ CCCRs on models 2, 3, 4 and 6, which controls extended cascading
// (SDM 18.15.5.7).
enum class ActiveThread : std::uint8_t { None = 0, Single = 1, Both = 2, Any = 3 };

struct CccrFields {
    bool extended_cascade = false;  // bit 11, IQ CCCRs on models 2, 3, 4, 6 only
    bool enable = false;
    std::uint8_t escr_select = 0;  // 3 bits
    ActiveThread active_thread = ActiveThread::Any;
    bool compare = false;
    bool complement = false;
    std::uint8_t threshold = 0;  // 4 bits
    bool edge = false;
    bool force_ovf = false;
    bool ovf_pmi_t0 = false;
    bool ovf_pmi_t1 = false;
    bool cascade = false;
    bool ovf = false;
};

constexpr unsigned kCccrEnableBit = 12;
constexpr unsigned kCccrMaxThreshold = 15;
constexpr unsigned kCccrOvfBit = 31;
constexpr unsigned kCccrExtendedCascadeBit = 11;

std::uint64_t encode_cccr(const CccrFields& f);
CccrFields decode_cccr(std::uint64_t value);

// The reserved bits of counter `counter`'s CCCR on `model`; a write that sets any of them is a #GP on hardware.
std::uint64_t cccr_reserved_mask(unsigned counter, unsigned model);

// Writing a counter's bits above its 40 is a #GP.
constexpr std::uint64_t kCounterReservedMask = ~kCounterValueMask;

}  // namespace netburst
