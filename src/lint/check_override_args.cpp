// TLR044 override-argument: `python3Packages.torch.override { withNvshmem = …; }`
// where the torch the recipe's nixpkgs pin ships takes no such argument.
// nixpkgs functions take no `...`: Nix stops the evaluation ("called with
// unexpected argument"). The formals are those a source states for that
// release ([[formals]] of nixpkgs_pins.toml); without them nothing is said.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/recipe_formals.hpp"
#include "lint/checks.hpp"
#include "util/edit_distance.hpp"

namespace tailor::lint {

namespace {

const NixpkgsPin* pin_of(const NixFile& f, const KnowledgeBase& kb) {
  for (const auto& p : f.facts.pins)
    if (const NixpkgsPin* pin = kb.pin(p.rev.substr(0, 7))) return pin;
  return nullptr;
}

// Where the formals of \a attribute at \a v were read, in words.
std::string formals_source(const KnowledgeBase& kb, const std::string& attribute, const Version& v) {
  std::vector<std::string> read;
  for (const auto& f : kb.formals)
    if (f.attribute == attribute) {
      if (f.version == v) return f.source;
      read.push_back(f.source);
    }
  return fmt::format("what both releases around it take: {}", fmt::format("{}", fmt::join(read, "; ")));
}

}  // namespace

void check_override_args(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  for (const auto& f : t.nix) {
    if (!f.parsed || f.facts.override_args.empty()) continue;
    const NixpkgsPin* pin = pin_of(f, kb);
    if (!pin) continue;
    for (const auto& a : f.facts.override_args) {
      std::string attribute = a.key;
      if (attribute.starts_with("package:")) {  // a variant record's: its package's attribute
        const PackageDef* p = kb.package(attribute.substr(8));
        if (!p) continue;
        attribute = p->attribute;
      }
      const Version* v = pin->version(attribute);
      if (!v) continue;
      std::vector<std::string> takes = expected_formals(kb.formals, attribute, *v);
      if (takes.empty() || std::find(takes.begin(), takes.end(), a.text) != takes.end()) continue;
      std::string hint = did_you_mean(a.text, takes);
      if (hint.empty()) hint = fmt::format("its formals: {}", formals_source(kb, attribute, *v));
      sink.add(f, "TLR044", a.span,
               fmt::format("{} {} of nixpkgs {} does not take an argument '{}': Nix stops the evaluation with "
                           "\"called with unexpected argument\"",
                           attribute, v->str(), pin->short_rev, a.text),
               hint);
    }
  }
}

}  // namespace tailor::lint
