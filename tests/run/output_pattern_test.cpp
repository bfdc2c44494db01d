// -o patterns: %r (the MPI rank, from the first rank variable set), %p, %h, %%, and the errors.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "emulator/run/output_pattern.h"

using namespace netburst::emu::run;

namespace {

PatternContext with_env(std::map<std::string, std::string> env) {
    auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(env));
    return PatternContext{[shared](const char* name) -> const char* {
                              const auto it = shared->find(name);
                              return it == shared->end() ? nullptr : it->second.c_str();
                          },
                          4242, "node07"};
}

std::string expand(const std::string& pattern, const PatternContext& c) {
    auto r = expand_output_pattern(pattern, c);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? *r : "";
}

TEST(OutputPattern, PlainNamesAreUnchanged) {
    EXPECT_EQ(expand("counts.json", with_env({})), "counts.json");
    EXPECT_EQ(expand("", with_env({})), "");
}

TEST(OutputPattern, EachSequence) {
    const auto c = with_env({{"OMPI_COMM_WORLD_RANK", "3"}});
    EXPECT_EQ(expand("counts.%r.json", c), "counts.3.json");
    EXPECT_EQ(expand("%h-%p.txt", c), "node07-4242.txt");
    EXPECT_EQ(expand("100%%-%r%r", c), "100%-33");
    EXPECT_EQ(expand("%%r", c), "%r");  // an escaped percent sign does not start a sequence
}

TEST(OutputPattern, RankVariablesInTheDocumentedOrder) {
    EXPECT_EQ(expand("%r", with_env({{"PMI_RANK", "5"}})), "5");
    EXPECT_EQ(expand("%r", with_env({{"PMIX_RANK", "6"}})), "6");
    EXPECT_EQ(expand("%r", with_env({{"SLURM_PROCID", "7"}})), "7");
    // OpenMPI also sets PMIX_RANK; inside a Slurm allocation SLURM_PROCID is mpirun's daemon, not the rank.
    EXPECT_EQ(expand("%r", with_env({{"SLURM_PROCID", "0"}, {"PMIX_RANK", "2"}, {"OMPI_COMM_WORLD_RANK", "2"}})), "2");
    EXPECT_EQ(expand("%r", with_env({{"SLURM_PROCID", "1"}, {"PMI_RANK", "9"}})), "9");
    std::string source;
    EXPECT_EQ(find_rank(with_env({{"PMIX_RANK", "1"}, {"SLURM_PROCID", "0"}}), &source), 1);
    EXPECT_EQ(source, "PMIX_RANK");
}

TEST(OutputPattern, ARankVariableThatIsNoNumberIsSkipped) {
    EXPECT_EQ(expand("%r", with_env({{"OMPI_COMM_WORLD_RANK", ""}, {"PMI_RANK", "x"}, {"PMIX_RANK", "4"}})), "4");
    EXPECT_EQ(find_rank(with_env({{"PMI_RANK", "-1"}})), -1);
}

TEST(OutputPattern, RankWithoutAVariableIsAnError) {
    auto r = expand_output_pattern("counts.%r.json", with_env({}));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("%r needs the MPI rank"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID"), std::string::npos);
    // Without %r the rank is not needed.
    EXPECT_TRUE(expand_output_pattern("counts.%p.json", with_env({})).ok());
}

TEST(OutputPattern, UnknownOrUnfinishedSequences) {
    EXPECT_FALSE(expand_output_pattern("a%x", with_env({})).ok());
    EXPECT_FALSE(expand_output_pattern("a%", with_env({})).ok());
    EXPECT_NE(expand_output_pattern("a%q", with_env({})).error().message.find("'%q'"), std::string::npos);
}

}  // namespace
