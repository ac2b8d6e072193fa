// tailor check DIR [--json] [--rules] [--strict]: lint a recipe tree,
// generated or hand-written, with compiler-style diagnostics.
#include <ostream>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "lint/linter.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_check(CommandContext& ctx) {
  CLI::App app{"Lint a recipe tree (generated or hand-written): names, pins, package sets, targets, "
               "workarounds, descriptions, imports and docs.",
               "check"};
  std::string dir, kb_dir;
  bool json = false, list_rules = false, strict = false;
  app.add_option("DIR", dir, "the tree: .flox/pkgs, a branch checkout or the output of tailor generate");
  app.add_flag("--json", json, R"(print {"problems": [...], "files": N} instead of diagnostics)");
  app.add_flag("--rules", list_rules, "list the rules (code, severity, name, what it checks) and exit");
  app.add_flag("--strict", strict, "exit 1 on warnings too");
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
  lint::CheckResult r = lint::check_tree(dir, kb);
  ctx.out << (json ? lint::render_json(r) : lint::render_text(r));
  return r.errors > 0 || (strict && r.warnings > 0) ? kExitProblems : kExitOk;
}

}  // namespace tailor
