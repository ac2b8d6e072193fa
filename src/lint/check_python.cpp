// TLR007 python-set-mismatch, TLR008 python-set-mixed.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"
#include "lint/python_names.hpp"

namespace tailor::lint {

namespace {

std::string pin_default_python(const NixFile& f, const KnowledgeBase& kb) {
  for (const auto& p : f.facts.pins)
    if (const NixpkgsPin* pin = kb.pin(p.rev.substr(0, 7)); pin && !pin->python_default.empty())
      return fmt::format(" (Python {} at {})", pin->python_default, pin->short_rev);
  return "";
}

/// The fix of TLR007: every use of a package set (or interpreter) for another
/// Python renamed to the name's, with the formals and let bindings that bind it.
void rename_python(const NixFile& f, const std::string& want, const std::string& token, Problem& p) {
  if (f.facts.python_rename_unsafe) return;
  std::map<std::string, std::string> renames;  // old name -> new name
  for (const auto& use : f.facts.python_sets)
    if (python_version(use.text) != want) renames[use.text] = token + (use.text.ends_with("Packages") ? "Packages" : "");
  for (const auto& b : f.facts.python_binders)
    for (const auto& [from, to] : renames)
      if (b.text == to) return;  // the new name is bound already: renaming would shadow or clash
  std::vector<TextEdit> edits;
  int uses = 0, binders = 0;
  for (const auto* list : {&f.facts.python_sets, &f.facts.python_binders})
    for (const auto& x : *list) {
      auto it = renames.find(x.text);
      if (it == renames.end()) continue;
      auto e = rename_at(f.src.text, x.span, x.text, it->second);
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
  // Per Python of the names ("3.13"; "" for names without one): the package-set
  // spellings its recipes use, in how many recipes, and where each is first used.
  std::map<std::string, std::map<std::string, int>> spellings;
  std::map<std::string, std::map<std::string, std::pair<const NixFile*, const Fact*>>> first_use;
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.is_recipe()) continue;
    std::string python = f.variant ? f.variant->python : "";
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
      std::string v = python_version(use.text);
      if (v == want) continue;
      bool is_set = use.text.ends_with("Packages");
      std::string right = token + (is_set ? "Packages" : "");
      if (reported++) continue;  // one report per file; later uses are the same mistake
      Problem& p = v.empty() ? sink.add(f, "TLR007", use.span,
                 fmt::format("{} is the pin's default Python{}, not necessarily {}: the name says {}", use.text,
                             pin_default_python(f, kb), want, token),
                 fmt::format("use {}: packages built against another set (vLLM's torch substitution) must share it "
                             "(as flox/build-pytorch does when it aligns to the build-vllm pin)",
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
    std::string whose = python.empty() ? "recipes of this tree" : fmt::format("python{} recipes", python);
    whose.erase(std::remove(whose.begin(), whose.end(), '.'), whose.end());
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
