#pragma once
/// A pin-specific workaround: conditions under which it applies and the
/// changes it makes to a recipe. Data, so the generator needs no special cases.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kb/source_override.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

/// Patches a builder applies, received as `workarounds.KEY` (a list of
/// { owner; repo; commit; hash; }): commits of a GitHub repository.
struct PatchEffect {
  std::string key;      ///< "magmaPatches"
  GitHubSource commit;  ///< commit in rev
};

/// Include paths a builder links, received as `workarounds.KEY` (a list of names).
struct IncludeLinks {
  std::string key;                 ///< "cccl"
  std::vector<std::string> names;  ///< "cuda", "cub", …
};

struct Workaround {
  std::string id;
  std::string summary;
  // Conditions; an empty list means "any".
  std::vector<std::string> pins;  ///< short revisions
  /// nixpkgs attribute -> the version the spec must request ([branch] torch = "2.10.0").
  std::vector<std::pair<std::string, std::string>> requested;
  std::vector<std::string> cuda;
  std::vector<std::string> packages;
  // Effects: generic data the variant's builders receive (recipe.cpp), and
  // each builder interprets.
  std::optional<SourceOverride> source_override;
  bool allow_broken = false;
  /// Switches set to true in the builder's `workarounds` ("shimFindCudaToolkit").
  std::vector<std::string> switches;
  std::vector<IncludeLinks> include_links;
  std::vector<PatchEffect> patches;
  std::vector<std::string> env;  ///< exported variables, "NAME=value"
  std::string source;
};

Workaround read_workaround(TableReader& r);

/// The keys of a builder's `workarounds` that a workaround's effects fill
/// (switches, include links, patches), in the order the recipe writes them.
std::vector<std::string> effect_keys(const Workaround& w);

}  // namespace tailor
