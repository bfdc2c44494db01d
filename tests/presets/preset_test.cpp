// The preset table: every term is a valid native event in its canonical spelling (PAPI matches presets to
// natives by name), each preset fits on its own, and the combinations users add together fit.
#include <gtest/gtest.h>

#include "alloc/allocator.h"
#include "events/parser.h"
#include "presets/preset_table.h"

using namespace netburst;

namespace {

std::vector<EventRequest> terms_of(const std::vector<PresetDef>& table, const std::vector<std::string>& names,
                                   unsigned model = kDefaultModel) {
    std::vector<EventRequest> out;
    for (const auto& n : names) {
        const PresetDef* p = find_preset(table, n);
        EXPECT_NE(p, nullptr) << n;
        if (!p) continue;
        for (const char* t : p->terms) out.push_back(*parse_event(t, model));
    }
    return out;
}

}  // namespace

TEST(Presets, EveryTermIsACanonicalNativeEvent) {
    for (const auto& [p, fp] : all_preset_variants()) {
        ASSERT_FALSE(p.terms.empty()) << p.name;
        if (p.derivation == PresetDerivation::NotDerived) {
            EXPECT_EQ(p.terms.size(), 1u) << p.name;
        }
        for (const char* t : p.terms) {
            auto r = parse_event(t, kDefaultModel);
            ASSERT_TRUE(r.ok()) << p.name << ": " << t << ": " << r.error().message;
            EXPECT_EQ(canonical_name(*r), t) << p.name << " must use the canonical spelling";
            EXPECT_FALSE(r->privilege_explicit) << p.name << ": presets follow PAPI's domain";
        }
        EXPECT_NE(p.why, nullptr);
        // PAPI's CSV reader splits a line at every comma, quotes or not: a comma would cut the note short.
        if (p.note) {
            EXPECT_EQ(std::string(p.note).find(','), std::string::npos) << p.name << ": " << p.note;
        }
        EXPECT_NE(p.sdm, nullptr);
    }
}

TEST(Presets, EachPresetFitsAloneOnEveryModelAndBothThreads) {
    for (bool l3 : {false, true})
        for (unsigned v = 0; v < kNumFpVariants; ++v)
            for (const PresetDef& p : presets_for(l3, static_cast<FpVariant>(v)))
                for (unsigned model : {0u, 2u, 3u, 6u}) {
                    std::vector<EventRequest> reqs;
                    for (const char* t : p.terms) reqs.push_back(*parse_event(t, model));
                    AllocContext ctx;
                    ctx.model = model;
                    EXPECT_TRUE(try_schedule(reqs, ctx, nullptr)) << p.name << " on model " << model;
                    ctx.hyper_threading = true;
                    ctx.thread = 1;
                    EXPECT_TRUE(try_schedule(reqs, ctx, nullptr)) << p.name << " on thread 1";
                }
}

TEST(Presets, CommonCombinationsFit) {
    const auto table = presets_for(false, FpVariant::Sse);
    for (const std::vector<std::string>& set : std::vector<std::vector<std::string>>{
             {"PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_BR_MSP", "PAPI_L1_DCM", "PAPI_FP_INS"},
             {"PAPI_TOT_INS", "PAPI_BR_MSP", "PAPI_L1_DCM"},
             {"PAPI_FP_INS", "PAPI_FP_OPS", "PAPI_TOT_CYC", "PAPI_TOT_INS"},
             {"PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_LD_INS", "PAPI_BR_INS"},
             {"PAPI_L2_TCM", "PAPI_L2_TCH", "PAPI_TLB_DM", "PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_L1_DCM"},
             {"PAPI_BR_INS", "PAPI_BR_MSP", "PAPI_BR_TKN", "PAPI_BR_CN", "PAPI_TOT_INS"},
             {"PAPI_L1_ICM", "PAPI_L1_ICA", "PAPI_RES_STL", "PAPI_TOT_IIS"},
         }) {
        const auto reqs = terms_of(table, set);
        auto s = schedule_events(reqs, {});
        std::string names;
        for (const auto& n : set) names += n + " ";
        EXPECT_TRUE(s.ok()) << names << ": " << (s.ok() ? "" : s.error().message);
    }
}

TEST(Presets, KnownLimitsAreRefusedWithTheReason) {
    const auto table = presets_for(false, FpVariant::Sse);
    auto s = schedule_events(terms_of(table, {"PAPI_LD_INS", "PAPI_SR_INS"}), {});
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("front-end"), std::string::npos) << s.error().message;
    s = schedule_events(terms_of(table, {"PAPI_L1_LDM", "PAPI_L2_LDM"}), {});
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("IA32_PEBS_ENABLE"), std::string::npos) << s.error().message;
}

TEST(Presets, SectionsForEveryConfiguration) {
    const std::string csv = papi_csv_sections();
    for (bool l3 : {false, true})
        for (unsigned v = 0; v < kNumFpVariants; ++v)
            EXPECT_NE(csv.find("CPU," + preset_section_name(l3, static_cast<FpVariant>(v)) + "\n"), std::string::npos);
    EXPECT_NE(csv.find("PRESET,PAPI_TOT_INS,NOT_DERIVED,instr_retired:NBOGUSNTAG:NBOGUSTAG\n"), std::string::npos);
    EXPECT_NE(csv.find("PRESET,PAPI_LST_INS,DERIVED_CMPD,front_end_event:NBOGUS,uops_type:TAGLOADS:TAGSTORES,NOTE,"),
              std::string::npos);
    EXPECT_EQ(presets_for(false, FpVariant::Sse).size() + 3, presets_for(true, FpVariant::Sse).size());
    EXPECT_EQ(find_preset(presets_for(false, FpVariant::Sse), "PAPI_L3_TCM"), nullptr);
}

// $PAPI_NETBURST_FP names a variant in any case, for the component and netburst-run alike.
TEST(Presets, FpVariantNamesInAnyCase) {
    for (unsigned v = 0; v < kNumFpVariants; ++v) {
        const FpVariant variant = static_cast<FpVariant>(v);
        std::string upper = fp_variant_name(variant);
        for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        for (const std::string& text : {std::string(fp_variant_name(variant)), upper}) {
            FpVariant parsed = variant == FpVariant::Sse ? FpVariant::X87 : FpVariant::Sse;
            EXPECT_TRUE(parse_fp_variant(text.c_str(), &parsed)) << text;
            EXPECT_EQ(parsed, variant) << text;
        }
    }
    FpVariant untouched = FpVariant::X87SseDp;
    for (const char* text : {"", "avx", "sse ", "x87_sse", "x87_sse_dpx"}) {
        EXPECT_FALSE(parse_fp_variant(text, &untouched)) << text;
        EXPECT_EQ(untouched, FpVariant::X87SseDp) << text;
    }
}
