#pragma once
/// "Did you mean" suggestions for names a user typed (ninja's habit).

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

/// Edit distance between \a a and \a b (insertions, deletions, substitutions,
/// adjacent transpositions).
int edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to \a word, if it is close enough to be a likely typo.
std::optional<std::string> closest_match(std::string_view word, std::span<const std::string> candidates);

/// The \a n candidates closest to \a word, closest first (ties in their order).
std::vector<std::string> nearest(std::string_view word, std::span<const std::string> candidates, size_t n);

/// "did you mean 'x'?" or empty.
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates);

}  // namespace tailor
