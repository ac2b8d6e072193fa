#pragma once
/// The formal arguments of a nixpkgs package function as a source states them
/// for one release of the package ([[formals]] in nixpkgs_pins.toml). nixpkgs
/// functions take no `...`: overriding an argument the function lacks stops
/// evaluation ("called with unexpected argument"), so what a pin records of
/// them must lie within what a source states for the release it ships.

#include <string>
#include <vector>

#include "kb/package.hpp"
#include "util/toml_reader.hpp"
#include "util/version.hpp"

namespace tailor {

struct RecipeFormals {
  std::string attribute;  ///< "torch"
  Version version;        ///< the release whose function was read
  std::vector<std::string> args;
  std::string source;  ///< the nixpkgs file and the revision it was read at
  DataPos at;
};

RecipeFormals read_recipe_formals(TableReader& r);

/// The formals of \a attribute at \a version: a source's, when one states them
/// for that release; otherwise those that the nearest releases below and above
/// with stated formals both take (what a release between them can be expected
/// to take); empty when neither side has any.
std::vector<std::string> expected_formals(const std::vector<RecipeFormals>& all, std::string_view attribute,
                                          const Version& version);

}  // namespace tailor
