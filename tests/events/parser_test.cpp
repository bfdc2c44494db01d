// Event strings: libpfm4 syntax, canonical spelling, defaults, and precise errors.
#include <gtest/gtest.h>

#include "events/parser.h"

using namespace netburst;

namespace {
EventRequest parse_ok(const std::string& s, unsigned model = kDefaultModel) {
    auto r = parse_event(s, model);
    EXPECT_TRUE(r.ok()) << s << ": " << r.error().message;
    return r.ok() ? r.value() : EventRequest{};
}
Error parse_err(const std::string& s, unsigned model = kDefaultModel) {
    auto r = parse_event(s, model);
    EXPECT_FALSE(r.ok()) << s << " unexpectedly parsed as " << (r.ok() ? canonical_name(*r) : "");
    return r.error();
}
}  // namespace

TEST(Parser, MasksInAnyOrderGiveOneCanonicalSpelling) {
    const auto a = parse_ok("branch_retired:MMTM:MMNM");
    const auto b = parse_ok("netburst::BRANCH_RETIRED:mmnm:mmtm");
    const auto c = parse_ok("netburst:::branch_retired:MMNM:MMTM");
    EXPECT_EQ(a, b);
    EXPECT_EQ(a, c);
    EXPECT_EQ(canonical_name(a), "branch_retired:MMNM:MMTM");
    EXPECT_EQ(a.mask, 0x000A);
}

TEST(Parser, CanonicalNameParsesBackToTheSameRequest) {
    for (const char* s : {"x87_FP_uop:TAG1:ALL:k", "execution_event:NBOGUS0:BOGUS3:cmpl:thr=3:e",
                          "replay_event:L1_LD_MISS:NBOGUS", "x87_FP_retired:tag=2:u", "uop_type:TAGLOADS",
                          "BSQ_cache_reference:RD_2ndL_MISS:RD_2ndL_HITS", "global_power_events"}) {
        const auto r = parse_ok(s);
        const auto again = parse_ok(canonical_name(r));
        EXPECT_EQ(r, again) << s << " -> " << canonical_name(r);
        EXPECT_EQ(canonical_name(again), canonical_name(r));
    }
}

TEST(Parser, DefaultMaskIsUsedWhenNoneIsGiven) {
    EXPECT_EQ(canonical_name(parse_ok("global_power_events")), "global_power_events:RUNNING");
    EXPECT_EQ(canonical_name(parse_ok("BPU_fetch_request")), "BPU_fetch_request:TCMISS");
    EXPECT_EQ(canonical_name(parse_ok("mispred_branch_retired")), "mispred_branch_retired:BOGUS");
    EXPECT_EQ(canonical_name(parse_ok("x87_FP_uop")), "x87_FP_uop:ALL");
    EXPECT_EQ(canonical_name(parse_ok("1stL_cache_load_miss_retired")), "1stL_cache_load_miss_retired:NBOGUS");
}

TEST(Parser, EventWithoutDefaultMaskNeedsOne) {
    const Error e = parse_err("branch_retired");
    EXPECT_EQ(e.code, ErrorCode::BadInput);
    EXPECT_NE(e.message.find("no default mask"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("MMNP"), std::string::npos) << e.message;
}

TEST(Parser, SdmSpellingsAreAliases) {
    EXPECT_EQ(canonical_name(parse_ok("uop_type:TAGLOADS")), "uops_type:TAGLOADS");
    EXPECT_EQ(canonical_name(parse_ok("mispred_branch_retired:NBOGUS")), "mispred_branch_retired:BOGUS");
    EXPECT_EQ(canonical_name(parse_ok("machine_clear:SMCCLEAR")), "machine_clear:SMCLEAR");
}

TEST(Parser, ModifiersSetPrivilegeAndCccrFiltering) {
    const auto r = parse_ok("instr_retired:NBOGUSNTAG:u:cmpl:thr=4");
    EXPECT_TRUE(r.privilege_explicit);
    EXPECT_TRUE(r.privilege.user);
    EXPECT_FALSE(r.privilege.kernel);
    EXPECT_TRUE(r.complement);
    EXPECT_EQ(r.threshold, 4);
    EXPECT_TRUE(r.compare());
    EXPECT_FALSE(parse_ok("instr_retired:NBOGUSNTAG").privilege_explicit);
    EXPECT_FALSE(parse_ok("instr_retired:NBOGUSNTAG:thr=0").compare());
    EXPECT_TRUE(parse_ok("instr_retired:NBOGUSNTAG:e").compare());
}

TEST(Parser, LibpfmLongFormParses) {
    const auto r = parse_ok("netburst::global_power_events:RUNNING:k=1:u=1:e=0:cmpl=0:thr=0");
    EXPECT_EQ(canonical_name(r), "global_power_events:RUNNING:u:k");
    const auto u = parse_ok("global_power_events:RUNNING:k=0:u=1:e=1:cmpl=1:thr=8");
    EXPECT_EQ(canonical_name(u), "global_power_events:RUNNING:u:cmpl:e:thr=8");
}

TEST(Parser, ThresholdMustFitTheCccrField) {
    parse_ok("instr_retired:NBOGUSNTAG:thr=15");
    const Error e = parse_err("instr_retired:NBOGUSNTAG:thr=16");
    EXPECT_NE(e.message.find("0-15"), std::string::npos) << e.message;
    parse_err("instr_retired:NBOGUSNTAG:thr=-1");
    parse_err("instr_retired:NBOGUSNTAG:thr=");
    parse_err("instr_retired:NBOGUSNTAG:thr");
    parse_err("instr_retired:NBOGUSNTAG:thr=99999999999999999999");
}

TEST(Parser, DuplicateModifiersAndMasksAreErrors) {
    EXPECT_NE(parse_err("instr_retired:NBOGUSNTAG:u:u").message.find("twice"), std::string::npos);
    EXPECT_NE(parse_err("instr_retired:NBOGUSNTAG:thr=1:thr=1").message.find("twice"), std::string::npos);
    EXPECT_NE(parse_err("instr_retired:NBOGUSNTAG:NBOGUSNTAG").message.find("twice"), std::string::npos);
    parse_err("x87_FP_uop:ALL:TAG1:TAG1");
    parse_err("x87_FP_retired:tag=1:tag=2");
    parse_err("instr_retired:NBOGUSNTAG:u=1:u");
}

TEST(Parser, UnknownEventSuggestsNearestNames) {
    const Error e = parse_err("brnach_retired:MMTM");
    EXPECT_EQ(e.code, ErrorCode::BadInput);
    EXPECT_NE(e.message.find("branch_retired"), std::string::npos) << e.message;
    const Error f = parse_err("x87_fp_retried");
    EXPECT_NE(f.message.find("x87_FP_retired"), std::string::npos) << f.message;
}

TEST(Parser, UnknownMaskSuggestsNearestMasks) {
    const Error e = parse_err("branch_retired:MMTX");
    EXPECT_NE(e.message.find("MMTM"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("MMTP"), std::string::npos) << e.message;
    const Error f = parse_err("replay_event:NBOGUS:L1_MISS");
    EXPECT_NE(f.message.find("L1_LD_MISS"), std::string::npos) << f.message;
}

TEST(Parser, EventAbsentOnTheModelIsRefusedWithTheReason) {
    const Error e = parse_err("instr_completed:NBOGUS", 2);
    EXPECT_EQ(e.code, ErrorCode::NotOnModel);
    EXPECT_NE(e.message.find("3, 4, 6"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("model 2"), std::string::npos) << e.message;
    parse_ok("instr_completed:NBOGUS", 3);
}

TEST(Parser, ReplayVirtualMasksSelectTheirMetric) {
    const auto r = parse_ok("replay_event:NBOGUS:L1_LD_MISS");
    ASSERT_TRUE(r.is_metric());
    EXPECT_EQ(r.metric->id, MetricId::L1LoadMissRetired);
    EXPECT_EQ(r, parse_ok("1stL_cache_load_miss_retired"));
    EXPECT_EQ(canonical_name(parse_ok("replay_event:BOGUS:L2_LD_MISS")), "2ndL_cache_load_miss_retired:BOGUS");
    const Error e = parse_err("replay_event:NBOGUS:L1_LD_MISS:L2_LD_MISS");
    EXPECT_NE(e.message.find("one replay metric"), std::string::npos) << e.message;
    EXPECT_FALSE(parse_ok("replay_event:NBOGUS").is_metric()) << "plain replay_event counts whatever is tagged";
}

TEST(Parser, TagsApplyOnlyWhereTaggingExists) {
    EXPECT_EQ(parse_ok("x87_FP_uop:ALL:TAG2").tag_value, 4);
    EXPECT_EQ(parse_ok("x87_FP_uop:ALL:tag=2").tag_value, 4);
    EXPECT_EQ(parse_ok("x87_FP_retired:tag=3").pinned_tag_bit, 3);
    EXPECT_EQ(parse_ok("x87_FP_retired").pinned_tag_bit, -1);
    parse_err("x87_FP_retired:tag=4");
    parse_err("branch_retired:MMTM:tag=1");
    parse_err("1stL_cache_load_miss_retired:tag=1");
    parse_err("x87_FP_uop:ALL:TAG1:tag=1");
    parse_err("branch_retired:MMTM:TAG0");
}

TEST(Parser, MalformedStringsAreErrorsNotCrashes) {
    for (const char* s : {"", ":", "::", ":::", "branch_retired:", "branch_retired::MMTM", "netburst::", "foo::bar",
                          "branch_retired:MMTM:=3", "branch_retired:MMTM:x=1", "branch retired", "u=0:k=0",
                          "instr_retired:NBOGUSNTAG:u=0:k=0", "instr_retired:NBOGUSNTAG:u=2"})
        parse_err(s);
}

// libpfm4's :precise=N: every level asks for PEBS, which has no skid on NetBurst, so all spell :precise=1.
TEST(Parser, PreciseLevelsAreOneRequest) {
    const auto one = parse_ok("1stL_cache_load_miss_retired:precise=1");
    EXPECT_EQ(one.precise, 1);
    EXPECT_EQ(parse_ok("1stL_cache_load_miss_retired:precise=3"), one);
    EXPECT_EQ(parse_ok("netburst::replay_event:L1_LD_MISS:NBOGUS:precise=2"), one);
    EXPECT_EQ(canonical_name(one), "1stL_cache_load_miss_retired:NBOGUS:precise=1");
    EXPECT_EQ(parse_ok(canonical_name(one)), one);
    // Level 0 is the plain event.
    EXPECT_EQ(parse_ok("1stL_cache_load_miss_retired:precise=0"), parse_ok("1stL_cache_load_miss_retired"));
    EXPECT_NE(one, parse_ok("1stL_cache_load_miss_retired"));
}

// perf's :p, :pp and :ppp are aliases of levels 1-3; the level as written is kept beside the one request.
TEST(Parser, PerfSpellingsOfThePreciseLevel) {
    const auto one = parse_ok("1stL_cache_load_miss_retired:precise=1");
    const auto pp = parse_ok("1stL_cache_load_miss_retired:pp");
    EXPECT_EQ(pp, one);
    EXPECT_EQ(pp.precise_asked, 2);
    EXPECT_EQ(parse_ok("1stL_cache_load_miss_retired:ppp").precise_asked, 3);
    EXPECT_EQ(parse_ok("1stL_cache_load_miss_retired:precise=3").precise_asked, 3);
    EXPECT_EQ(parse_ok("1stL_cache_load_miss_retired:p").precise, 1);
    parse_err("1stL_cache_load_miss_retired:p=1");
    parse_err("1stL_cache_load_miss_retired:p:precise=1");
    parse_err("1stL_cache_load_miss_retired:p:pp");
    parse_err("instr_retired:NBOGUSNTAG:p");  // cannot drive PEBS
}

TEST(Parser, PreciseNeedsAnEventThatDrivesPebs) {
    // Each at-retirement metric counts with front_end_event, execution_event or replay_event.
    for (const std::string& m : pebs_metric_names()) EXPECT_EQ(parse_ok(m + ":precise=1").precise, 1) << m;
    EXPECT_EQ(pebs_metric_names().size(), 19u);
    EXPECT_EQ(parse_ok("execution_event:NBOGUS0:precise=1").precise, 1);
    const Error e = parse_err("mispred_branch_retired:precise=1");
    EXPECT_NE(e.message.find("cannot drive PEBS"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("replay_event"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("1stL_cache_load_miss_retired"), std::string::npos) << e.message;
    EXPECT_NE(parse_err("global_power_events:precise=2").message.find("cannot drive PEBS"), std::string::npos);
}

TEST(Parser, PreciseLevelAndFilteringErrors) {
    EXPECT_NE(parse_err("memory_loads:precise=4").message.find("0-3"), std::string::npos);
    EXPECT_NE(parse_err("memory_loads:precise").message.find("precise=1"), std::string::npos);
    EXPECT_NE(parse_err("memory_loads:precise=1:precise=1").message.find("twice"), std::string::npos);
    const Error e = parse_err("execution_event:NBOGUS0:thr=2:precise=1");
    EXPECT_NE(e.message.find("counts each event"), std::string::npos) << e.message;
}
