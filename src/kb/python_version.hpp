#pragma once
/// One CPython version of the knowledge base.

#include <string>

#include "util/toml_reader.hpp"

namespace tailor {

struct PythonVersion {
  std::string version;  ///< "3.13"
  std::string end_of_life;

  /// "python313": the token used in variant names.
  std::string name_token() const;
  /// "python313Packages": the nixpkgs package set.
  std::string packages_attr() const { return name_token() + "Packages"; }
};

PythonVersion read_python_version(TableReader& r);

}  // namespace tailor
