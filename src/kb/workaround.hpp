#pragma once
/// A pin-specific workaround: conditions under which it applies and the
/// changes it makes to a recipe. Data, so the generator needs no special cases.

#include <optional>
#include <string>
#include <vector>

#include "util/toml_reader.hpp"

namespace tailor {

struct GitHubSource {
  std::string owner, repo, rev, hash;
  bool fetch_submodules = false;
};

struct Workaround {
  std::string id;
  std::string summary;
  // Conditions; an empty list/string means "any".
  std::vector<std::string> pins;  ///< short revisions
  std::string torch;              ///< requested torch version
  std::vector<std::string> cuda;
  std::vector<std::string> packages;
  // Effects.
  std::optional<GitHubSource> torch_source;
  bool clear_patches = false;
  bool allow_broken = false;
  std::vector<std::string> cmake_flags;
  std::vector<std::string> env;  ///< "NAME=value"
  std::string version_txt;
  std::vector<std::string> cccl_include_links;
  bool shim_find_cuda_toolkit = false;
  std::vector<GitHubSource> magma_patches;  ///< commit in rev
  std::string source;
};

Workaround read_workaround(TableReader& r);

}  // namespace tailor
