// tailor check DIR [--json] [--rules] [--strict] [--fix [--dry-run]] [--diff] [--allow-empty]:
// lint a recipe tree, generated or hand-written, with compiler-style
// diagnostics, and apply the mechanical fixes as minimal text edits.
#include <ostream>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "lint/linter.hpp"
#include "recipe/recipe_tree.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_check(CommandContext& ctx) {
  CLI::App app{
      "Lint a recipe tree (generated or hand-written): names, pins, package sets, targets, "
      "workarounds, descriptions, imports and docs.",
      "check"};
  std::string dir, kb_dir;
  bool json = false, list_rules = false, strict = false, fix = false, dry_run = false, diff = false,
       allow_empty = false, all_sites = false;
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
  app.add_flag(
      "--allow-empty", allow_empty,
      "a directory without recipe files passes (exit 0); without it, that is an error (exit 2): a mistyped path");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  if (list_rules) {
    ctx.out << lint::render_rules();
    return kExitOk;
  }
  if (dir.empty()) {
    Diagnostic d;
    d.message = "check: a directory is required";
    d.hint = "tailor check DIR (or tailor check --rules)";
    ctx.err << d.render();
    return kExitBadInput;
  }
  KnowledgeBase kb = load_kb(kb_dir);
  // A tree without recipes is a path that names the wrong directory (a typo in CI
  // passes otherwise): refused unless the caller says an empty tree is expected.
  auto empty = [&](const lint::CheckResult& r) {
    if (r.recipes > 0 || allow_empty) return false;
    Diagnostic d;
    d.path = dir;
    d.message = r.files == 0 ? "no recipe files (*.nix) in this directory"
                             : fmt::format(
                                   "no recipe files in this directory, only {} helper{} (lib/, default.nix, "
                                   "flake.nix, shell.nix)",
                                   r.files, r.files == 1 ? "" : "s");
    d.hint = "tailor check DIR: DIR is a recipe tree, e.g. .flox/pkgs; pass --allow-empty where no recipes is expected";
    ctx.err << d.render();
    return true;
  };
  auto status = [&](const lint::CheckResult& r) {
    return r.errors > 0 || (strict && r.warnings > 0) ? kExitProblems : kExitOk;
  };
  if (!fix && !diff) {
    lint::CheckResult r = lint::check_tree(dir, kb, all_sites);
    if (empty(r)) return kExitBadInput;
    ctx.out << (json ? lint::render_json(r) : lint::render_text(r));
    return status(r);
  }
  std::vector<recipe::SourceFile> files = recipe::read_tree(dir);
  lint::CheckResult r = lint::check_files(dir, files, kb, true);  // fixes see every site
  if (empty(r)) return kExitBadInput;
  lint::FixPlan plan = lint::plan_fixes(dir, r, files);
  if (diff) {
    ctx.out << lint::render_diff(plan);
    return status(r);
  }
  std::ostream& log = json ? ctx.err : ctx.out;  // keep stdout JSON
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
  r = lint::check_tree(dir, kb, all_sites);
  ctx.out << (json ? lint::render_json(r) : lint::render_text(r));
  return status(r);
}

}  // namespace tailor
