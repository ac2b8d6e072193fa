#pragma once
/// One nixpkgs revision of the knowledge base and what it provides.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/toml_reader.hpp"
#include "util/version.hpp"

namespace tailor {

struct NixpkgsPin {
  std::string short_rev;  ///< "fe5e41d"
  std::string rev;        ///< 40 hex digits
  std::string sha256;     ///< tarball hash; empty when unknown
  /// nixpkgs attribute -> the version the revision ships ("torch" -> 2.9.1)
  std::map<std::string, Version> versions;
  std::vector<std::string> python;  ///< "3.13", ...
  std::string python_default;
  std::vector<std::string> cuda;  ///< "12.9", ...
  std::optional<Version> cudnn;
  std::string cutlass;
  std::vector<std::string> torch_args;
  /// nixpkgs attribute -> the formal arguments of its function (torch's are torch_args)
  std::map<std::string, std::vector<std::string>> function_args;
  /// The lists that are exhaustive ("python", "cuda"): a value missing from
  /// one of them is recorded as absent; from the others, merely not recorded.
  std::vector<std::string> complete;
  std::vector<std::string> used_by;
  std::string notes;
  std::string source;

  std::string tarball_url() const;
  bool provides_python(std::string_view v) const;
  bool provides_cuda(std::string_view v) const;
  bool has_torch_arg(std::string_view a) const;
  /// Whether the \a list ("python", "cuda") names everything the revision has.
  bool is_complete(std::string_view list) const;
  /// The version of \a attribute the revision ships; null when not recorded.
  const Version* version(std::string_view attribute) const;
  /// The same as text; empty when not recorded.
  std::string version_text(std::string_view attribute) const;
};

NixpkgsPin read_nixpkgs_pin(TableReader& r);

}  // namespace tailor

namespace tailor {
/// The torch override arguments tailor's recipes pass; every pin must have them.
const std::vector<std::string>& recipe_torch_args();
}  // namespace tailor
