// tailor import DIR [--name BRANCH] [--pin REV] [--json]: infer a matrix spec from a recipe tree
// and print it as TOML; what the spec cannot reproduce goes to stderr.
#include <filesystem>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "import/spec_import.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"
#include "util/quote.hpp"
#include "util/safe_name.hpp"

namespace tailor {

namespace {

struct ImportRun final : CommandRun {
  std::string dir, name;
  bool json = false;
  ImportOptions options;
  void define(CLI::App& app) override;
  void resolve(Session& s) override;
  Input input() override { return {dir}; }
  int run(Session& s) override;
  int print_json(Session& s, const ImportResult& r) const;
};

void ImportRun::define(CLI::App& app) {
  app.description("Infer a matrix spec from an existing recipe tree and print it as TOML.");
  app.add_option("DIR", dir, "the tree: .flox/pkgs, a branch checkout or the output of tailor generate")->required();
  app.add_option("--name", name, "branch name of the spec (default: the directory's name)");
  app.add_flag("--json", json,
               "print the branch, the variant count, the spec's TOML text and the warnings as one JSON object");
  app.add_option("--pin", options.pin,
                 "the nixpkgs pin of recipes that name none (Flox-catalog recipes take their packages as arguments)")
      ->type_name("REV");
}

int ImportRun::print_json(Session& s, const ImportResult& r) const {
  nlohmann::ordered_json j{
      {"branch", name},         {"variants", r.variants},    {"spec", r.toml}, {"claims", r.claims}, {"notes", r.notes},
      {"warnings", r.warnings}, {"advisories", r.advisories}};
  s.out << json_text(j);
  return r.warnings.empty() ? kExitOk : kExitProblems;
}

// --pin, a pin of the knowledge base; the branch name, safe: both before the tree is read.
void ImportRun::resolve(Session& s) {
  const KnowledgeBase& kb = s.facts();
  if (!options.pin.empty()) {
    const NixpkgsPin* p = kb.pin(options.pin);
    if (!p) {
      Diagnostic d;
      d.message = fmt::format("--pin {}: not a nixpkgs pin of the knowledge base", comment_text(options.pin));
      d.hint = "tailor kb --pins lists them; tailor kb probe-pin records a new one";
      throw DiagnosticError(d);
    }
    options.pin = p->short_rev;
  }
  name = tree_branch_name(dir, name);
}

int ImportRun::run(Session& s) {
  ImportResult r = import_spec(name, s.tree().files(), s.facts(), options);
  if (json) return print_json(s, r);
  s.out << r.toml;
  for (const auto& w : r.claims) s.warn(w);
  for (const auto& n : r.notes) s.err << "tailor: note: " << n << "\n";
  for (const auto& w : r.advisories) s.warn(w);
  for (const auto& w : r.warnings) s.warn(w);
  // Exit 1 only where the spec does not reproduce the tree; advice on what it proves wrong is no failure.
  return r.warnings.empty() ? kExitOk : kExitProblems;
}

}  // namespace

std::unique_ptr<CommandRun> make_import() { return std::make_unique<ImportRun>(); }

}  // namespace tailor
