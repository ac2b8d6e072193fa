// tailor check DIR [--json] [--rules] [--strict] [--fix [--dry-run]] [--diff] [--allow-empty]:
// lint a recipe tree, generated or hand-written, with compiler-style
// diagnostics, and apply the mechanical fixes as minimal text edits.
#include <ostream>

#include <fmt/format.h>

#include "builder_eval/failure_report.hpp"
#include "builder_eval/wrapper_eval.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "lint/linter.hpp"
#include "lint/rules.hpp"
#include "recipe/source_file.hpp"
#include "util/exit_status.hpp"

namespace tailor {

namespace {

struct CheckRun final : CommandRun {
  std::string dir;
  bool json = false, list_rules = false, strict = false, fix = false, dry_run = false, diff = false,
       allow_empty = false, all_sites = false, no_eval = false;
  builder_eval::EvalOptions eval_options;
  void define(CLI::App& app) override;
  // The knowledge base (a bad --kb) is read before the tree, whose files it tells apart.
  void resolve(Session& s) override {
    if (!input().path.empty()) s.facts();
  }
  Input input() override { return {list_rules ? "" : dir}; }
  int run(Session& s) override;
  bool empty(Session& s, const lint::CheckResult& r) const;
  int status(const lint::CheckResult& r) const {
    return r.errors > 0 || (strict && r.warnings > 0) ? kExitProblems : kExitOk;
  }
  int run_fixes(Session& s);
  bool evaluate_builders(Session& s, lint::CheckResult& r) const;
};

void CheckRun::define(CLI::App& app) {
  app.description(
      "Lint a recipe tree (generated or hand-written): names, pins, package sets, targets, "
      "workarounds, descriptions, imports and docs.");
  app.add_option("DIR", dir, "the tree: .flox/pkgs, a branch checkout or the output of tailor generate");
  app.add_flag("--json", json,
               "print a JSON array of {file, line, column, severity, rule, message} instead of diagnostics");
  app.add_flag("--rules", list_rules, "list the rules (code, severity, name, what it checks) and exit");
  app.add_flag("--strict", strict, "exit 1 on warnings too");
  app.add_flag("--all-sites", all_sites,
               "list every finding a wrong metadata-table fact causes in the files generated from it (by default "
               "they are one finding at the table)");
  auto* fix_opt = app.add_flag("--fix", fix,
                               "apply the mechanical fixes (names, package sets, workaround exports) as minimal "
                               "text edits, print them, then check again");
  app.add_flag("--dry-run", dry_run, "with --fix: print the fixes and their diff, write nothing")->needs(fix_opt);
  app.add_flag("--diff", diff, "print the fixes as a git-style diff (git apply in DIR), write nothing")
      ->excludes(fix_opt);
  app.add_option("--nixpkgs", eval_options.nixpkgs,
                 "evaluate the wrappers of a tree that keeps its own builder against this nixpkgs checkout instead of "
                 "tailor's stand-in")
      ->type_name("PATH")
      ->check(CLI::ExistingDirectory);
  app.add_flag("--no-eval", no_eval,
               "do not evaluate the wrappers through the tree's own builder (TLR046); without nix-instantiate, check "
               "stops with exit 3 unless this is given");
  app.add_flag(
      "--allow-empty", allow_empty,
      "a directory without recipe files passes (exit 0); without it, that is an error (exit 2): a mistyped path");
}

int CheckRun::run(Session& s) {
  if (list_rules) {
    s.out << lint::render_rules();
    return kExitOk;
  }
  if (dir.empty()) {
    Diagnostic d;
    d.message = "check: a directory is required";
    d.hint = "tailor check DIR (or tailor check --rules)";
    s.err << d.render();
    return kExitBadInput;
  }
  if (fix || diff) return run_fixes(s);
  lint::CheckResult r = lint::check_tree(dir, s.tree().listing(), s.facts(), all_sites);
  if (empty(s, r)) return kExitBadInput;
  if (!evaluate_builders(s, r)) return kExitMissingEnv;
  s.out << (json ? lint::render_json(r) : lint::render_text(r));
  return status(r);
}

// TLR046: the wrappers of a team's own builder, evaluated through it; each
// place the builder stops becomes a finding. False (reported) when
// nix-instantiate cannot run.
bool CheckRun::evaluate_builders(Session& s, lint::CheckResult& r) const {
  if (no_eval || r.builder_wrappers.empty()) return true;
  builder_eval::WrapperEval e;
  try {
    e = builder_eval::evaluate_wrappers(dir, r.builder_wrappers, eval_options);
  } catch (const builder_eval::NoNix& no) {
    Diagnostic d;
    d.path = dir;
    d.message = fmt::format("{} ({} of them here): check cannot say whether the builder builds them", no.why,
                            r.builder_wrappers.size());
    d.hint = "install Nix (scripts/deps installs nix-bin), or pass --no-eval to check without evaluating";
    s.err << d.render();
    return false;
  }
  std::vector<lint::Problem> found;
  for (auto& fd : builder_eval::failure_diagnostics(e, dir, dir)) {
    if (fd.rel.empty()) {  // no file of the tree to point at
      s.err << fd.diagnostic.render();
      ++r.errors;
      continue;
    }
    lint::Problem p;
    p.rule = &lint::rule("TLR046");
    p.rel = fd.rel;
    p.path = recipe::display_path(dir, fd.rel);
    p.pos = fd.diagnostic.pos;
    p.line_text = fd.diagnostic.line_text;
    p.message = fd.diagnostic.message;
    p.hint = fd.diagnostic.hint;
    p.notes = fd.diagnostic.notes;
    found.push_back(std::move(p));
  }
  lint::add_problems(r, std::move(found));
  return true;
}

// A tree without recipes is a path that names the wrong directory (a typo in CI
// passes otherwise): refused unless the caller says an empty tree is expected.
bool CheckRun::empty(Session& s, const lint::CheckResult& r) const {
  if (r.recipes > 0 || allow_empty) return false;
  Diagnostic d;
  d.path = dir;
  d.message = r.files == 0 ? "no recipe files (*.nix) in this directory"
                           : fmt::format(
                                 "no recipe files in this directory, only {} helper{} (lib/, default.nix, "
                                 "flake.nix, shell.nix)",
                                 r.files, r.files == 1 ? "" : "s");
  d.hint = "tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs; pass --allow-empty where no recipes is expected";
  s.err << d.render();
  return true;
}

// --fix, --diff: the mechanical fixes, printed, then (--fix) written and checked again.
int CheckRun::run_fixes(Session& s) {
  const KnowledgeBase& kb = s.facts();
  const std::vector<recipe::SourceFile>& files = s.tree().files();
  lint::CheckResult r = lint::check_files(dir, files, kb, true);  // fixes see every site
  if (empty(s, r)) return kExitBadInput;
  lint::FixPlan plan = lint::plan_fixes(dir, r, files);
  if (diff) {
    s.out << lint::render_diff(plan);
    return status(r);
  }
  std::ostream& log = json ? s.err : s.out;  // keep stdout JSON
  for (const auto& ff : plan.files)
    for (const auto& d : ff.done) log << (dry_run ? "would fix " : "fixed ") << d << "\n";
  size_t n = plan.files.size();
  if (plan.fixes == 0)
    log << "nothing to fix\n";
  else
    log << fmt::format("{} {} problem{} in {} file{}\n", dry_run ? "would fix" : "fixed", plan.fixes,
                       plan.fixes == 1 ? "" : "s", n, n == 1 ? "" : "s");
  if (dry_run) {
    log << lint::render_diff(plan);
    return status(r);
  }
  lint::write_fixes(dir, plan);
  s.tree().changed();
  r = lint::check_tree(dir, s.tree().listing(), kb, all_sites);
  if (!evaluate_builders(s, r)) return kExitMissingEnv;
  s.out << (json ? lint::render_json(r) : lint::render_text(r));
  return status(r);
}

}  // namespace

std::unique_ptr<CommandRun> make_check() { return std::make_unique<CheckRun>(); }

}  // namespace tailor
