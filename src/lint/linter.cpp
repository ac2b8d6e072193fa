#include "lint/linter.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lint/checks.hpp"
#include "nix/parser.hpp"
#include "recipe/source_file.hpp"
#include "util/atomic_write.hpp"
#include "util/parallel_for.hpp"
#include "util/permute.hpp"
#include "util/severity.hpp"

namespace tailor::lint {

using recipe::display_path;

namespace {

/// Frees the recipes of \a t on all cores: a tree of thousands of them takes
/// longer to free than most rules take to run, and its owner waits on it.
void release(LintTree t) {
  parallel_for(t.nix.size(), 64, [&](size_t i) { NixFile gone = std::move(t.nix[i]); });
}

/// A wrong fact of a metadata table is one finding at the table: the findings
/// it causes in the files generated from it become a note on it.
void fold_table_sites(std::vector<Problem>& problems) {
  std::vector<size_t> counts(problems.size(), 0);
  std::vector<const Problem*> example(problems.size(), nullptr);
  std::vector<bool> gone(problems.size(), false);
  for (size_t i = 0; i < problems.size(); ++i) {
    const Problem& t = problems[i];
    if (t.fold_rule.empty()) continue;
    for (size_t j = 0; j < problems.size(); ++j) {
      const Problem& p = problems[j];
      // A finding that gathers a column's rows names each row in its notes.
      auto names_fact = [&](const std::string& s) { return s.find(t.fold_text) != std::string::npos; };
      if (gone[j] || p.rule->code != t.fold_rule || !t.fold_files.count(p.rel) ||
          !(names_fact(p.message) || std::any_of(p.notes.begin(), p.notes.end(), names_fact)))
        continue;
      gone[j] = true;
      if (!counts[i]++) example[i] = &p;
    }
  }
  for (size_t i = 0; i < problems.size(); ++i)
    if (counts[i])
      problems[i].notes.push_back(
          fmt::format("it reaches {} finding{} of {} in the generated files, e.g. {}:{}:{}; "
                      "tailor check --all-sites lists them",
                      counts[i], counts[i] == 1 ? "" : "s", problems[i].fold_rule, example[i]->path,
                      example[i]->pos.line, example[i]->pos.column));
  std::vector<Problem> kept;
  for (size_t i = 0; i < problems.size(); ++i)
    if (!gone[i]) kept.push_back(std::move(problems[i]));
  problems = std::move(kept);
}

/// Runs every rule over \a t, adding to what reading it found (\a r: syntax errors); frees \a t.
CheckResult run_rules(LintTree t, const KnowledgeBase& kb, CheckResult r, bool all_sites) {
  // The rules only read the tree: they run side by side, each into its own list, joined in this order.
  // The longest (check_text: every comment and description line) starts first, the rest fill the other cores.
  constexpr auto kChecks = std::to_array({check_text, check_names, check_pins, check_python, check_targets,
                                          check_workarounds, check_imports, check_fetches, check_docs, check_packages,
                                          check_versions, check_tables, check_builder_calls, check_override_args});
  std::array<std::vector<Problem>, kChecks.size()> found;
  parallel_for(kChecks.size(), 1, [&](size_t i) {
    Sink own(t, found[i]);
    kChecks[i](t, kb, own);
  });
  for (auto& f : found) std::move(f.begin(), f.end(), std::back_inserter(r.problems));
  Sink sink(t, r.problems);
  for (const auto& f : t.nix)
    for (const auto& u : t.ignores_of(f).unknown)
      sink.add(f, "TLR025", u.span, fmt::format("'tailor: ignore {}' names no rule", u.text),
               "run 'tailor check --rules' for the codes");
  if (!all_sites) fold_table_sites(r.problems);
  r.files = static_cast<int>(t.nix.size());
  r.recipes = static_cast<int>(std::count_if(t.nix.begin(), t.nix.end(), [](const NixFile& f) { return !f.helper; }));
  // Sorted through positions, then each finding moved once: a Problem is large (a
  // merge sort of 80,000 moved each of them 17 times).
  std::vector<size_t> order(r.problems.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) {
    const Problem &a = r.problems[i], &b = r.problems[j];
    return std::tie(a.path, a.pos.line, a.pos.column, a.rule->code) <
           std::tie(b.path, b.pos.line, b.pos.column, b.rule->code);
  });
  apply_order(r.problems.data(), order);
  for (const auto& p : r.problems) {
    if (p.rule->severity == Severity::error)
      ++r.errors;
    else if (p.rule->severity == Severity::warning)
      ++r.warnings;
  }
  release(std::move(t));
  return r;
}

}  // namespace

CheckResult check_files(const std::string& root, std::vector<SourceFile> files, const KnowledgeBase& kb,
                        bool all_sites) {
  CheckResult r;
  LintTree t = make_tree(root, std::move(files), kb, r.problems);
  return run_rules(std::move(t), kb, std::move(r), all_sites);
}

CheckResult check_tree(const std::string& dir, const KnowledgeBase& kb, bool all_sites) {
  CheckResult r;
  LintTree t = make_tree(dir, list_tree(dir), kb, r.problems, dir);
  return run_rules(std::move(t), kb, std::move(r), all_sites);
}

std::string render_text(const CheckResult& r) {
  // In pieces on the cores: thousands of findings on a big tree print a megabyte.
  constexpr size_t kPiece = 128;
  std::vector<std::string> pieces((r.problems.size() + kPiece - 1) / kPiece);
  parallel_for(pieces.size(), 2, [&](size_t k) {
    for (size_t i = k * kPiece; i < std::min(r.problems.size(), (k + 1) * kPiece); ++i)
      pieces[k] += r.problems[i].render();
  });
  size_t size = 0;
  for (const auto& p : pieces) size += p.size();
  std::string out;
  out.reserve(size + 128);
  for (const auto& p : pieces) out += p;
  if (r.problems.empty())
    out += fmt::format("checked {} file{}: no problems\n", r.files, r.files == 1 ? "" : "s");
  else
    out += fmt::format("checked {} file{}: {} error{}, {} warning{}\n", r.files, r.files == 1 ? "" : "s", r.errors,
                       r.errors == 1 ? "" : "s", r.warnings, r.warnings == 1 ? "" : "s");
  return out;
}

std::string render_json(const CheckResult& r) {
  nlohmann::ordered_json problems = nlohmann::ordered_json::array();
  for (const auto& p : r.problems) {
    nlohmann::ordered_json j;
    j["file"] = p.path;
    j["line"] = p.pos.line;
    j["column"] = p.pos.column;
    j["severity"] = severity_name(p.rule->severity);
    j["rule"] = p.rule->code;
    j["message"] = p.message;
    if (!p.hint.empty()) j["hint"] = p.hint;
    if (!p.notes.empty()) j["notes"] = p.notes;
    problems.push_back(std::move(j));
  }
  // Replacement instead of throwing: file names and texts need not be UTF-8.
  return problems.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

FixPlan plan_fixes(const std::string& root, const CheckResult& r, const std::vector<SourceFile>& files) {
  std::map<std::string, const SourceFile*> by_rel;
  std::set<std::string> taken;  // paths a renamed file must not take
  for (const auto& f : files) {
    by_rel[f.rel] = &f;
    taken.insert(f.rel);
  }
  std::map<std::string, FileFix> out;
  for (const auto& p : r.problems) {
    if (p.fix.empty() && p.rename_to.empty()) continue;
    auto src = by_rel.find(p.rel);
    if (src == by_rel.end()) continue;
    FileFix& ff = out[p.rel];
    if (ff.rel.empty()) {
      ff.rel = ff.new_rel = p.rel;
      ff.before = src->second->text;
    }
    if (!p.rename_to.empty()) {
      if (ff.new_rel != ff.rel || taken.count(p.rename_to)) continue;
      ff.new_rel = p.rename_to;
      taken.insert(p.rename_to);
    } else {
      std::vector<TextEdit> trial = ff.edits;
      for (const auto& e : p.fix)
        if (std::find(trial.begin(), trial.end(), e) == trial.end()) trial.push_back(e);
      if (!normalize_edits(trial)) continue;  // overlaps another fix: left for the user
      ff.edits = std::move(trial);
    }
    ff.done.push_back(fmt::format("{}:{}:{}: {} [{}]", p.path, p.pos.line, p.pos.column, p.fix_summary, p.rule->code));
  }
  FixPlan plan;
  nix::SymbolTable symbols;
  for (auto& [rel, ff] : out) {
    if (ff.done.empty()) continue;
    ff.after = apply_edits(ff.before, ff.edits);
    // A fix must not break the file: what parsed before parses after.
    if (!ff.edits.empty() && !nix::parse(display_path(root, rel), ff.after, symbols).expr) continue;
    plan.fixes += static_cast<int>(ff.done.size());
    plan.files.push_back(std::move(ff));
  }
  return plan;
}

void write_fixes(const std::filesystem::path& dir, const FixPlan& plan) {
  namespace fs = std::filesystem;
  auto fail = [](const fs::path& p, const std::string& what) {
    Diagnostic d;
    d.path = p.string();
    d.message = what;
    throw DiagnosticError(d);
  };
  for (const auto& ff : plan.files) {
    fs::path from = dir / ff.rel, to = dir / ff.new_rel;
    std::error_code ec;
    if (ff.new_rel != ff.rel && fs::symlink_status(to, ec).type() != fs::file_type::not_found)
      fail(to, "cannot rename " + ff.rel + " here: the file exists");
    write_file_atomically(to, ff.after, fs::status(from, ec).permissions());  // the mode of the old name
    if (ff.new_rel != ff.rel && !fs::remove(from, ec)) fail(from, "cannot remove the old name: " + ec.message());
  }
}

std::string render_diff(const FixPlan& plan) {
  std::string out;
  for (const auto& ff : plan.files) out += unified_diff(ff.rel, ff.new_rel, ff.before, ff.edits);
  return out;
}

std::string render_rules() {
  std::string out;
  for (const auto& r : rules())
    out += fmt::format("{}  {:<7}  {:<20}  {}\n", r.code, severity_name(r.severity), r.name, r.summary);
  return out;
}

}  // namespace tailor::lint
