// The -o file name as a pattern, so that every process of a parallel job (mpirun -np N netburst-run ...) writes
// its own report: %r the MPI rank, %p the program's process id, %h the host name, %% a percent sign.
#pragma once

#include <functional>
#include <string>

#include "events/status.h"

namespace netburst::emu::run {

// The environment variables that carry the rank, in the order they are tried: the MPI launchers' own first
// (OpenMPI's mpirun, then MPICH's Hydra), then PMIx's, and Slurm's task id last, because inside an allocation
// mpirun starts its daemons with srun and SLURM_PROCID is then the daemon's number, not the rank.
inline constexpr const char* kRankVariables[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};

// What the patterns stand for. `getenv` is a parameter so that tests can give their own environment.
struct PatternContext {
    std::function<const char*(const char*)> getenv;
    long pid = 0;
    std::string host;
};

// This process's environment and host name, for a program whose process id is `pid` (0 before it runs: then %p
// expands to 0, which is enough to check a pattern before running).
PatternContext process_pattern_context(long pid);

// The rank from the first variable of kRankVariables that is set (and is a decimal number), or -1.
// *source receives the variable's name.
long find_rank(const PatternContext& context, std::string* source = nullptr);

// BadInput when the pattern has an unknown %-sequence or ends in '%', or asks for %r and no rank variable is set.
Result<std::string> expand_output_pattern(const std::string& pattern, const PatternContext& context);

}  // namespace netburst::emu::run
