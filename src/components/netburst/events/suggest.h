// "Did you mean" for unknown event and mask names.
#pragma once

#include <string>
#include <vector>

namespace netburst {

// Case-insensitive edit distance (insertions, deletions, substitutions and adjacent transpositions).
unsigned edit_distance(const std::string& a, const std::string& b);

// Up to `limit` candidates closest to `wanted`, best first. A candidate qualifies when its edit distance is small
// for its length (a third of the longer name, at least 2), or when one name contains the other.
std::vector<std::string> nearest_names(const std::string& wanted, const std::vector<std::string>& candidates,
                                       unsigned limit = 3);

// "; did you mean a, b or c?" for the nearest candidates, or "" when none is near: the one wording of every
// unknown-name message (events, masks, presets).
std::string did_you_mean(const std::string& wanted, const std::vector<std::string>& candidates);

// "a, b or c" and "a, b and c"
std::string join_alternatives(const std::vector<std::string>& names);
std::string join_all(const std::vector<std::string>& names);

}  // namespace netburst
