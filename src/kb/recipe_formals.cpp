#include "kb/recipe_formals.hpp"

#include <algorithm>

#include "kb/read_helpers.hpp"

namespace tailor {

RecipeFormals read_recipe_formals(TableReader& r) {
  RecipeFormals f;
  f.at = {r.doc().path(), r.pos()};
  f.attribute = r.required_string("attribute").value;
  f.version = require_version(r.doc(), r.required_string("version"), "version");
  auto args = r.strings("args");
  if (!args || args->empty()) throw r.doc().error_at(r.pos(), "[[formals]] needs 'args': the function's formals");
  f.args = values(args);
  f.source = r.required_string("source").value;
  return f;
}

std::vector<std::string> expected_formals(const std::vector<RecipeFormals>& all, std::string_view attribute,
                                          const Version& version) {
  const RecipeFormals* below = nullptr;
  const RecipeFormals* above = nullptr;
  for (const auto& f : all) {
    if (f.attribute != attribute) continue;
    if (f.version == version) return f.args;
    if (f.version < version && (!below || below->version < f.version)) below = &f;
    if (version < f.version && (!above || f.version < above->version)) above = &f;
  }
  if (!below || !above) return {};
  std::vector<std::string> both;
  for (const auto& a : below->args)
    if (std::find(above->args.begin(), above->args.end(), a) != above->args.end()) both.push_back(a);
  return both;
}

}  // namespace tailor
