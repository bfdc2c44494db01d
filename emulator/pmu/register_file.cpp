#include "emulator/pmu/register_file.h"

namespace netburst::emu {

namespace {

constexpr std::uint64_t bit(unsigned n) { return std::uint64_t{1} << n; }
constexpr std::uint64_t kPebsPerThreadBits = bit(kPebsEnableMyThreadBit) | bit(kPebsEnableOtherThreadBit);

// IA32_DS_AREA holds a linear address; like every MSR holding one it must be canonical (48-bit sign extension).
constexpr bool canonical(std::uint64_t address) {
    const std::uint64_t upper = address >> 47;
    return upper == 0 || upper == (std::uint64_t{1} << 17) - 1;
}

}  // namespace

void RegisterFile::reset(unsigned model, bool pebs_available) {
    *this = RegisterFile{};
    model_ = model;
    pebs_available_ = pebs_available;
}

bool RegisterFile::lookup(std::uint32_t msr, MsrRef* ref) const { return lookup_msr(msr, model_, ref); }

bool RegisterFile::check_write(std::uint32_t msr, std::uint64_t value, MsrRef* ref) const {
    if (!lookup(msr, ref)) return false;
    switch (ref->kind) {
    case MsrKind::Counter: return (value & kCounterReservedMask) == 0;
    case MsrKind::Cccr: return (value & cccr_reserved_mask(ref->index, model_)) == 0;
    case MsrKind::Escr: return (value & kEscrReservedMask) == 0;
    case MsrKind::PebsEnable: return (value & ~kPebsEnableWritableMask) == 0;
    case MsrKind::PebsMatrixVert: return (value & ~kMatrixVertWritableMask) == 0;
    // No documented metric uses MSR_TC_PRECISE_EVENT and its bits are not documented: every bit is reserved.
    case MsrKind::TcPreciseEvent: return value == 0;
    // We model the PMU, not the rest of IA32_MISC_ENABLE: a write could only change what the PMU reports.
    case MsrKind::MiscEnable: return false;
    case MsrKind::DsArea: return canonical(value);
    }
    return false;
}

void RegisterFile::store(const MsrRef& ref, unsigned thread, std::uint64_t value) {
    const unsigned self = thread & 1u;
    switch (ref.kind) {
    case MsrKind::Counter: break;  // kept by the Pmu
    case MsrKind::Cccr: cccr_[ref.index] = value; break;
    case MsrKind::Escr: escr_[ref.index] = value; break;
    case MsrKind::PebsEnable:
        // SDM 18.16.3: bit 25 enables PEBS for the logical processor that writes it, bit 26 for the other one.
        pebs_enable_shared_ = value & ~kPebsPerThreadBits;
        pebs_on_[self] = (value >> kPebsEnableMyThreadBit) & 1u;
        pebs_on_[self ^ 1u] = (value >> kPebsEnableOtherThreadBit) & 1u;
        break;
    case MsrKind::PebsMatrixVert: matrix_vert_ = value; break;
    case MsrKind::TcPreciseEvent: break;  // only 0 is accepted
    case MsrKind::MiscEnable: break;      // refused by check_write
    case MsrKind::DsArea: ds_area_[self] = value; break;
    }
}

std::uint64_t RegisterFile::load(const MsrRef& ref, unsigned thread) const {
    const unsigned self = thread & 1u;
    switch (ref.kind) {
    case MsrKind::Counter: return 0;  // kept by the Pmu
    case MsrKind::Cccr: return cccr_[ref.index];
    case MsrKind::Escr: return escr_[ref.index];
    case MsrKind::PebsEnable:
        return pebs_enable_shared_ | (pebs_on_[self] ? bit(kPebsEnableMyThreadBit) : 0) |
               (pebs_on_[self ^ 1u] ? bit(kPebsEnableOtherThreadBit) : 0);
    case MsrKind::PebsMatrixVert: return matrix_vert_;
    case MsrKind::TcPreciseEvent: return 0;
    case MsrKind::MiscEnable:
        return bit(kMiscEnablePmuAvailableBit) | (pebs_available_ ? 0 : bit(kMiscEnablePebsUnavailableBit));
    case MsrKind::DsArea: return ds_area_[self];
    }
    return 0;
}

}  // namespace netburst::emu
