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

struct Workaround {
  std::string id;
  std::string summary;
  // Conditions; an empty list means "any".
  std::vector<std::string> pins;  ///< short revisions
  /// nixpkgs attribute -> the version the spec must request ([branch] torch = "2.10.0").
  std::vector<std::pair<std::string, std::string>> requested;
  std::vector<std::string> cuda;
  std::vector<std::string> packages;
  // Effects.
  std::optional<SourceOverride> source_override;
  bool allow_broken = false;
  std::vector<std::string> cccl_include_links;
  bool shim_find_cuda_toolkit = false;
  std::vector<GitHubSource> magma_patches;  ///< commit in rev
  std::string source;
};

Workaround read_workaround(TableReader& r);

}  // namespace tailor
