#pragma once
/// Whether a version a text names is a claim about what this recipe or tree
/// builds, or says something else: history and ranges ("SM120 support was added
/// in PyTorch 2.7", "needs vLLM 0.14+") and other branches ("the pytorch-2.10
/// branch builds PyTorch 2.10.0"). Read by TLR033 (version-text).

#include <string_view>

namespace tailor::lint {

/// The version at [\a version_at, \a version_end) of \a line, named after a package
/// written at \a name_at, is a point in history or a bound of a range: the
/// words before the name ("added in", "since", "requires") or after the
/// version ("+", "or later") say so.
bool historical_claim(std::string_view line, size_t name_at, size_t version_end);

/// \a line speaks of another branch where it names version \a claimed: a
/// branch word with that version ("pytorch-2.10", "pytorch-2.9-python313"), or
/// "branch" of something other than "this branch".
bool about_other_branch(std::string_view line, std::string_view claimed);

}  // namespace tailor::lint
