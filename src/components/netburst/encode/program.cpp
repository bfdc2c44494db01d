#include "encode/program.h"

#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst {

namespace {

template <typename Fn>
void for_each_unit(const Schedule& s, Fn fn) {
    for (const ScheduledRequest& r : s.requests)
        for (const PlacedUnit& u : r.units) fn(u);
}

}  // namespace

std::vector<MsrWrite> start_writes(const Schedule& s) {
    std::vector<MsrWrite> out;
    if (s.replay_active) {
        out.push_back({kMsrPebsEnable, s.pebs_enable});
        out.push_back({kMsrPebsMatrixVert, s.matrix_vert});
    }
    if (s.tc_precise_event) out.push_back({kMsrTcPreciseEvent, s.tc_precise_event});
    EscrMask written = 0;
    for_each_unit(s, [&](const PlacedUnit& u) {
        if (written & escr_bit(u.escr)) return;  // shared ESCRs hold one value; write it once
        written |= escr_bit(u.escr);
        out.push_back({kEscrs[escr_index(u.escr)].msr, u.escr_value});
    });
    for_each_unit(s, [&](const PlacedUnit& u) {
        if (u.counter >= 0) out.push_back({kCounters[u.counter].counter_msr, 0});
    });
    for_each_unit(s, [&](const PlacedUnit& u) {
        if (u.counter >= 0) out.push_back({kCounters[u.counter].cccr_msr, u.cccr_value});
    });
    return out;
}

std::vector<MsrWrite> stop_writes(const Schedule& s) {
    std::vector<MsrWrite> out;
    for_each_unit(s, [&](const PlacedUnit& u) {
        if (u.counter >= 0) out.push_back({kCounters[u.counter].cccr_msr, 0});
    });
    EscrMask cleared = 0;
    for_each_unit(s, [&](const PlacedUnit& u) {
        if (cleared & escr_bit(u.escr)) return;
        cleared |= escr_bit(u.escr);
        out.push_back({kEscrs[escr_index(u.escr)].msr, 0});
    });
    if (s.replay_active) {
        out.push_back({kMsrPebsEnable, 0});
        out.push_back({kMsrPebsMatrixVert, 0});
    }
    if (s.tc_precise_event) out.push_back({kMsrTcPreciseEvent, 0});
    return out;
}

std::uint64_t cccr_with_overflow_interrupt(std::uint64_t cccr, bool interrupt, unsigned logical_processor) {
    CccrFields f = decode_cccr(cccr);
    f.ovf_pmi_t0 = interrupt && logical_processor == 0;
    f.ovf_pmi_t1 = interrupt && logical_processor != 0;
    return encode_cccr(f);
}

std::uint64_t overflow_start_value(std::uint64_t threshold) {
    return ((std::uint64_t{1} << kCounterWidthBits) - threshold) & kCounterValueMask;
}

int result_counter(const Schedule& s, std::size_t request) { return s.requests.at(request).result_counter; }

}  // namespace netburst
