// The native-event registry: what papi_native_avail lists and how names map to codes.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "component/native_registry.h"
#include "events/parser.h"
#include "presets/preset_table.h"
#include "table/events.h"
#include "table/metrics.h"

using namespace netburst;
using namespace netburst::component;

namespace {

struct Listed {
    unsigned code;
    std::string name;
    bool is_event;  // an event (PAPI_ENUM_EVENTS), not a mask (PAPI_NTV_ENUM_UMASKS)
};

std::vector<Listed> enumerate(const NativeRegistry& r) {
    std::vector<Listed> out;
    unsigned code = 0;
    if (!r.first(&code)) return out;
    do {
        std::string name;
        EXPECT_TRUE(r.name_of(code, &name));
        out.push_back({code, name, true});
        unsigned mask = code;
        while (r.next_umask(&mask)) {
            EXPECT_TRUE(r.name_of(mask, &name));
            out.push_back({mask, name, false});
        }
    } while (r.next_event(&code));
    return out;
}

bool listed(const std::vector<Listed>& all, const std::string& name) {
    for (const Listed& l : all)
        if (l.name == name) return true;
    return false;
}

}  // namespace

TEST(NativeRegistry, ListsEveryEventMaskAndMetricOfTheModelWithDescriptions) {
    NativeRegistry r(2);
    const auto all = enumerate(r);
    unsigned events = 0;
    for (const EventDef& e : kEvents) {
        if (!event_on_model(e, 2)) {
            EXPECT_FALSE(listed(all, e.name)) << e.name << " does not exist on model 2";
            continue;
        }
        ++events;
        EXPECT_TRUE(listed(all, e.name)) << e.name;
        for (unsigned m = 0; m < e.num_masks; ++m) {
            if (model_in(e.masks[m].models, 2)) {
                EXPECT_TRUE(listed(all, std::string(e.name) + ":" + e.masks[m].name)) << e.name << ":" << e.masks[m].name;
            }
        }
    }
    for (const MetricDef& m : kMetrics) {
        ++events;
        EXPECT_TRUE(listed(all, m.name)) << m.name;
        EXPECT_TRUE(listed(all, std::string(m.name) + ":NBOGUS"));
        EXPECT_TRUE(listed(all, std::string(m.name) + ":BOGUS"));
        if (m.replay_mask) {
            EXPECT_TRUE(listed(all, std::string("replay_event:") + m.replay_mask)) << m.replay_mask;
        }
    }
    EXPECT_TRUE(listed(all, "x87_FP_uop:TAG3"));
    EXPECT_EQ(r.num_events(), events);
    unsigned event_entries = 0;
    for (const Listed& l : all) {
        event_entries += l.is_event;
        std::string d, s;
        ASSERT_TRUE(r.description_of(l.code, &d));
        ASSERT_TRUE(r.short_description_of(l.code, &s));
        EXPECT_FALSE(d.empty()) << l.name;
        EXPECT_FALSE(s.empty()) << l.name;
        EXPECT_LT(s.size(), 64u) << l.name << ": PAPI's short description holds 64 characters";
        // papi_native_avail shows a mask's own description from the text after "masks:".
        EXPECT_EQ(!l.is_event, d.find(", masks:") != std::string::npos) << l.name << ": " << d;
    }
    EXPECT_EQ(event_entries, events);
}

TEST(NativeRegistry, InstrCompletedOnlyOnPrescottAndLater) {
    EXPECT_FALSE(listed(enumerate(NativeRegistry(2)), "instr_completed"));
    EXPECT_TRUE(listed(enumerate(NativeRegistry(3)), "instr_completed"));
}

TEST(NativeRegistry, EnumeratedCountableNamesRoundTrip) {
    NativeRegistry r(2);
    for (const Listed& l : enumerate(r)) {
        auto request = r.request_of(l.code);
        if (!request.ok()) continue;  // an event without a default mask
        auto code = r.code_for(l.name);
        ASSERT_TRUE(code.ok()) << l.name << ": " << code.error().message;
        std::string name;
        ASSERT_TRUE(r.name_of(*code, &name));
        EXPECT_EQ(name, canonical_name(*request)) << l.name;
        EXPECT_EQ(*r.request_of(*code), *request) << l.name;
    }
}

TEST(NativeRegistry, AnyMaskOrderAliasOrPrefixGivesTheCanonicalCode) {
    NativeRegistry r(2);
    const auto canonical = r.code_for("branch_retired:MMNP:MMTM");
    ASSERT_TRUE(canonical.ok());
    for (const char* spelling : {"branch_retired:MMTM:MMNP", "BRANCH_RETIRED:mmtm:mmnp", "netburst::branch_retired:MMTM:MMNP"}) {
        auto c = r.code_for(spelling);
        ASSERT_TRUE(c.ok()) << spelling;
        EXPECT_EQ(*c, *canonical) << spelling;
    }
    std::string name;
    ASSERT_TRUE(r.name_of(*canonical, &name));
    EXPECT_EQ(name, "branch_retired:MMNP:MMTM");

    // The SDM spelling uop_type and libpfm4's uops_type are one event.
    EXPECT_EQ(*r.code_for("uop_type:TAGLOADS"), *r.code_for("uops_type:TAGLOADS"));
    // libpfm4's replay_event virtual mask is the replay metric, which programs the tagging MSRs.
    EXPECT_EQ(*r.code_for("replay_event:NBOGUS:L1_LD_MISS"), *r.code_for("1stL_cache_load_miss_retired"));
    ASSERT_TRUE(r.name_of(*r.code_for("replay_event:L1_LD_MISS"), &name));
    EXPECT_EQ(name, "1stL_cache_load_miss_retired:NBOGUS");
    // An event named without its default mask is the event with it.
    EXPECT_EQ(*r.code_for("global_power_events"), *r.code_for("global_power_events:RUNNING"));
}

TEST(NativeRegistry, ModifiersMakeDistinctEvents) {
    NativeRegistry r(2);
    std::set<unsigned> codes;
    for (const char* name : {"instr_retired:NBOGUSNTAG", "instr_retired:NBOGUSNTAG:u", "instr_retired:NBOGUSNTAG:k",
                             "instr_retired:NBOGUSNTAG:u:k", "instr_retired:NBOGUSNTAG:cmpl:thr=1",
                             "instr_retired:NBOGUSNTAG:e:thr=1", "instr_retired:NBOGUSNTAG:thr=2",
                             "x87_FP_retired:NBOGUS:tag=2", "x87_FP_uop:ALL:TAG1"}) {
        auto c = r.code_for(name);
        ASSERT_TRUE(c.ok()) << name << ": " << c.error().message;
        codes.insert(*c);
        std::string back;
        ASSERT_TRUE(r.name_of(*c, &back));
        EXPECT_EQ(*r.code_for(back), *c) << name << " -> " << back;
    }
    EXPECT_EQ(codes.size(), 9u);
    EXPECT_EQ(*r.code_for("instr_retired:NBOGUSNTAG:k:u"), *r.code_for("instr_retired:NBOGUSNTAG:u:k"));
}

TEST(NativeRegistry, UnknownNamesAndMasklessEvents) {
    NativeRegistry r(2);
    auto bad = r.code_for("branch_retierd:MMNP");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("branch_retired"), std::string::npos) << "suggests the nearest name";
    EXPECT_FALSE(r.code_for("PAPI_TOT_INS").ok());
    EXPECT_FALSE(r.code_for("instr_completed:NBOGUS").ok()) << "not on model 2";
    EXPECT_FALSE(r.request_of(123456).ok());

    // branch_retired is listed as an event, but counting it needs a mask: the error says which.
    unsigned code = 0;
    ASSERT_TRUE(r.first(&code));
    std::string name;
    do {
        r.name_of(code, &name);
    } while (name != "branch_retired" && r.next_event(&code));
    ASSERT_EQ(name, "branch_retired");
    auto req = r.request_of(code);
    ASSERT_FALSE(req.ok());
    EXPECT_NE(req.error().message.find("MMTM"), std::string::npos) << req.error().message;
}

TEST(NativeRegistry, EveryPresetTermIsANativeEventWhoseNameIsTheTerm) {
    // PAPI resolves preset terms by name; the term must come back from code_to_name unchanged.
    NativeRegistry r(2);
    for (const auto& [preset, fp] : all_preset_variants())
        for (const char* term : preset.terms) {
            auto code = r.code_for(term);
            ASSERT_TRUE(code.ok()) << preset.name << ": " << term;
            std::string name;
            ASSERT_TRUE(r.name_of(*code, &name));
            EXPECT_EQ(name, term) << preset.name;
        }
}

TEST(NativeRegistry, EnumeratedCodesAreStable) {
    NativeRegistry a(2);
    NativeRegistry b(2);
    a.code_for("branch_retired:MMTM:MMNP:u");  // an added code does not move enumerated ones
    const auto la = enumerate(a);
    const auto lb = enumerate(b);
    ASSERT_EQ(la.size(), lb.size());
    for (std::size_t i = 0; i < la.size(); ++i) {
        EXPECT_EQ(la[i].code, lb[i].code);
        EXPECT_EQ(la[i].name, lb[i].name);
    }
    unsigned added = *a.code_for("branch_retired:MMTM:MMNP:u");
    unsigned mask = added;
    EXPECT_FALSE(a.next_umask(&mask)) << "added codes are not enumerated";
}
