// What a change to a tree introduced: the findings of the result that the
// tree did not already have. repin reports these apart from the old ones, and
// its exit status follows them: a tree that had errors before is no failure
// of the move. A finding is keyed by rule, file and line (a pin edit changes
// the message's revision but never moves a line).
#include <set>
#include <tuple>

#include "lint/linter.hpp"

namespace tailor::lint {

CheckResult findings_not_in(const CheckResult& after, const CheckResult& before) {
  using Key = std::tuple<std::string_view, std::string_view, int>;
  std::multiset<Key> had;
  for (const auto& p : before.problems) had.insert({p.rule->code, p.rel, p.pos.line});
  CheckResult out;
  out.files = after.files;
  out.recipes = after.recipes;
  for (const auto& p : after.problems) {
    auto it = had.find({p.rule->code, p.rel, p.pos.line});
    if (it != had.end()) {
      had.erase(it);
      continue;
    }
    out.problems.push_back(p);
    if (p.rule->severity == Severity::error) ++out.errors;
    if (p.rule->severity == Severity::warning) ++out.warnings;
  }
  return out;
}

}  // namespace tailor::lint
