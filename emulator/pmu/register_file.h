// The PMU register file as software sees it through wrmsr/rdmsr: raw register values, reset values and the #GP
// rules. It knows nothing about counting; the Pmu decodes these values after each write (decision 3: only MSR
// values, decoded with the SDM layouts of table/registers.h, drive the model).
#pragma once

#include <cstdint>

#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst::emu {

class RegisterFile {
public:
    void reset(unsigned model, bool pebs_available);

    // Validates a wrmsr: the MSR must exist on this model and no reserved bit may be set. Returns false (#GP)
    // without changing anything, or true with *ref describing the register. Counter values are stored by the
    // Pmu (they change every cycle), everything else here.
    bool check_write(std::uint32_t msr, std::uint64_t value, MsrRef* ref) const;
    bool lookup(std::uint32_t msr, MsrRef* ref) const;

    // Stores a checked value. `thread` matters for the per-logical-processor views (IA32_PEBS_ENABLE bits 25/26
    // are relative to the writer; IA32_DS_AREA is per logical processor).
    void store(const MsrRef& ref, unsigned thread, std::uint64_t value);
    // Reads a register other than a counter.
    std::uint64_t load(const MsrRef& ref, unsigned thread) const;

    std::uint64_t escr(unsigned index) const { return escr_[index]; }
    std::uint64_t cccr(unsigned counter) const { return cccr_[counter]; }
    // Hardware sets OVF; software clears it with a CCCR write.
    void set_ovf(unsigned counter) { cccr_[counter] |= std::uint64_t{1} << kCccrOvfBit; }
    bool ovf(unsigned counter) const { return (cccr_[counter] >> kCccrOvfBit) & 1u; }

    // IA32_PEBS_ENABLE without the two per-logical-processor PEBS enables, which pebs_enabled() reports.
    std::uint64_t pebs_enable_shared() const { return pebs_enable_shared_; }
    bool pebs_enabled(unsigned thread) const { return pebs_on_[thread & 1u]; }
    std::uint64_t matrix_vert() const { return matrix_vert_; }
    std::uint64_t ds_area(unsigned thread) const { return ds_area_[thread & 1u]; }

private:
    unsigned model_ = 2;
    bool pebs_available_ = true;
    std::uint64_t escr_[kNumEscrs] = {};
    std::uint64_t cccr_[kNumCounters] = {};
    std::uint64_t pebs_enable_shared_ = 0;  // every writable bit except 25 and 26
    bool pebs_on_[2] = {};                  // PEBS enabled for logical processor 0 / 1
    std::uint64_t matrix_vert_ = 0;
    std::uint64_t ds_area_[2] = {};
};

}  // namespace netburst::emu
