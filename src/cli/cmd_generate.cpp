// tailor generate [SPEC] -o DIR [--check] [--force] [--prune] [--json] [--catalog]: write the
// branch's recipe tree and docs (with --catalog, the catalog page too), safely,
// or check that DIR is up to date.
#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "builder_eval/failure_report.hpp"
#include "builder_eval/wrapper_eval.hpp"
#include "catalog/catalog_page.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "generate/branch_tree.hpp"
#include "generate/layout.hpp"
#include "generate/marker.hpp"
#include "generate/readme_rows.hpp"
#include "generate/tree_write.hpp"
#include "matrix/spec_loader.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {
// The changes of a plan, counted by kind.
struct Counts {
  std::map<Change, int> n;
  explicit Counts(const std::vector<PlannedChange>& plan) {
    for (const auto& c : plan) n[c.change]++;
  }
  int operator[](Change c) const { return n.count(c) ? n.at(c) : 0; }
};

struct GenerateRun final : CommandRun {
  SpecArg spec_arg;
  std::string spec_name, dir;
  bool check = false, json = false, catalog = false, no_eval = false;
  builder_eval::EvalOptions eval_options;
  std::vector<std::string> overwrite;
  WritePolicy policy;

  void define(CLI::App& app) override;
  std::vector<std::string> specs() override { return {spec_name = chosen_spec(spec_arg, "generate", kDefaultSpec)}; }
  int run(Session& s) override;

  // The steps of a run, in order.
  std::vector<GeneratedFile> files_of(Session& s, const Spec& spec, const Matrix& m) const;
  std::set<std::string> named_files(const std::vector<GeneratedFile>& files) const;
  std::vector<std::string> missing_kept_files(const Spec& spec) const;
  int report_check(Session& s, const Expanded& e, size_t files, const std::vector<PlannedChange>& plan, bool missing,
                   const builder_eval::WrapperEval* eval, size_t stale_rows = 0) const;
  std::optional<builder_eval::WrapperEval> evaluate_wrappers(Session& s, const Expanded& e) const;
  int refuse(Session& s, const Expanded& e, size_t files, const std::vector<PlannedChange>& plan) const;
  void report_written(Session& s, const Expanded& e, size_t files, const std::vector<PlannedChange>& plan) const;
  void print_json(Session& s, const Expanded& e, size_t files, const std::vector<PlannedChange>& plan, bool check,
                  int written, int removed, const builder_eval::WrapperEval* eval = nullptr) const;
};

void GenerateRun::define(CLI::App& app) {
  app.description("Write the recipe tree and docs of a spec.");
  add_spec_arg(app, spec_arg, "spec file or built-in spec (default: build-pytorch/main)");
  app.add_option("-o,--output", dir, "directory of the tree")->required()->check(nonempty_check())->type_name("DIR");
  app.add_flag("--check", check, "write nothing; exit 1 if DIR is not up to date");
  app.add_option("--nixpkgs", eval_options.nixpkgs,
                 "with --check, on a tree that keeps its own builder: evaluate its wrappers against this nixpkgs "
                 "checkout instead of tailor's stand-in")
      ->type_name("PATH")
      ->check(CLI::ExistingDirectory);
  app.add_flag("--no-eval", no_eval,
               "with --check: do not evaluate the wrappers through the tree's own builder (without nix-instantiate, "
               "--check on such a tree stops with exit 3 unless this is given)");
  app.add_flag("--force", policy.force,
               "overwrite generated files that were edited by hand (never a file tailor did not write)");
  app.add_option("--overwrite", overwrite,
                 "overwrite this file of the tree (relative to DIR), even one tailor did not write; repeatable")
      ->type_name("PATH");
  app.add_flag("--prune", policy.prune, "remove generated files of variants no longer in the matrix");
  app.add_flag("--json", json, "print what the tree needed and what was written as one JSON object");
  app.add_flag("--catalog", catalog, "also write docs/index.html, the page of 'tailor catalog' for this spec");
}

// --json: what the tree needed and what this run did, one document.
void GenerateRun::print_json(Session& s, const Expanded& e, size_t files, const std::vector<PlannedChange>& plan,
                             bool checked, int written, int removed, const builder_eval::WrapperEval* eval) const {
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const auto& c : plan)
    if (c.change != Change::unchanged)
      changes.push_back({{"path", c.path}, {"change", std::string(kChanges.name(c.change))}, {"note", c.note}});
  nlohmann::ordered_json j{{"spec", e.spec.path},
                           {"branch", e.spec.name},
                           {"tree", dir},
                           {"variants", e.matrix.variants.size()},
                           {"files", files},
                           {"check", checked},
                           {"up_to_date", changes.empty()},
                           {"written", written},
                           {"removed", removed},
                           {"changes", changes}};
  if (eval) {
    nlohmann::ordered_json failed = nlohmann::ordered_json::array();
    for (const auto& f : eval->failures) {
      nlohmann::ordered_json one{{"wrapper", f.wrapper},
                                 {"error", f.error.message},
                                 {"file", f.error.file},
                                 {"line", f.error.line},
                                 {"column", f.error.column}};
      if (f.lacks) one["lacks"] = {{"table", f.lacks->table}, {"entry", f.lacks->attribute}};
      if (!f.alike.empty()) one["alike"] = f.alike;
      failed.push_back(std::move(one));
    }
    j["up_to_date"] = changes.empty() && eval->failures.empty() && eval->not_evaluated == 0;
    j["builder_eval"] = {{"wrappers", eval->wrappers},
                         {"evaluated", eval->evaluated},
                         {"skipped", eval->skipped},
                         {"not_evaluated", eval->not_evaluated},
                         {"failures", failed}};
  }
  s.out << json_text(j);
}

std::vector<GeneratedFile> GenerateRun::files_of(Session& s, const Spec& spec, const Matrix& m) const {
  std::vector<GeneratedFile> files = branch_tree(spec, m, s.facts());
  if (catalog) {
    CatalogData data = build_catalog({{spec, m}}, s.facts(), s.hosts(), "flox");
    files.push_back({"docs/index.html", with_marker(render_catalog_page(data, s.facts()), CommentStyle::html)});
  }
  return files;
}

// --overwrite PATH: each must be a file this spec writes.
std::set<std::string> GenerateRun::named_files(const std::vector<GeneratedFile>& files) const {
  std::set<std::string> named;
  for (const auto& path : overwrite) {
    std::string rel = fs::path(path).lexically_normal().generic_string();
    if (std::none_of(files.begin(), files.end(), [&](const GeneratedFile& f) { return f.path == rel; })) {
      Diagnostic d;
      d.message = fmt::format("--overwrite {}: not a file this spec writes into {}", path, dir);
      d.hint = "give the path relative to the tree, as `tailor generate --check` lists it";
      throw DiagnosticError(d);
    }
    named.insert(rel);
  }
  return named;
}

// A tree that keeps its own builder: its files are checked, never written.
std::vector<std::string> GenerateRun::missing_kept_files(const Spec& spec) const {
  std::vector<std::string> missing;
  std::error_code ec;
  if (spec.layout)
    for (const auto& k : spec.layout->keep)
      if (!fs::is_regular_file(fs::path(dir) / k, ec)) missing.push_back(k);
  return missing;
}

// A tree that keeps its own builder: every wrapper on disk evaluated through
// it (nullopt: none to evaluate, or --no-eval). Throws NoNix without nix-instantiate.
std::optional<builder_eval::WrapperEval> GenerateRun::evaluate_wrappers(Session& s, const Expanded& e) const {
  if (no_eval || !e.spec.layout) return std::nullopt;
  std::vector<std::string> wrappers;
  std::error_code ec;
  for (const auto& v : e.matrix.variants) {
    std::string w = wrapper_path(*e.spec.layout, v);
    if (fs::is_regular_file(fs::path(dir) / w, ec)) wrappers.push_back(w);
  }
  if (wrappers.empty()) return std::nullopt;
  builder_eval::WrapperEval r = builder_eval::evaluate_wrappers(dir, wrappers, eval_options);
  for (const auto& fd : builder_eval::failure_diagnostics(r, dir, dir)) s.err << fd.diagnostic.render();
  return r;
}

int GenerateRun::report_check(Session& s, const Expanded& e, size_t files, const std::vector<PlannedChange>& plan,
                              bool missing, const builder_eval::WrapperEval* eval, size_t stale_rows) const {
  Counts count(plan);
  bool builds = !eval || (eval->failures.empty() && eval->not_evaluated == 0);
  bool up_to_date = plan.size() == static_cast<size_t>(count[Change::unchanged]) && !missing && stale_rows == 0;
  if (json) {
    print_json(s, e, files, plan, true, 0, 0, eval);
    return up_to_date && builds ? kExitOk : kExitProblems;
  }
  for (const auto& c : plan)
    if (c.change != Change::unchanged)
      s.out << fmt::format("{}: {}{}\n", kChanges.name(c.change), c.path, c.note.empty() ? "" : " (" + c.note + ")");
  if (eval) s.out << builder_eval::eval_summary(*eval, eval_options) << "\n";
  if (!builds) {
    size_t alike = 0;
    for (const auto& f : eval->failures) alike += f.alike.size();
    s.out << fmt::format("{} is not up to date: the tree's builder cannot build {} wrapper{}{}{}\n", dir,
                         eval->failures.size(), eval->failures.size() == 1 ? "" : "s",
                         alike ? fmt::format(" ({} alike not evaluated)", alike) : "",
                         up_to_date ? ", though every file is as the spec writes it" : "");
  } else
    s.out << (up_to_date
                  ? fmt::format("{} is up to date ({} files)\n", dir, files)
                  : fmt::format(
                        "{} is not up to date: {} to create, {} to update, {} edited, {} stale{}\n", dir,
                        count[Change::create], count[Change::update], count[Change::conflict], count[Change::stale],
                        stale_rows ? fmt::format(", {} README row{} stale", stale_rows, stale_rows == 1 ? "" : "s")
                                   : ""));
  return up_to_date && builds ? kExitOk : kExitProblems;
}

// Files the policy may not overwrite: each named, nothing written.
int GenerateRun::refuse(Session& s, const Expanded& e, size_t files, const std::vector<PlannedChange>& plan) const {
  int edited = 0, foreign = 0;
  for (const PlannedChange* c : refused_changes(plan, policy)) {
    s.err << refusal(dir, *c, "not overwritten").render();
    ++(c->foreign ? foreign : edited);
  }
  // A file tailor never wrote may be a team's own builder with another
  // interface: --force alone must not replace it.
  std::vector<std::string> ways;
  if (edited) ways.push_back(fmt::format("--force to overwrite {} edited file{}", edited, edited == 1 ? "" : "s"));
  if (foreign)
    ways.push_back(
        fmt::format("--overwrite PATH for each of the {} file{} tailor did not write, if it should replace {}", foreign,
                    foreign == 1 ? "" : "s", foreign == 1 ? "it" : "them"));
  s.err << fmt::format("hint: nothing was written; rerun with {}\n", fmt::join(ways, ", or "));
  if (json) print_json(s, e, files, plan, false, 0, 0);
  return kExitProblems;
}

void GenerateRun::report_written(Session& s, const Expanded& e, size_t files,
                                 const std::vector<PlannedChange>& plan) const {
  Counts count(plan);
  int overwritten = 0;
  for (const auto& c : plan) overwritten += may_overwrite(c, policy.force, policy.named);
  int written = count[Change::create] + count[Change::update] + overwritten;
  if (json) {
    print_json(s, e, files, plan, false, written, policy.prune ? count[Change::stale] : 0);
    return;
  }
  if (written == 0 && (count[Change::stale] == 0 || !policy.prune))
    s.out << fmt::format("{}: nothing to do, up to date ({} files, {} variants)\n", dir, files,
                         e.matrix.variants.size());
  else
    s.out << fmt::format("{}: wrote {} file{} ({} new, {} updated{}), {} unchanged; {} variants of {}\n", dir, written,
                         written == 1 ? "" : "s", count[Change::create], count[Change::update],
                         overwritten ? fmt::format(", {} overwritten", overwritten) : "", count[Change::unchanged],
                         e.matrix.variants.size(), e.spec.path);
  bool kept = false;
  for (const auto& c : plan) {
    if (c.change != Change::stale) continue;
    if (is_staging_leftover(c)) {
      s.out << fmt::format("removed {} ({})\n", c.path, c.note);
      continue;
    }
    s.out << fmt::format("{} {}\n", policy.prune ? "removed" : "stale:", c.path);
    kept = kept || !policy.prune;
  }
  if (kept) s.out << "hint: these belong to variants no longer in the matrix; --prune removes them\n";
}

int GenerateRun::run(Session& s) {
  Expanded& e = s.matrix(spec_name);
  e.spec.source = spec_source(e.spec.path, dir);  // the tree names its spec the same however it was spelled
  std::vector<GeneratedFile> files = files_of(s, e.spec, e.matrix);
  // One writer per output directory at a time (a check reads beside other checks).
  auto lock = lock_tree(dir, s.err, !check);
  std::vector<PlannedChange> plan = plan_tree(dir, files);
  // Stale files left in place stay listed as tailor's (reported until --prune removes them).
  // Those of variants only: a wrapper beside the others, a page beside the pages.
  auto variant_file = [&](const std::string& path) {
    if (!e.spec.layout) return false;
    std::string folder = fs::path(path).parent_path().generic_string();
    if (folder == e.spec.layout->dir) return true;
    return std::any_of(e.spec.layout->pages.begin(), e.spec.layout->pages.end(),
                       [&](const auto& page) { return fs::path(page.first).parent_path().generic_string() == folder; });
  };
  if (!policy.prune && remember_stale(dir, files, plan, variant_file)) plan = plan_tree(dir, files);
  policy.named = named_files(files);
  std::vector<std::string> missing = missing_kept_files(e.spec);
  for (const auto& k : missing) {
    Diagnostic d;
    d.path = fmt::format("{}/{}", dir, k);
    d.message = "the tree's own builder file is missing ([layout] keep); tailor never writes it";
    s.report(d);
  }
  // README rows that state spec facts (the versions a table lists): checked, never written.
  std::vector<Diagnostic> readme =
      stale_readme_rows(dir, e.spec, e.matrix, check ? Severity::error : Severity::warning);
  for (const auto& d : readme) s.report(d);
  if (check) {
    std::optional<builder_eval::WrapperEval> eval;
    try {
      eval = evaluate_wrappers(s, e);
    } catch (const builder_eval::NoNix& no) {
      Diagnostic d;
      d.path = dir;
      d.message = fmt::format("{}: --check cannot say the tree is up to date", no.why);
      d.hint = "install Nix (scripts/deps installs nix-bin), or pass --no-eval to compare the files only";
      s.err << d.render();
      return kExitMissingEnv;
    }
    return report_check(s, e, files.size(), plan, !missing.empty(), eval ? &*eval : nullptr, readme.size());
  }
  if (!missing.empty()) return kExitProblems;
  if (!refused_changes(plan, policy).empty()) return refuse(s, e, files.size(), plan);
  write_tree(dir, files, plan, policy);
  report_written(s, e, files.size(), plan);
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_generate() { return std::make_unique<GenerateRun>(); }

}  // namespace tailor
