#include "events/suggest.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace netburst {

namespace {
std::string lower(const std::string& s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
}  // namespace

unsigned edit_distance(const std::string& a_in, const std::string& b_in) {
    const std::string a = lower(a_in), b = lower(b_in);
    const std::size_t n = a.size(), m = b.size();
    // Optimal string alignment distance over a full table; names are short.
    std::vector<std::vector<unsigned>> d(n + 1, std::vector<unsigned>(m + 1));
    for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<unsigned>(i);
    for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<unsigned>(j);
    for (std::size_t i = 1; i <= n; ++i) {
        for (std::size_t j = 1; j <= m; ++j) {
            const unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[n][m];
}

std::vector<std::string> nearest_names(const std::string& wanted, const std::vector<std::string>& candidates,
                                       unsigned limit) {
    const std::string w = lower(wanted);
    std::vector<std::pair<unsigned, std::string>> scored;
    for (const std::string& c : candidates) {
        const std::string lc = lower(c);
        unsigned score = edit_distance(w, lc);
        const unsigned allowed = std::max<unsigned>(2, static_cast<unsigned>(std::max(w.size(), lc.size()) / 3));
        const bool contains = !w.empty() && (lc.find(w) != std::string::npos || w.find(lc) != std::string::npos);
        if (contains) score = std::min(score, 1u);
        if (score <= allowed) scored.emplace_back(score, c);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::string> out;
    for (const auto& s : scored) {
        if (out.size() >= limit) break;
        if (std::find(out.begin(), out.end(), s.second) == out.end()) out.push_back(s.second);
    }
    return out;
}

namespace {
std::string join_with(const std::vector<std::string>& names, const char* last_separator) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += (i + 1 == names.size()) ? last_separator : ", ";
        out += names[i];
    }
    return out;
}
}  // namespace

std::string join_alternatives(const std::vector<std::string>& names) { return join_with(names, " or "); }

std::string did_you_mean(const std::string& wanted, const std::vector<std::string>& candidates) {
    const std::vector<std::string> near = nearest_names(wanted, candidates);
    return near.empty() ? "" : "; did you mean " + join_alternatives(near) + "?";
}
std::string join_all(const std::vector<std::string>& names) { return join_with(names, " and "); }

}  // namespace netburst
