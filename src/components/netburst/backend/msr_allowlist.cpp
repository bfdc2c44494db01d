#include "backend/msr_allowlist.h"

#include <algorithm>
#include <cstdio>

#include "table/metrics.h"
#include "table/registers.h"
#include "table/hex.h"

namespace netburst::component {

namespace {

// The tagging-MSR bits the metric recipes write: the union over every recipe, so a new recipe with a new bit
// widens the list (and the staleness test says the shipped files must be regenerated).
std::uint64_t recipe_bits(std::uint32_t MetricDef::*field) {
    std::uint64_t bits = 0;
    for (const MetricDef& m : kMetrics) bits |= m.*field;
    return bits;
}

// The CCCR bits the component programs: Enable, ESCR select, active thread, the compare/complement/threshold/edge
// filter, and OVF (written back as 0 to acknowledge a wrap). Not FORCE_OVF, OVF_PMI_T0/T1 or the cascade bits: the
// component has no overflow interrupt and cascades nothing, and a PMI nobody asked for would reach the kernel as
// an unknown NMI.
std::uint64_t cccr_programmed_bits() {
    CccrFields f;
    f.enable = true;
    f.escr_select = 7;
    f.active_thread = ActiveThread::Any;
    f.compare = f.complement = f.edge = f.ovf = true;
    f.threshold = kCccrMaxThreshold;
    return encode_cccr(f);
}

}  // namespace

MsrAllowList::MsrAllowList(unsigned model) : model_(model) {
    auto add = [&](std::uint32_t msr, std::uint64_t mask, const char* name) {
        entries_[size_++] = AllowedMsr{msr, mask, name};
    };
    for (const CounterDef& c : kCounters) add(c.counter_msr, ~kCounterReservedMask, c.counter_name);
    for (unsigned c = 0; c < kNumCounters; ++c)
        add(kCounters[c].cccr_msr, cccr_programmed_bits() & ~cccr_reserved_mask(c, model), kCounters[c].cccr_name);
    for (const EscrDef& e : kEscrs)
        if (model_in(e.models, model)) add(e.msr, ~kEscrReservedMask, e.name);
    add(kMsrPebsEnable, recipe_bits(&MetricDef::pebs_enable) & kPebsEnableTaggingMask, msr_name(kMsrPebsEnable));
    add(kMsrPebsMatrixVert, recipe_bits(&MetricDef::matrix_vert) & kMatrixVertWritableMask,
        msr_name(kMsrPebsMatrixVert));
    add(kMsrMiscEnable, 0, msr_name(kMsrMiscEnable));
    std::sort(entries_, entries_ + size_, [](const AllowedMsr& a, const AllowedMsr& b) { return a.msr < b.msr; });
}

int MsrAllowList::index_of(std::uint32_t msr) const {
    // Sorted by address: a binary search keeps the check before every access cheap.
    const AllowedMsr* it = std::lower_bound(begin(), end(), msr, [](const AllowedMsr& e, std::uint32_t a) {
        return e.msr < a;
    });
    return (it != end() && it->msr == msr) ? static_cast<int>(it - begin()) : -1;
}

const AllowedMsr* MsrAllowList::find(std::uint32_t msr) const {
    const int i = index_of(msr);
    return i < 0 ? nullptr : &entries_[i];
}

bool MsrAllowList::may_write(std::uint32_t msr, std::uint64_t value) const {
    const AllowedMsr* e = find(msr);
    return e && e->write_mask != 0 && (value & ~e->write_mask) == 0;
}

std::string msr_safe_allowlist_name(unsigned model) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "al_0F_%02X", model);
    return buf;
}

std::string format_msr_safe_allowlist(const MsrAllowList& list) {
    const unsigned model = list.model();
    std::string out;
    out += "# msr-safe allow-list for the papi-netburst component: the NetBurst PMU registers of CPUID family 0FH\n";
    out += "# model " + std::to_string(model) + " (" + model_codename(model) + ").\n";
    out += "# Generated from papi-netburst's hardware table by netburst-msr-allowlist; do not edit.\n";
    out += "# Counters: 40 bits. ESCRs: every non-reserved bit. CCCRs: enable, ESCR select, active thread, filter and\n";
    out += "# OVF; no interrupt, FORCE_OVF or cascade bits. IA32_PEBS_ENABLE: the replay-tagging bits, no PEBS\n";
    out += "# sampling. IA32_MISC_ENABLE: read-only (bit 7 PMU available, bit 12 PEBS unavailable).\n";
    out += "# Load it (as msr-admin or root; this replaces the whole current list, so append your site's list first):\n";
    out += "#   cat " + msr_safe_allowlist_name(model) + " > /dev/cpu/msr_allowlist\n";
    out += "# MSR      # Write mask        # Register\n";
    for (const AllowedMsr& e : list)
        out += hex_upper(e.msr, 8) + " " + hex_upper(e.write_mask, 16) + " # " + e.name + "\n";
    return out;
}

}  // namespace netburst::component
