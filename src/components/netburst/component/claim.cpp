#include "component/claim.h"

#include "table/registers.h"

namespace netburst::component {

PmuClaim claim_of(const nb_event_set& set) {
    // Model 2 has every PMU register there is (IQ_ESCR0/1 end with it; no later model adds one), so looking
    // addresses up on it recognises whatever a set of any model writes.
    constexpr unsigned kEveryRegisterModel = 2;
    PmuClaim claim;
    claim.logical_processor = set.logical_processor;
    for (unsigned i = 0; i < set.num_start_writes; ++i) {
        const nb_msr_write& w = set.start_writes[i];
        MsrRef ref{};
        if (!lookup_msr(w.msr, kEveryRegisterModel, &ref)) continue;  // not a PMU register: the backend refuses the write itself
        switch (ref.kind) {
        case MsrKind::Cccr:
            if (w.value & (std::uint64_t{1} << kCccrEnableBit)) claim.counters |= counter_bit(ref.index);
            break;
        case MsrKind::Escr: claim.escrs |= EscrMask{1} << ref.index; break;
        case MsrKind::PebsEnable:
            claim.replay = true;
            claim.pebs_enable = w.value;
            break;
        case MsrKind::PebsMatrixVert:
            claim.replay = true;
            claim.matrix_vert = w.value;
            break;
        default: break;
        }
    }
    return claim;
}

}  // namespace netburst::component
