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

DsAreaFields pebs_ds_fields(const PebsArming& a) {
    DsAreaFields f;
    f.base = a.ds_area + kDsManagementBytes;
    f.index = f.base;
    f.maximum = f.base + std::uint64_t{a.records} * kPebsRecordBytes;
    f.threshold = f.base + kPebsRecordBytes;
    f.counter_reset = pebs_start_value(a.period);
    return f;
}

std::vector<MsrWrite> pebs_start_writes(const std::vector<MsrWrite>& start, unsigned counter, const PebsArming& a) {
    constexpr std::uint64_t kEnable = std::uint64_t{1} << kPebsEnableMyThreadBit;
    std::vector<MsrWrite> out = {{kMsrDsArea, a.ds_area}};
    bool have_enable = false;
    for (MsrWrite w : start) {
        if (w.msr == kMsrPebsEnable) {
            w.value |= kEnable;
            have_enable = true;
        }
        if (w.msr == kCounters[counter].counter_msr) w.value = pebs_start_value(a.period);
        if (w.msr == kCounters[counter].cccr_msr) w.value = cccr_with_overflow_interrupt(w.value, false, 0);
        out.push_back(w);
    }
    // Without replay tagging the set writes no IA32_PEBS_ENABLE: ENABLE_PEBS goes before the counters start.
    if (!have_enable) out.insert(out.begin() + 1, MsrWrite{kMsrPebsEnable, kEnable});
    return out;
}

std::vector<MsrWrite> pebs_stop_writes(const std::vector<MsrWrite>& stop) {
    std::vector<MsrWrite> out = stop;
    bool have_enable = false;
    for (const MsrWrite& w : stop) have_enable = have_enable || w.msr == kMsrPebsEnable;
    if (!have_enable) out.push_back({kMsrPebsEnable, 0});
    out.push_back({kMsrDsArea, 0});
    return out;
}

int result_counter(const Schedule& s, std::size_t request) { return s.requests.at(request).result_counter; }

}  // namespace netburst
