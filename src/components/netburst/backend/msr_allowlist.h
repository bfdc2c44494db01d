// The MSRs the kernel MSR backend may touch on a real Pentium 4, and the bits of each it may write.
//
// The list is derived from the hardware table (table/msr_map.h, table/registers.h, table/metrics.h), never written
// by hand: the 18 counters (40 writable bits), the 18 CCCRs (the bits the component programs: enable, ESCR select,
// active thread, the threshold filter and OVF), the ESCRs the model implements (bits 30:0), the two replay-tagging
// MSRs with the bits the tagging recipes use, and IA32_MISC_ENABLE read-only (detection reads bit 7 and bit 12).
// Nothing else: no PMI or cascade bits (no overflow interrupts here), no DS area, no PEBS enable bits (the
// component does no PEBS sampling, and a PEBS assist with no DS area set up would write to wherever IA32_DS_AREA
// points), no MSR_TC_PRECISE_EVENT (no recipe uses it).
//
// The same list is the library's own guard (MsrBackend refuses anything else before any system call) and the
// msr-safe allow-list shipped in data/msr-safe/al_0F_<model> (netburst-msr-allowlist prints it; a test keeps the
// shipped files current).
#pragma once

#include <cstdint>
#include <string>

#include "table/msr_map.h"

namespace netburst::component {

struct AllowedMsr {
    std::uint32_t msr = 0;
    std::uint64_t write_mask = 0;  // 0: readable only
    const char* name = nullptr;
};

// 18 counters + 18 CCCRs + 45 ESCRs + 2 tagging MSRs + IA32_MISC_ENABLE.
constexpr unsigned kMaxAllowedMsrs = 2 * kNumCounters + kNumEscrs + 3;

// IA32_PEBS_ENABLE bits the replay-tagging metrics set: the metric selects (0-2, 9, 10, 15, 16) and UOP_TAG (24).
// ENABLE_PEBS (25) and ENABLE_PEBS_OTH_THR (26) stay out.
constexpr std::uint64_t kPebsEnableTaggingMask = 0x01018607;

class MsrAllowList {
public:
    // The list for CPUID family 0FH model `model` (which must be a NetBurst model: model_exists()).
    explicit MsrAllowList(unsigned model);

    unsigned model() const { return model_; }
    unsigned size() const { return size_; }
    const AllowedMsr& operator[](unsigned i) const { return entries_[i]; }
    const AllowedMsr* begin() const { return entries_; }
    const AllowedMsr* end() const { return entries_ + size_; }

    // The entry for `msr`, or nullptr when the backend must not touch it.
    const AllowedMsr* find(std::uint32_t msr) const;
    // Index of `msr` in the list (for per-register state), or -1.
    int index_of(std::uint32_t msr) const;

    // Whether writing `value` to `msr` is allowed: listed, writable, and no bit outside the write mask set.
    bool may_write(std::uint32_t msr, std::uint64_t value) const;

private:
    unsigned model_;
    unsigned size_ = 0;
    AllowedMsr entries_[kMaxAllowedMsrs];
};

// The list as an msr-safe allow-list file ("0xADDRESS 0xWRITEMASK # name" lines, addresses in ascending order),
// with a header saying which processor it is for and how to load it.
std::string format_msr_safe_allowlist(const MsrAllowList& list);

// The shipped file name for a model: "al_0F_02" (msr-safe names its lists al_<family>_<model> in hex).
std::string msr_safe_allowlist_name(unsigned model);

}  // namespace netburst::component
