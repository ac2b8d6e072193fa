// TLR007 python-set-mismatch, TLR008 python-set-mixed.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"
#include "recipe/python_names.hpp"
#include "util/version_spelling.hpp"

namespace tailor::lint {

namespace {

std::string pin_default_python(const NixFile& f, const KnowledgeBase& kb) {
  for (const auto& p : f.facts.pins)
    if (const NixpkgsPin* pin = kb.pin(p.rev.substr(0, 7)); pin && !pin->python_default.empty())
      return fmt::format(" (Python {} at {})", pin->python_default, pin->short_rev);
  return "";
}

/// " for nixpkgs 0182a36" when the file names a pin; empty otherwise.
std::string pin_named(const NixFile& f) {
  return f.facts.pins.empty() ? "" : fmt::format(" for nixpkgs {}", f.facts.pins.front().rev.substr(0, 7));
}

/// The family of a recipe: "3.13/12.9" from its name's Python and its CUDA
/// (either part empty when the name or overlay does not say).
std::string family_of(const NixFile& f) {
  std::string python = f.variant ? f.variant->python : "";
  for (size_t b = 0; python.empty() && b < f.stem.size();) {
    size_t e = std::min(f.stem.find('-', b), f.stem.size());
    python = recipe::python_version(std::string_view(f.stem).substr(b, e - b));
    b = e + 1;
  }
  std::string cuda = effective_cuda(f);
  for (size_t b = 0; cuda.empty() && b < f.stem.size();) {
    size_t e = std::min(f.stem.find('-', b), f.stem.size());
    std::string tok = f.stem.substr(b, e - b);
    if (tok.starts_with("cuda") && tok.find('_') != std::string::npos) cuda = tok.substr(4);
    std::replace(cuda.begin(), cuda.end(), '_', '.');
    b = e + 1;
  }
  return python + "/" + cuda;
}

/// "python313 recipes for CUDA 12.9" for family "3.13/12.9".
std::string family_words(const std::string& family) {
  size_t slash = family.find('/');
  std::string python = family.substr(0, slash), cuda = family.substr(slash + 1);
  std::string out = python.empty() ? "recipes" : fmt::format("python{} recipes", nodot(python));
  if (!cuda.empty()) out += " for CUDA " + cuda;
  return python.empty() && cuda.empty() ? "recipes of this tree" : out;
}

/// The pin's python3 ("3.13"), or empty when the file's pin or its default is unknown.
std::string pin_default_version(const NixFile& f, const KnowledgeBase& kb) {
  for (const auto& p : f.facts.pins)
    if (const NixpkgsPin* pin = kb.pin(p.rev.substr(0, 7))) return pin->python_default;
  return "";
}

/// The fix of TLR007: every use of a package set (or interpreter) for another
/// Python renamed to the name's, with the formals and let bindings that bind it.
void rename_python(const NixFile& f, const std::string& want, const std::string& token, Problem& p) {
  if (f.facts.python_rename_unsafe) return;
  std::map<std::string, std::string> renames;  // old name -> new name
  for (const auto& use : f.facts.python_sets)
    if (recipe::python_version(use.text) != want)
      renames[use.text] = token + (use.text.ends_with("Packages") ? "Packages" : "");
  for (const auto& b : f.facts.python_binders)
    for (const auto& [from, to] : renames)
      if (b.text == to) return;  // the new name is bound already: renaming would shadow or clash
  std::vector<TextEdit> edits;
  int uses = 0, binders = 0;
  for (const auto* list : {&f.facts.python_sets, &f.facts.python_binders})
    for (const auto& x : *list) {
      auto it = renames.find(x.text);
      if (it == renames.end()) continue;
      auto e = rename_at(f.text(), x.span, x.text, it->second);
      if (!e) return;
      edits.push_back(*e);
      (list == &f.facts.python_sets ? uses : binders)++;
    }
  std::vector<std::string> what;
  for (const auto& [from, to] : renames) what.push_back(fmt::format("{} → {}", from, to));
  p.fix = std::move(edits);
  p.fix_summary = fmt::format("{} ({} use{}{})", fmt::join(what, ", "), uses, uses == 1 ? "" : "s",
                              binders ? fmt::format(", {} binding{}", binders, binders == 1 ? "" : "s") : "");
}

}  // namespace

void check_python(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  // Per family of the names (Python "3.13" and CUDA "12.9"; empty parts for names
  // without them): the package-set spellings its recipes use, in how many
  // recipes, and where each is first used. Families may use different sets on
  // purpose (CUDA 12.4 on Python 3.12 beside CUDA 12.9 on Python 3.13).
  std::map<std::string, std::map<std::string, int>> spellings;
  std::map<std::string, std::map<std::string, std::pair<const NixFile*, const Fact*>>> first_use;
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.is_recipe()) continue;
    std::string python = family_of(f);
    std::set<std::string> seen;
    for (const auto& use : f.facts.python_sets) {
      if (seen.insert(use.text).second) {
        spellings[python][use.text]++;
        first_use[python].emplace(use.text, std::make_pair(&f, &use));
      }
    }
    if (!f.variant || f.variant->python.empty()) continue;
    const std::string& want = f.variant->python;
    std::string token = "python" + std::string(want.substr(0, 1)) + want.substr(2);
    int reported = 0;
    for (const auto& use : f.facts.python_sets) {
      std::string v = recipe::python_version(use.text);
      if (v == want) continue;
      bool is_set = use.text.ends_with("Packages");
      std::string right = token + (is_set ? "Packages" : "");
      if (reported++) continue;  // one report per file; later uses are the same mistake
      if (v.empty() && pin_default_version(f, kb).empty()) {
        // Which Python python3 is on this pin is not recorded: wrong only if it is not the name's.
        Problem& p =
            sink.add(f, "TLR031", use.span,
                     recipe::sets_from_caller(f.facts, use.text)
                         ? fmt::format("{} is whatever the caller passes (Flox's catalog: its default Python), "
                                       "which tailor cannot see: the recipe builds for the name's Python {} "
                                       "only while that is the catalog's default, and silently for another "
                                       "when the catalog moves",
                                       use.text, want)
                         : fmt::format("{} is the pin's default Python, which the knowledge base does not "
                                       "record{}: the recipe builds for the name's Python {} only if that is "
                                       "the default, and silently for another when the pin moves",
                                       use.text, pin_named(f), want),
                     fmt::format("use {} to say which Python the name promises", right));
        if (p.rule) rename_python(f, want, token, p);
        continue;
      }
      if (v.empty() && pin_default_version(f, kb) == want) {
        Problem& p = sink.add(f, "TLR031", use.span,
                              fmt::format("{} is Python {} on this pin{}, as the name says, but only until the pin "
                                          "moves: then the recipe silently builds for another Python",
                                          use.text, want, pin_default_python(f, kb)),
                              fmt::format("use {} to say which Python the name promises", right));
        if (p.rule) rename_python(f, want, token, p);
        continue;
      }
      Problem& p =
          v.empty()
              ? sink.add(
                    f, "TLR007", use.span,
                    fmt::format("{} is the pin's default Python{}, not necessarily {}: the name says {}", use.text,
                                pin_default_python(f, kb), want, token),
                    fmt::format("use {}: packages built against another set (vLLM's torch substitution) must share it",
                                right))
              : sink.add(f, "TLR007", use.span,
                         fmt::format("{} builds for Python {}, but the name says {}", use.text, v, token),
                         fmt::format("use {}", right));
      if (p.rule) rename_python(f, want, token, p);
    }
  }
  // Mixed spellings of package sets for one Python: report once, at the first use of each minority spelling.
  for (const auto& [python, used] : spellings) {
    std::map<std::string, int> sets;
    for (const auto& [s, n] : used)
      if (s.ends_with("Packages")) sets[s] = n;
    if (sets.size() <= 1) continue;
    std::string majority;
    for (const auto& [s, n] : sets)
      if (majority.empty() || n > sets[majority]) majority = s;
    std::vector<std::string> all;
    for (const auto& [s, n] : sets) all.push_back(fmt::format("{} in {} recipe{}", s, n, n == 1 ? "" : "s"));
    std::string whose = family_words(python);
    for (const auto& [s, n] : sets) {
      if (s == majority) continue;
      auto [file, fact] = first_use[python].at(s);
      Problem& p = sink.add(*file, "TLR008", fact->span,
                            fmt::format("{} here, but {} {} use {}", s, sets[majority], whose, majority),
                            "one tree, one package set: derivations built from different sets do not combine");
      if (p.rule) p.notes.push_back(fmt::format("package sets in this tree: {}", fmt::join(all, ", ")));
    }
  }
}

}  // namespace tailor::lint
