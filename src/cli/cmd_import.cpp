// tailor import DIR [--name BRANCH]: infer a matrix spec from a recipe tree
// and print it as TOML; what the spec cannot reproduce goes to stderr.
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "lint/spec_import.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_import(CommandContext& ctx) {
  CLI::App app{"Infer a matrix spec from an existing recipe tree and print it as TOML.", "import"};
  std::string dir, name, kb_dir;
  app.add_option("DIR", dir, "the tree: .flox/pkgs, a branch checkout or the output of tailor generate")->required();
  app.add_option("--name", name, "branch name of the spec (default: the directory's name)");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  KnowledgeBase kb = load_kb(kb_dir);
  if (name.empty()) name = std::filesystem::weakly_canonical(dir).filename().string();
  lint::ImportResult r = lint::import_spec(name, lint::read_tree(dir), kb);
  ctx.out << r.toml;
  for (const auto& w : r.warnings) ctx.err << "tailor: warning: " << w << "\n";
  return r.warnings.empty() ? kExitOk : kExitProblems;
}

}  // namespace tailor
