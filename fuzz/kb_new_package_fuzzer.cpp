// Fuzz target for `kb new-package NAME`: any name is refused with a DiagnosticError, or gives
// an overlay that the knowledge base loads (its TOML is TOML, its strings quoted) with the new
// builder beside every builder it had, none of them replaced (issue 46 #7: `torch` replaced
// lib/torch.nix in every tree using the overlay).
#include <cstdint>
#include <map>
#include <string>

#include "kb/knowledge_base.hpp"
#include "kb/package_scaffold.hpp"
#include "util/diagnostic.hpp"

#include "resource_oracle.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  static const tailor::KnowledgeBase kb = tailor::KnowledgeBase::load();
  if (size > 256) return 0;
  std::string name(reinterpret_cast<const char*>(data), size);
  tailor::PackageScaffold s;
  try {
    s = tailor::scaffold_package(kb, name, "vllm");
  } catch (const tailor::DiagnosticError& e) {
    (void)e.diagnostic().render();
    return 0;
  }
  std::map<std::string, std::string> files(s.files.begin(), s.files.end());
  if (!files.count("builders/" + name + ".nix")) __builtin_trap();
  tailor::KnowledgeBase with = tailor::KnowledgeBase::load_texts(files);  // throws: a finding
  for (const auto& [file, text] : kb.builder_files) {
    auto it = with.builder_files.find(file);
    if (it == with.builder_files.end() || it->second != text) __builtin_trap();  // a shared builder replaced
  }
  if (!with.package(name)) __builtin_trap();
  return 0;
}
