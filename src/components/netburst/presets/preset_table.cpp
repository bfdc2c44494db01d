// The preset recipes. See preset_table.h and doc/presets.md.
#include "presets/preset_table.h"

#include "table/ascii.h"

namespace netburst {

namespace {

using D = PresetDerivation;

std::vector<PresetDef> base_presets() {
    return {
        {"PAPI_TOT_CYC", D::NotDerived, {"global_power_events:RUNNING"}, nullptr,
         "counts every cycle the processor is not stopped; with Hyper-Threading, the cycles of the logical processor "
         "whose T0/T1 bits are set",
         "19-28 (global_power_events)",
         "PAPI uses execution_event with all eight masks, :cmpl and :thr=15 because Linux's NMI watchdog holds "
         "global_power_events on FSB_ESCR0. That trick occupies one of the two CRU_ESCR2/3, which every "
         "at-retirement preset needs; our allocator moves global_power_events to FSB_ESCR1 (counters 2, 3) when "
         "something else holds FSB_ESCR0."},
        {"PAPI_TOT_INS", D::NotDerived, {"instr_retired:NBOGUSNTAG:NBOGUSTAG"}, nullptr,
         "counts every instruction that retires on the correct path, whether or not front-end tagging marked it",
         "19-29 (instr_retired)",
         "PAPI counts only NBOGUSNTAG, so instructions tagged by front-end tagging (PAPI_LD_INS, PAPI_SR_INS in the "
         "same event set) disappear from the total; PAPI 3 and FreeBSD counted both masks."},
        {"PAPI_TOT_IIS", D::NotDerived, {"instr_retired:NBOGUSNTAG:NBOGUSTAG:BOGUSNTAG:BOGUSTAG"}, nullptr,
         "counts instructions on the correct and on mispredicted paths: every instruction that was issued reaches "
         "retirement on NetBurst, where wrong-path ones are discarded as bogus",
         "19-29 (instr_retired)", nullptr},
        {"PAPI_BR_INS", D::NotDerived, {"branch_retired:MMNP:MMNM:MMTP:MMTM"}, nullptr,
         "counts retired branches of all four outcomes (taken or not, predicted or not)", "19-29 (branch_retired)",
         nullptr},
        {"PAPI_BR_TKN", D::NotDerived, {"branch_retired:MMTP:MMTM"}, nullptr,
         "retired branches that were taken, predicted or not", "19-29 (branch_retired)", nullptr},
        {"PAPI_BR_NTK", D::NotDerived, {"branch_retired:MMNP:MMNM"}, nullptr,
         "retired branches that were not taken", "19-29 (branch_retired)", nullptr},
        {"PAPI_BR_MSP", D::NotDerived, {"mispred_branch_retired:BOGUS"}, nullptr,
         "counts mispredicted branches that retire (the mask bit the SDM calls NBOGUS and libpfm4 BOGUS)",
         "19-29 (mispred_branch_retired)",
         "PAPI uses branch_retired:MMNM:MMTM, which counts the same branches but needs one of the two CRU_ESCR2/3 "
         "that the cache, FP and load/store presets need too; mispred_branch_retired lives on CRU_ESCR0/1, so "
         "PAPI_BR_MSP, PAPI_L1_DCM and PAPI_FP_INS fit in one event set."},
        {"PAPI_BR_PRC", D::NotDerived, {"branch_retired:MMNP:MMTP"}, nullptr,
         "retired branches whose direction was predicted correctly", "19-29 (branch_retired)", nullptr},
        {"PAPI_BR_CN", D::NotDerived, {"retired_branch_type:CONDITIONAL"},
         "the SDM warns that conditional branches may be overcounted during trace builds and pipeline clears",
         "counts retired conditional jumps", "19-28 (retired_branch_type)", nullptr},
        {"PAPI_BR_UCN", D::Sub, {"branch_retired:MMNP:MMNM:MMTP:MMTM", "retired_branch_type:CONDITIONAL"},
         "all retired branches minus the conditional ones; low if CONDITIONAL overcounts (see PAPI_BR_CN)",
         "branch_retired with all four masks counts every retired branch (jumps, calls, returns, conditional and "
         "indirect); retired_branch_type CONDITIONAL counts the conditional ones; the difference is the "
         "unconditional branches. The two events use different ESCRs (CRU_ESCR2/3 and TBPU_ESCR0/1), so they are "
         "counted together. (retired_branch_type's UNCONDITIONAL bit appears only in Table 19-34, and its CALL, RETURN "
         "and INDIRECT bits overlap, so no mask of it alone counts unconditional branches.)",
         "19-29 (branch_retired), 19-28 (retired_branch_type)",
         "PAPI has no PAPI_BR_UCN on NetBurst."},
        {"PAPI_L1_DCM", D::NotDerived, {"1stL_cache_load_miss_retired:NBOGUS"},
         "counts loads; the NetBurst L1 data cache is write-through: stores are not L1 misses in this sense",
         "replay tagging marks a load that misses the L1 data cache at least once and counts it once when it "
         "retires: retired load misses, with no wrong-path or repeated-replay noise",
         "19-33 (1stL_cache_load_miss_retired), 19-29 (replay_event)",
         "PAPI has no PAPI_L1_DCM on NetBurst; PAPI 3.0 had one through the same replay tagging."},
        {"PAPI_L1_LDM", D::NotDerived, {"1stL_cache_load_miss_retired:NBOGUS"}, nullptr,
         "retired loads that missed the L1 data cache (replay tagging)",
         "19-33 (1stL_cache_load_miss_retired)",
         "PAPI's replay_event:NBOGUS:L1_LD_MISS relies on a libpfm4 virtual mask that never programs "
         "IA32_PEBS_ENABLE or MSR_PEBS_MATRIX_VERT, so it counts whatever replay tagging is latched; here the "
         "metric programs both."},
        {"PAPI_L2_LDM", D::NotDerived, {"2ndL_cache_load_miss_retired:NBOGUS"}, nullptr,
         "retired loads that missed the L2 cache (replay tagging)", "19-33 (2ndL_cache_load_miss_retired)",
         "The same missing IA32_PEBS_ENABLE/MATRIX_VERT programming as PAPI_L1_LDM."},
        {"PAPI_L1_TCM", D::Add, {"1stL_cache_load_miss_retired:NBOGUS", "BPU_fetch_request:TCMISS"},
         "PAPI_L1_DCM plus PAPI_L1_ICM: retired load misses of the L1 data cache and trace-cache misses",
         "the first level has two halves and no event covers both, so the total is the sum of the two presets: "
         "retired loads that missed the L1 data cache (replay tagging) and the fetch requests trace-cache misses "
         "cause; stores are not L1 misses on NetBurst (write-through, no allocation)",
         "19-33 (1stL_cache_load_miss_retired), 19-28 (BPU_fetch_request)",
         "PAPI has no PAPI_L1_TCM on NetBurst, so its tests of it (ctests/tenth, ftests/tenth) skip."},
        {"PAPI_L2_TCM", D::NotDerived, {"BSQ_cache_reference:RD_2ndL_MISS"}, nullptr,
         "reads and reads-for-ownership (data and code) that miss the L2, seen by the bus sequence queue",
         "19-28 (BSQ_cache_reference)", nullptr},
        {"PAPI_L2_TCH", D::NotDerived, {"BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM"}, nullptr,
         "reads and reads-for-ownership that hit the L2 in any MESI state", "19-28 (BSQ_cache_reference)", nullptr},
        {"PAPI_L2_TCA", D::NotDerived,
         {"BSQ_cache_reference:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:RD_2ndL_MISS"}, nullptr,
         "all L2 reads and reads-for-ownership: the hits of PAPI_L2_TCH plus the misses of PAPI_L2_TCM",
         "19-28 (BSQ_cache_reference)", nullptr},
        {"PAPI_L1_ICM", D::NotDerived, {"BPU_fetch_request:TCMISS"}, nullptr,
         "the NetBurst L1 instruction cache is the trace cache; this counts the fetch requests its misses cause",
         "19-28 (BPU_fetch_request)", nullptr},
        {"PAPI_L1_ICA", D::NotDerived, {"uop_queue_writes:FROM_TC_BUILD:FROM_TC_DELIVER"},
         "counted in uops: the trace cache delivers uops and not instruction bytes",
         "counts the uops the trace cache writes into the uop queue, in build and in deliver mode: every access "
         "that supplies the machine from the L1 instruction store (microcode-ROM uops are not trace-cache "
         "accesses)",
         "19-28 (uop_queue_writes)", nullptr},
        {"PAPI_TLB_DM", D::NotDerived, {"page_walk_type:DTMISS"},
         "thread-independent: with Hyper-Threading it counts both logical processors",
         "every data TLB miss starts a page walk; this counts those walks, speculative ones included",
         "19-28 (page_walk_type)", nullptr},
        {"PAPI_TLB_IM", D::NotDerived, {"page_walk_type:ITMISS"},
         "thread-independent: with Hyper-Threading it counts both logical processors",
         "page walks started by instruction TLB misses", "19-28 (page_walk_type)", nullptr},
        {"PAPI_TLB_TL", D::NotDerived, {"page_walk_type:DTMISS:ITMISS"},
         "thread-independent: with Hyper-Threading it counts both logical processors",
         "page walks of both kinds", "19-28 (page_walk_type)", nullptr},
        {"PAPI_LD_INS", D::NotDerived, {"memory_loads:NBOGUS"}, "counts load uops; an instruction has at most one",
         "front-end tagging marks load uops (uop_type TAGLOADS) and front_end_event counts them at retirement",
         "19-31 (memory_loads), 19-29 (uop_type, front_end_event)",
         "PAPI writes uops_type:TAGLOADS as a second native of a DERIVED_CMPD preset; here the metric is one "
         "native event that programs both."},
        {"PAPI_SR_INS", D::NotDerived, {"memory_stores:NBOGUS"}, "counts store uops; an instruction has at most one",
         "front-end tagging marks store uops (uop_type TAGSTORES) and front_end_event counts them at retirement",
         "19-31 (memory_stores)", nullptr},
        {"PAPI_LST_INS", D::Cmpd, {"front_end_event:NBOGUS", "uops_type:TAGLOADS:TAGSTORES"},
         "counts load and store uops; cannot share an event set with PAPI_LD_INS or PAPI_SR_INS (one front-end tag)",
         "uop_type with both TAGLOADS and TAGSTORES marks every memory uop; front_end_event counts them",
         "19-29 (uop_type, front_end_event)", nullptr},
        {"PAPI_RES_STL", D::NotDerived, {"resource_stall:SBFULL"},
         "NetBurst documents only one resource stall: the store buffer being full",
         "cycles allocation stalls for lack of a resource; SBFULL is the only cause the SDM documents",
         "19-28 (resource_stall)", nullptr},
        {"PAPI_VEC_SP", D::NotDerived, {"packed_SP_retired:NBOGUS"}, nullptr,
         "packed single-precision SSE uops retired (execution tagging)", "19-32 (packed_SP_retired)", nullptr},
        {"PAPI_VEC_DP", D::NotDerived, {"packed_DP_retired:NBOGUS"}, nullptr,
         "packed double-precision SSE2 uops retired (execution tagging)", "19-32 (packed_DP_retired)", nullptr},
        {"PAPI_VEC_INS", D::Cmpd, {"execution_event:NBOGUS2", "packed_SP_uop:ALL:TAG2", "packed_DP_uop:ALL:TAG2"},
         "counts packed SSE/SSE2 floating-point uops; with the FP presets it needs more than the two FIRM ESCRs",
         "packed_SP_uop and packed_DP_uop set execution tag bit 2 on the packed uops they see; execution_event "
         "NBOGUS2 counts those that retire",
         "19-32 (packed_SP_retired, packed_DP_retired), 18.15.6.3",
         "PAPI's VEC tables were loaded only by the perfctr component (removed in 2024), so PAPI_VEC_INS is "
         "unreachable on perf_event."},
    };
}

std::vector<PresetDef> fp_presets(FpVariant fp) {
    const char* fixes =
        "PAPI's FPU tables were loaded only by the perfctr component (removed in 2024), so PAPI_FP_OPS is "
        "unreachable on perf_event; and PAPI_FP_INS counts x87 only, which x86-64 code rarely uses.";
    switch (fp) {
    case FpVariant::Sse:
        return {
            {"PAPI_FP_INS", D::Cmpd, {"execution_event:NBOGUS0", "scalar_SP_uop:ALL:TAG0", "scalar_DP_uop:ALL:TAG0"},
             "scalar SSE/SSE2 floating-point uops; packed ones are PAPI_VEC_INS. $PAPI_NETBURST_FP=x87 or x87_sse_dp "
             "selects other kinds",
             "scalar_SP_uop and scalar_DP_uop both set execution tag bit 0 on the uops they see (the SDM's counting "
             "of combinations); execution_event NBOGUS0 counts those that retire",
             "19-32 (scalar_SP_retired, scalar_DP_retired), 18.15.6.3", fixes, false, true},
            {"PAPI_FP_OPS", D::Cmpd, {"execution_event:NBOGUS0", "scalar_SP_uop:ALL:TAG0", "scalar_DP_uop:ALL:TAG0"},
             "the same uops as PAPI_FP_INS: scalar operations (one per uop)",
             "scalar SSE uops perform one operation each, so they count operations; it shares its registers with "
             "PAPI_FP_INS so both fit in one event set",
             "19-32 (scalar_SP_retired, scalar_DP_retired)", fixes, false, true},
        };
    case FpVariant::X87:
        return {
            {"PAPI_FP_INS", D::NotDerived, {"x87_FP_retired:NBOGUS"}, "x87 floating-point uops ($PAPI_NETBURST_FP=x87)",
             "the x87_FP_retired metric: x87_FP_uop tags x87 arithmetic uops, execution_event counts them",
             "19-32 (x87_FP_retired)", fixes, false, true},
            {"PAPI_FP_OPS", D::NotDerived, {"x87_FP_retired:NBOGUS"}, "x87 floating-point uops ($PAPI_NETBURST_FP=x87)",
             "x87 arithmetic uops perform one operation each", "19-32 (x87_FP_retired)", fixes, false, true},
        };
    case FpVariant::X87SseDp:
        return {
            {"PAPI_FP_INS", D::Cmpd, {"execution_event:NBOGUS0", "x87_FP_uop:ALL:TAG0", "scalar_DP_uop:ALL:TAG0"},
             "x87 and scalar double-precision SSE2 uops ($PAPI_NETBURST_FP=x87_sse_dp; PAPI 3's default)",
             "x87_FP_uop and scalar_DP_uop both set execution tag bit 0; execution_event NBOGUS0 counts those that "
             "retire",
             "19-32 (x87_FP_retired, scalar_DP_retired)", fixes, false, true},
            {"PAPI_FP_OPS", D::Cmpd, {"execution_event:NBOGUS0", "x87_FP_uop:ALL:TAG0", "scalar_DP_uop:ALL:TAG0"},
             "the same uops as PAPI_FP_INS", "each of these uops performs one operation",
             "19-32 (x87_FP_retired, scalar_DP_retired)", fixes, false, true},
        };
    }
    return {};
}

std::vector<PresetDef> l3_presets() {
    return {
        {"PAPI_L3_TCH", D::NotDerived, {"BSQ_cache_reference:RD_3rdL_HITS:RD_3rdL_HITE:RD_3rdL_HITM"}, nullptr,
         "reads and reads-for-ownership that hit the L3", "19-28 (BSQ_cache_reference)", nullptr, true},
        {"PAPI_L3_TCM", D::NotDerived, {"BSQ_cache_reference:RD_3rdL_MISS"}, nullptr,
         "reads and reads-for-ownership that miss the L3", "19-28 (BSQ_cache_reference)", nullptr, true},
        {"PAPI_L3_TCA", D::NotDerived,
         {"BSQ_cache_reference:RD_3rdL_HITS:RD_3rdL_HITE:RD_3rdL_HITM:RD_3rdL_MISS"}, nullptr,
         "all L3 reads and reads-for-ownership", "19-28 (BSQ_cache_reference)", nullptr, true},
    };
}

std::string quote_csv(const char* s) {
    std::string out = "\"";
    for (const char* p = s; *p; ++p) out += (*p == '"') ? '\'' : *p;
    return out + "\"";
}

}  // namespace

const char* papi_derivation_name(PresetDerivation d) {
    switch (d) {
    case PresetDerivation::NotDerived: return "NOT_DERIVED";
    case PresetDerivation::Add: return "DERIVED_ADD";
    case PresetDerivation::Sub: return "DERIVED_SUB";
    case PresetDerivation::Cmpd: return "DERIVED_CMPD";
    }
    return "?";
}

namespace {

// The variants' names, read both ways.
constexpr struct {
    FpVariant variant;
    const char* name;
} kFpVariantNames[kNumFpVariants] = {{FpVariant::Sse, "sse"}, {FpVariant::X87, "x87"}, {FpVariant::X87SseDp, "x87_sse_dp"}};

}  // namespace

const char* fp_variant_name(FpVariant v) {
    for (const auto& n : kFpVariantNames)
        if (n.variant == v) return n.name;
    return "?";
}

bool parse_fp_variant(const char* text, FpVariant* out) {
    for (const auto& n : kFpVariantNames) {
        if (ascii_iequal(text, n.name)) {
            *out = n.variant;
            return true;
        }
    }
    return false;
}

std::vector<PresetDef> presets_for(bool with_l3, FpVariant fp) {
    std::vector<PresetDef> out = base_presets();
    for (auto& p : fp_presets(fp)) out.push_back(p);
    if (with_l3)
        for (auto& p : l3_presets()) out.push_back(p);
    return out;
}

std::vector<std::pair<PresetDef, FpVariant>> all_preset_variants() {
    std::vector<std::pair<PresetDef, FpVariant>> out;
    for (auto& p : base_presets()) out.emplace_back(p, FpVariant::Sse);
    for (unsigned v = 0; v < kNumFpVariants; ++v)
        for (auto& p : fp_presets(static_cast<FpVariant>(v))) out.emplace_back(p, static_cast<FpVariant>(v));
    for (auto& p : l3_presets()) out.emplace_back(p, FpVariant::Sse);
    return out;
}

std::string preset_section_name(bool with_l3, FpVariant fp) {
    return std::string("papi-netburst ") + fp_variant_name(fp) + (with_l3 ? " L3" : "");
}

std::string papi_csv_sections() {
    std::string out =
        "#\n# papi-netburst: the NetBurst component's presets, generated from src/components/netburst/presets/.\n"
        "# One section per configuration (FP variant, with or without L3); the component loads exactly one.\n";
    for (int l3 = 0; l3 < 2; ++l3) {
        for (unsigned v = 0; v < kNumFpVariants; ++v) {
            const FpVariant fp = static_cast<FpVariant>(v);
            out += "#\nCPU," + preset_section_name(l3 != 0, fp) + "\n";
            for (const PresetDef& p : presets_for(l3 != 0, fp)) {
                out += std::string("PRESET,") + p.name + "," + papi_derivation_name(p.derivation);
                for (const char* t : p.terms) (out += ",") += t;
                if (p.note) out += ",NOTE," + quote_csv(p.note);
                out += "\n";
            }
        }
    }
    return out;
}

const PresetDef* find_preset(const std::vector<PresetDef>& table, const std::string& name) {
    for (const PresetDef& p : table)
        if (name == p.name) return &p;
    return nullptr;
}

}  // namespace netburst
