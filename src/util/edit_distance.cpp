#include "util/edit_distance.hpp"

#include <algorithm>
#include <vector>

namespace tailor {

namespace {

// Optimal string alignment distance: Levenshtein plus adjacent transpositions,
// so "avx521" is one edit from "avx512". Three rolling rows instead of a
// matrix; once a whole row exceeds \a bound the answer can only be bigger,
// so it stops there (check's did-you-mean runs it against every recipe name).
int bounded_distance(std::string_view a, std::string_view b, int bound) {
  const size_t n = a.size(), m = b.size();
  std::vector<int> rows(3 * (m + 1));
  int* before = rows.data();     // row i - 2
  int* prev = before + (m + 1);  // row i - 1
  int* cur = prev + (m + 1);     // row i
  for (size_t j = 0; j <= m; ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    int row_min = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > bound) return row_min;
    std::swap(before, prev);  // rotate: prev becomes before, cur becomes prev
    std::swap(prev, cur);
  }
  return prev[m];
}

}  // namespace

int edit_distance(std::string_view a, std::string_view b) {
  return bounded_distance(a, b, static_cast<int>(std::max(a.size(), b.size())));
}

std::optional<std::string> closest_match(std::string_view word, std::span<const std::string> candidates) {
  // Allow about one edit per three characters, at least one, at most three.
  int limit = std::clamp(static_cast<int>(word.size()) / 3, 1, 3);
  std::optional<std::string> best;
  int best_distance = limit + 1;
  for (const auto& c : candidates) {
    // The length difference alone is a lower bound of the distance.
    int gap = static_cast<int>(word.size() > c.size() ? word.size() - c.size() : c.size() - word.size());
    if (gap >= best_distance) continue;
    int d = bounded_distance(word, c, best_distance - 1);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::vector<std::string> nearest(std::string_view word, std::span<const std::string> candidates, size_t n) {
  std::vector<std::pair<int, size_t>> scored;
  for (size_t i = 0; i < candidates.size(); ++i) scored.emplace_back(edit_distance(word, candidates[i]), i);
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(candidates[scored[i].second]);
  return out;
}

std::string did_you_mean(std::string_view word, std::span<const std::string> candidates) {
  auto m = closest_match(word, candidates);
  return m ? "did you mean '" + *m + "'?" : std::string();
}

}  // namespace tailor
