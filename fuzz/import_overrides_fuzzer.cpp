// Fuzz target for `tailor import`'s source-override reading: any byte string read
// as a recipe must yield its overrides (versions and fetches through let, rec,
// `${…}` and finalAttrs) or none; never crash, hang or leak. What the overrides
// become in a spec must be TOML that parses: recipe text reaches it quoted.
#include <cstdint>
#include <cstdlib>
#include <string>

#include <toml++/toml.h>

#include "import/import_overrides.hpp"
#include "kb/knowledge_base.hpp"
#include "resource_oracle.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  static const tailor::KnowledgeBase kb = tailor::KnowledgeBase::load();
  std::string text(reinterpret_cast<const char*>(data), size);
  tailor::RecipeSources recipe{"fuzz.nix", "6a030d5", "pytorch", tailor::read_recipe_overrides("fuzz.nix", text)};
  for (const auto& o : recipe.overrides) (void)o.describe();
  tailor::ImportedOverrides imported = tailor::import_overrides({recipe}, kb);
  if (!toml::parse(imported.toml)) std::abort();
  return 0;
}
