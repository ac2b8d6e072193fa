// TLR007 python-set-mismatch, TLR008 python-set-mixed.
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

/// "python313Packages" -> "3.13"; "python3Packages" / "python3" -> "" (the pin's default).
std::string python_of(const std::string& name) {
  static const std::regex re(R"(python3(\d*)(?:Packages)?)");
  std::smatch m;
  if (!std::regex_match(name, m, re) || m.str(1).empty()) return "";
  return "3." + m.str(1);
}

std::string pin_default_python(const NixFile& f, const KnowledgeBase& kb) {
  for (const auto& p : f.facts.pins)
    if (const NixpkgsPin* pin = kb.pin(p.rev.substr(0, 7)); pin && !pin->python_default.empty())
      return fmt::format(" (Python {} at {})", pin->python_default, pin->short_rev);
  return "";
}

}  // namespace

void check_python(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  std::map<std::string, int> spellings;  // package-set spellings used by recipes
  std::map<std::string, std::pair<const NixFile*, const Fact*>> first_use;
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.is_recipe()) continue;
    std::set<std::string> seen;
    for (const auto& use : f.facts.python_sets) {
      if (seen.insert(use.text).second) {
        spellings[use.text]++;
        first_use.emplace(use.text, std::make_pair(&f, &use));
      }
    }
    if (!f.variant || f.variant->python.empty()) continue;
    const std::string& want = f.variant->python;
    std::string token = "python" + std::string(want.substr(0, 1)) + want.substr(2);
    int reported = 0;
    for (const auto& use : f.facts.python_sets) {
      std::string v = python_of(use.text);
      if (v == want) continue;
      bool is_set = use.text.ends_with("Packages");
      std::string right = token + (is_set ? "Packages" : "");
      if (reported++) continue;  // one report per file; later uses are the same mistake
      if (v.empty())
        sink.add(f, "TLR007", use.span,
                 fmt::format("{} is the pin's default Python{}, not necessarily {}: the name says {}", use.text,
                             pin_default_python(f, kb), want, token),
                 fmt::format("use {}: packages built against another set (vLLM's torch substitution) must share it "
                             "(seed 000 step 3)",
                             right));
      else
        sink.add(f, "TLR007", use.span,
                 fmt::format("{} builds for Python {}, but the name says {}", use.text, v, token),
                 fmt::format("use {}", right));
    }
  }
  // Mixed spellings of package sets: report once, at the first use of each minority spelling.
  std::map<std::string, int> sets;
  for (const auto& [s, n] : spellings)
    if (s.ends_with("Packages")) sets[s] = n;
  if (sets.size() <= 1) return;
  std::string majority;
  for (const auto& [s, n] : sets)
    if (majority.empty() || n > sets[majority]) majority = s;
  std::vector<std::string> all;
  for (const auto& [s, n] : sets) all.push_back(fmt::format("{} in {} recipe{}", s, n, n == 1 ? "" : "s"));
  for (const auto& [s, n] : sets) {
    if (s == majority) continue;
    auto [file, fact] = first_use.at(s);
    Problem& p = sink.add(*file, "TLR008", fact->span,
                          fmt::format("{} here, but {} recipes of this tree use {}", s, sets[majority], majority),
                          "one tree, one package set: derivations built from different sets do not combine");
    if (p.rule) p.notes.push_back(fmt::format("package sets in this tree: {}", fmt::join(all, ", ")));
  }
}

}  // namespace tailor::lint
