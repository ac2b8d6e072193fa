#pragma once
/// The rules of `tailor check`: one row per rule with a stable code (used in
/// suppressions, JSON and docs), a default severity and a one-line summary.

#include <span>
#include <string_view>

#include "util/diagnostic.hpp"

namespace tailor::lint {

struct Rule {
  std::string_view code;     ///< "TLR002": stable, never reused
  std::string_view name;     ///< "name-mismatch": readable alias of the code
  Severity severity;         ///< what a finding of this rule is
  std::string_view summary;  ///< one line, printed by `tailor check --rules`
  /// The rule judges a recipe by the variant its file name promises (a package of
  /// the knowledge base): skipped for recipes of other packages (TLR032 names them).
  bool per_variant = false;
};

/// Every rule, ordered by code.
std::span<const Rule> rules();

/// The rule with code or name \a key ("TLR002" or "name-mismatch"); null if none.
const Rule* find_rule(std::string_view key);

/// The rule with code \a code; the code must exist (a programming error otherwise).
const Rule& rule(std::string_view code);

}  // namespace tailor::lint
