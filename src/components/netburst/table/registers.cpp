#include "table/registers.h"

#include "table/cpu_model.h"
#include "table/msr_map.h"

namespace netburst {

namespace {
constexpr std::uint64_t bit(bool on, unsigned pos) { return on ? (std::uint64_t{1} << pos) : 0; }
constexpr std::uint64_t field(std::uint64_t value, unsigned pos, unsigned width) {
    return (value & ((std::uint64_t{1} << width) - 1)) << pos;
}
constexpr std::uint64_t extract(std::uint64_t value, unsigned pos, unsigned width) {
    return (value >> pos) & ((std::uint64_t{1} << width) - 1);
}
}  // namespace

std::uint64_t encode_escr(const EscrFields& f) {
    return bit(f.t1_usr, 0) | bit(f.t1_os, 1) | bit(f.t0_usr, 2) | bit(f.t0_os, 3) | bit(f.tag_enable, 4) |
           field(f.tag_value, 5, 4) | field(f.event_mask, 9, 16) | field(f.event_select, 25, 6);
}

EscrFields decode_escr(std::uint64_t v) {
    EscrFields f;
    f.t1_usr = extract(v, 0, 1);
    f.t1_os = extract(v, 1, 1);
    f.t0_usr = extract(v, 2, 1);
    f.t0_os = extract(v, 3, 1);
    f.tag_enable = extract(v, 4, 1);
    f.tag_value = static_cast<std::uint8_t>(extract(v, 5, 4));
    f.event_mask = static_cast<std::uint16_t>(extract(v, 9, 16));
    f.event_select = static_cast<std::uint8_t>(extract(v, 25, 6));
    return f;
}

std::uint64_t encode_cccr(const CccrFields& f) {
    return bit(f.extended_cascade, kCccrExtendedCascadeBit) | bit(f.enable, kCccrEnableBit) |
           field(f.escr_select, 13, 3) | field(static_cast<std::uint64_t>(f.active_thread), 16, 2) |
           bit(f.compare, 18) | bit(f.complement, 19) | field(f.threshold, 20, 4) | bit(f.edge, 24) |
           bit(f.force_ovf, 25) | bit(f.ovf_pmi_t0, 26) | bit(f.ovf_pmi_t1, 27) | bit(f.cascade, 30) |
           bit(f.ovf, kCccrOvfBit);
}

CccrFields decode_cccr(std::uint64_t v) {
    CccrFields f;
    f.extended_cascade = extract(v, kCccrExtendedCascadeBit, 1);
    f.enable = extract(v, kCccrEnableBit, 1);
    f.escr_select = static_cast<std::uint8_t>(extract(v, 13, 3));
    f.active_thread = static_cast<ActiveThread>(extract(v, 16, 2));
    f.compare = extract(v, 18, 1);
    f.complement = extract(v, 19, 1);
    f.threshold = static_cast<std::uint8_t>(extract(v, 20, 4));
    f.edge = extract(v, 24, 1);
    f.force_ovf = extract(v, 25, 1);
    f.ovf_pmi_t0 = extract(v, 26, 1);
    f.ovf_pmi_t1 = extract(v, 27, 1);
    f.cascade = extract(v, 30, 1);
    f.ovf = extract(v, kCccrOvfBit, 1);
    return f;
}

std::uint64_t cccr_reserved_mask(unsigned counter, unsigned model) {
    std::uint64_t reserved = 0xFFFFFFFF00000000ull | (std::uint64_t{3} << 28) | 0xFFFull;
    if (counter < kNumCounters && kCounters[counter].block == Block::IQ && model_in(kModels2Up, model))
        reserved &= ~(std::uint64_t{1} << kCccrExtendedCascadeBit);
    return reserved;
}

}  // namespace netburst
