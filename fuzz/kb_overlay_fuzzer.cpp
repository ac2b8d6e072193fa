// Fuzz target for knowledge-base overlays (issue 33 §5): the first byte picks
// one KB file (packages.toml, cpu_isas.toml, …), the rest is its overlay text.
// Any input must either be rejected with a DiagnosticError or load, expand the
// embedded build-pytorch/main spec and generate a tree whose every .nix file
// parses: an overlay string that breaks out of its quoting traps.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

#include "generate/branch_tree.hpp"
#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "nix/normal_form.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  if (size == 0) return 0;
  const auto& names = tailor::kb_file_names();
  std::string file = names[data[0] % names.size()];
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    tailor::KnowledgeBase kb = tailor::KnowledgeBase::load_texts({{file, text}});
    tailor::Spec spec = tailor::load_spec_arg("build-pytorch/main", kb);
    tailor::Matrix m = tailor::expand(spec, kb);
    tailor::nix::SymbolTable symbols;
    tailor::nix::PathContext ctx{"/fuzz", "/home/fuzz"};
    for (const auto& f : tailor::branch_tree(spec, m, kb)) {
      if (f.path.size() < 4 || f.path.compare(f.path.size() - 4, 4, ".nix") != 0) continue;
      if (tailor::nix::normal_form(f.path, f.content, ctx, symbols).error) std::abort();  // a file that does not parse
    }
  } catch (const tailor::DiagnosticError& e) {
    (void)e.diagnostic().render();
  }
  return 0;
}
