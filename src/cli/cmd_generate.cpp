// tailor generate [SPEC] -o DIR [--check] [--force] [--prune] [--json] [--catalog]: write the
// branch's recipe tree and docs (with --catalog, the catalog page too), safely,
// or check that DIR is up to date.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog_page.hpp"
#include "cli/command.hpp"
#include "cli/expanded_matrix.hpp"
#include "cli/options.hpp"
#include "generate/branch_tree.hpp"
#include "generate/marker.hpp"
#include "matrix/spec_loader.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"
#include "util/output_lock.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {
const char* change_name(Change c) {
  switch (c) {
    case Change::create: return "create";
    case Change::update: return "update";
    case Change::unchanged: return "unchanged";
    case Change::conflict: return "edited";
    case Change::stale: return "stale";
  }
  return "?";
}

// --json: what the tree needed and what this run did, one document.
void print_json(CommandContext& ctx, const Spec& spec, const Matrix& m, const std::string& dir, size_t files,
                const std::vector<PlannedChange>& plan, bool check, int written, int removed) {
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const auto& c : plan)
    if (c.change != Change::unchanged)
      changes.push_back({{"path", c.path}, {"change", change_name(c.change)}, {"note", c.note}});
  nlohmann::ordered_json j{{"spec", spec.path},
                           {"branch", spec.name},
                           {"tree", dir},
                           {"variants", m.variants.size()},
                           {"files", files},
                           {"check", check},
                           {"up_to_date", changes.empty()},
                           {"written", written},
                           {"removed", removed},
                           {"changes", changes}};
  ctx.out << json_text(j);
}
}  // namespace

int cmd_generate(CommandContext& ctx) {
  CLI::App app{"Write the recipe tree and docs of a spec.", "generate"};
  SpecArg spec_arg;
  std::string dir, kb_dir;
  bool check = false, force = false, prune = false, json = false, catalog = false;
  add_spec_arg(app, spec_arg, "spec file or built-in spec (default: build-pytorch/main)");
  app.add_option("-o,--output", dir, "directory of the tree")->required()->check(nonempty_check())->type_name("DIR");
  app.add_flag("--check", check, "write nothing; exit 1 if DIR is not up to date");
  std::vector<std::string> overwrite;
  app.add_flag("--force", force,
               "overwrite generated files that were edited by hand (never a file tailor did not write)");
  app.add_option("--overwrite", overwrite,
                 "overwrite this file of the tree (relative to DIR), even one tailor did not write; repeatable")
      ->type_name("PATH");
  app.add_flag("--prune", prune, "remove generated files of variants no longer in the matrix");
  app.add_flag("--json", json, "print what the tree needed and what was written as one JSON object");
  app.add_flag("--catalog", catalog, "also write docs/index.html, the page of 'tailor catalog' for this spec");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;

  KnowledgeBase kb = load_kb(kb_dir);
  Spec spec = load_spec_arg(chosen_spec(spec_arg, "generate", kDefaultSpec), kb);
  spec.source = spec_source(spec.path, dir);  // the tree names its spec the same however it was spelled
  Matrix m = expand_reporting(spec, kb, ctx.err);
  std::vector<GeneratedFile> files = branch_tree(spec, m, kb);
  if (catalog) {
    CatalogData data = build_catalog({{spec, m}}, kb, "flox");
    files.push_back({"docs/index.html", with_marker(render_catalog_page(data, kb), CommentStyle::html)});
  }
  // One writer per output directory at a time (a check reads beside other checks).
  std::optional<OutputLock> lock;
  std::error_code ec;
  if (!check) {
    fs::create_directories(dir, ec);
    if (ec) {
      Diagnostic d;
      d.path = dir;
      d.message = "cannot create the output directory: " + ec.message();
      throw DiagnosticError(d);
    }
  }
  if (fs::is_directory(dir, ec))
    lock.emplace(dir, ctx.err, check ? OutputLock::Mode::shared : OutputLock::Mode::exclusive);
  std::vector<PlannedChange> plan = plan_tree(dir, files);
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

  std::map<Change, int> count;
  for (const auto& c : plan) count[c.change]++;
  // A tree that keeps its own builder: its files are checked, never written.
  std::vector<std::string> missing;
  if (spec.layout)
    for (const auto& k : spec.layout->keep)
      if (!fs::is_regular_file(fs::path(dir) / k, ec)) missing.push_back(k);
  for (const auto& k : missing)
    ctx.err << fmt::format(
        "{}/{}: error: the tree's own builder file is missing ([layout] keep); tailor never "
        "writes it\n",
        dir, k);
  if (!missing.empty() && !check) return kExitProblems;
  if (check && json) {
    print_json(ctx, spec, m, dir, files.size(), plan, true, 0, 0);
    return plan.size() == static_cast<size_t>(count[Change::unchanged]) && missing.empty() ? kExitOk : kExitProblems;
  }
  if (check) {
    for (const auto& c : plan)
      if (c.change != Change::unchanged)
        ctx.out << fmt::format("{}: {}{}\n", change_name(c.change), c.path, c.note.empty() ? "" : " (" + c.note + ")");
    bool up_to_date = plan.size() == static_cast<size_t>(count[Change::unchanged]) && missing.empty();
    ctx.out << (up_to_date ? fmt::format("{} is up to date ({} files)\n", dir, files.size())
                           : fmt::format("{} is not up to date: {} to create, {} to update, {} edited, {} stale\n", dir,
                                         count[Change::create], count[Change::update], count[Change::conflict],
                                         count[Change::stale]));
    return up_to_date ? kExitOk : kExitProblems;
  }
  int edited = 0, foreign = 0, overwritten = 0;
  for (const auto& c : plan) {
    if (c.change != Change::conflict) continue;
    if (may_overwrite(c, force, named))
      ++overwritten;
    else
      ++(c.foreign ? foreign : edited);
  }
  if (edited + foreign) {
    for (const auto& c : plan)
      if (c.change == Change::conflict && !may_overwrite(c, force, named))
        ctx.err << fmt::format("{}/{}: error: {}; not overwritten\n", dir, c.path, c.note);
    // A file tailor never wrote may be a team's own builder with another
    // interface: --force alone must not replace it.
    std::vector<std::string> ways;
    if (edited) ways.push_back(fmt::format("--force to overwrite {} edited file{}", edited, edited == 1 ? "" : "s"));
    if (foreign)
      ways.push_back(
          fmt::format("--overwrite PATH for each of the {} file{} tailor did not write, if it should replace {}",
                      foreign, foreign == 1 ? "" : "s", foreign == 1 ? "it" : "them"));
    ctx.err << fmt::format("hint: nothing was written; rerun with {}\n", fmt::join(ways, ", or "));
    if (json) print_json(ctx, spec, m, dir, files.size(), plan, false, 0, 0);
    return kExitProblems;
  }
  apply_plan(dir, files, plan, force, prune, named);
  int written = count[Change::create] + count[Change::update] + overwritten;
  if (json) {
    print_json(ctx, spec, m, dir, files.size(), plan, false, written, prune ? count[Change::stale] : 0);
    return kExitOk;
  }
  if (written == 0 && (count[Change::stale] == 0 || !prune)) {
    ctx.out << fmt::format("{}: nothing to do, up to date ({} files, {} variants)\n", dir, files.size(),
                           m.variants.size());
  } else {
    ctx.out << fmt::format("{}: wrote {} file{} ({} new, {} updated{}), {} unchanged; {} variants of {}\n", dir,
                           written, written == 1 ? "" : "s", count[Change::create], count[Change::update],
                           overwritten ? fmt::format(", {} overwritten", overwritten) : "", count[Change::unchanged],
                           m.variants.size(), spec.path);
  }
  if (count[Change::stale]) {
    bool kept = false;
    for (const auto& c : plan) {
      if (c.change != Change::stale) continue;
      if (is_staging_leftover(c)) {
        ctx.out << fmt::format("removed {} ({})\n", c.path, c.note);
        continue;
      }
      ctx.out << fmt::format("{} {}\n", prune ? "removed" : "stale:", c.path);
      kept = kept || !prune;
    }
    if (kept) ctx.out << "hint: these belong to variants no longer in the matrix; --prune removes them\n";
  }
  return kExitOk;
}

}  // namespace tailor
