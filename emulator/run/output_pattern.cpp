#include "emulator/run/output_pattern.h"

#include <cstdlib>

#include <unistd.h>

namespace netburst::emu::run {

namespace {

Error bad(std::string message) { return make_error(ErrorCode::BadInput, std::move(message)); }

std::string rank_variable_list() {
    std::string out;
    for (const char* v : kRankVariables) out += (out.empty() ? "" : ", ") + std::string(v);
    return out;
}

bool parse_rank(const char* text, long* out) {
    if (!text || !*text) return false;
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (*end || v < 0) return false;
    *out = v;
    return true;
}

}  // namespace

PatternContext process_pattern_context(long pid) {
    char name[256] = {};
    const std::string host = gethostname(name, sizeof name - 1) == 0 ? name : "";
    return PatternContext{[](const char* variable) { return static_cast<const char*>(std::getenv(variable)); }, pid,
                          host};
}

long find_rank(const PatternContext& c, std::string* source) {
    for (const char* name : kRankVariables) {
        long rank = -1;
        if (!parse_rank(c.getenv(name), &rank)) continue;
        if (source) *source = name;
        return rank;
    }
    return -1;
}

Result<std::string> expand_output_pattern(const std::string& pattern, const PatternContext& c) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%') {
            out += pattern[i];
            continue;
        }
        if (i + 1 == pattern.size()) return bad("-o " + pattern + ": a lone '%' at the end (write %% for '%')");
        switch (pattern[++i]) {
        case '%': out += '%'; break;
        case 'p': out += std::to_string(c.pid); break;
        case 'h': out += c.host; break;
        case 'r': {
            const long rank = find_rank(c);
            if (rank < 0)
                return bad("-o " + pattern + ": %r needs the MPI rank, and none of " + rank_variable_list() +
                           " is set to a number (start netburst-run with mpirun or srun, or use %p)");
            out += std::to_string(rank);
            break;
        }
        default:
            return bad("-o " + pattern + ": unknown '%" + std::string(1, pattern[i]) +
                       "' (%r rank, %p process id, %h host, %% a percent sign)");
        }
    }
    return out;
}

}  // namespace netburst::emu::run
