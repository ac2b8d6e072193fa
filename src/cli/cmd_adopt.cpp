// tailor adopt TREE [--write] [--name BRANCH]: take over a tree that keeps its own
// builder. Imports the spec with the tree's [layout] (its wrapper texts, the
// team's GPU names, the builder files it keeps), then lists exactly what
// `tailor generate` would write, replace and remove there; --write writes the
// spec to TREE/tailor.toml and does it. Files the spec neither reproduces nor
// proves impossible are left untouched.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "generate/branch_tree.hpp"
#include "generate/layout.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "migrate/layout_import.hpp"
#include "migrate/spec_import.hpp"
#include "migrate/table_import.hpp"
#include "recipe/recipe_tree.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/file_error.hpp"
#include "util/output_lock.hpp"
#include "util/quote.hpp"
#include "util/safe_name.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kSpecName = "tailor.toml";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The 1-based numbers of the lines where \a a and \a b differ ("1", "1, 3").
std::string differing_lines(const std::string& a, const std::string& b) {
  auto lines = [](const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  };
  auto la = lines(a), lb = lines(b);
  std::vector<std::string> diff;
  for (size_t i = 0; i < std::max(la.size(), lb.size()); ++i)
    if (i >= la.size() || i >= lb.size() || la[i] != lb[i]) diff.push_back(std::to_string(i + 1));
  if (a.size() && b.size() && (a.back() == '\n') != (b.back() == '\n') && diff.empty())
    diff.push_back(std::to_string(lb.size()));
  return fmt::format("{}", fmt::join(diff, ", "));
}

}  // namespace

int cmd_adopt(CommandContext& ctx) {
  CLI::App app{
      "Take over a tree that keeps its own builder: list (or, with --write, do) what tailor generate "
      "would write, replace and remove there.",
      "adopt"};
  std::string dir, name, kb_dir;
  bool write = false;
  app.add_option("TREE", dir, "the tree: a checkout whose variant files are wrappers of its own builder")
      ->required()
      ->check(nonempty_check());
  app.add_flag("--write", write, "write TREE/tailor.toml and the files listed; without it nothing is written");
  app.add_option("--name", name, "branch name of the spec (default: the directory's name)");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  KnowledgeBase kb = load_kb(kb_dir);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    Diagnostic d;
    d.path = dir;
    d.message = "not a directory";
    throw DiagnosticError(d);
  }
  name = tree_branch_name(dir, name);
  std::optional<OutputLock> lock;
  lock.emplace(dir, ctx.err, write ? OutputLock::Mode::exclusive : OutputLock::Mode::shared);

  std::vector<recipe::SourceFile> files = recipe::read_tree(dir);
  migrate::ImportResult r = migrate::import_spec(name, files, kb);
  for (const auto& w : r.warnings) ctx.err << "tailor: warning: " << w << "\n";
  Spec imported = load_spec(std::string(kSpecName), r.toml, kb);
  Matrix first = expand(imported, kb);
  auto wdir = migrate::wrapper_dir(files, first);
  migrate::LayoutImport li;
  if (!wdir || wdir->empty())
    li.why = wdir ? "the variant files are at the tree's root, not in a folder of their own"
                  : "no variant of the imported spec has a file in the tree";
  else
    li = migrate::import_layout(files, imported, first, kb, *wdir);
  if (li.toml.empty()) {
    ctx.err << fmt::format("tailor: error: {}: the tree's wrappers are not understood: {}; nothing {}\n", dir, li.why,
                           write ? "was written" : "would be written");
    return kExitProblems;
  }
  // The tables and pages the spec reproduces are written, the rest kept.
  Spec with_wrappers = load_spec(std::string(kSpecName), r.toml + li.toml, kb);
  migrate::import_tables(files, dir, with_wrappers, expand(with_wrappers, kb), kb, li);
  std::string text = r.toml + li.toml;
  Spec spec = load_spec(std::string(kSpecName), text, kb);
  spec.source = std::string(kSpecName);
  Matrix m = expand(spec, kb);
  std::vector<GeneratedFile> generated = branch_tree(spec, m, kb);
  std::vector<PlannedChange> plan = plan_tree(dir, generated);

  // What happens to every file of the tree.
  std::map<std::string, const GeneratedFile*> by_path;
  for (const auto& f : generated) by_path[f.path] = &f;
  std::vector<std::string> lines, edited;
  std::set<std::string> named, accounted{std::string(kSpecName)};
  // [0]: the variant files, [1]: the tables and pages.
  int identical[2] = {0, 0}, replace[2] = {0, 0}, create[2] = {0, 0};
  for (const auto& c : plan) {
    accounted.insert(c.path);
    if (c.path == kLayoutManifest) continue;
    int table = spec.layout->tables.count(c.path) ? 1 : 0;
    switch (c.change) {
      case Change::unchanged: ++identical[table]; break;
      case Change::create:
        ++create[table];
        lines.push_back(fmt::format("write   {}", c.path));
        break;
      case Change::update:
      case Change::conflict: {
        if (c.change == Change::conflict && !c.foreign) {
          edited.push_back(c.path);
          break;
        }
        ++replace[table];
        named.insert(c.path);
        std::string lines_differ = differing_lines(read_text(fs::path(dir) / c.path), by_path.at(c.path)->content);
        lines.push_back(fmt::format("replace {} (line{} {})", c.path,
                                    lines_differ.find(',') == std::string::npos ? "" : "s", lines_differ));
        break;
      }
      case Change::stale: lines.push_back(fmt::format("remove  {} (no longer in the matrix)", c.path)); break;
    }
  }
  for (const auto& [path, why] : r.impossible) {
    accounted.insert(path);
    lines.push_back(fmt::format("remove  {} ({})", path, why));
  }
  for (const auto& k : li.keep) {
    accounted.insert(k);
    auto why = li.kept_why.find(k);
    lines.push_back(fmt::format("keep    {} (the tree's builder: checked, never written{})", k,
                                why == li.kept_why.end() ? "" : ": " + why->second));
  }
  int untouched = 0;
  for (const auto& f : files)
    if (!accounted.count(f.rel)) {
      ++untouched;
      auto why = li.kept_why.find(f.rel);  // a page the spec does not reproduce says why
      lines.push_back(fmt::format("untouched {}{}", f.rel, why == li.kept_why.end() ? "" : " (" + why->second + ")"));
    }
  for (const auto& l : lines) ctx.out << l << "\n";
  for (const auto& c : li.corrected) ctx.out << "corrected: " << c << "\n";
  fs::path spec_path = fs::path(dir) / kSpecName;
  bool spec_there = fs::exists(spec_path, ec);
  if (spec_there && read_text(spec_path) != text) {
    ctx.err << fmt::format("tailor: error: {}: exists and is not the spec adopt imports; nothing {}\n",
                           spec_path.generic_string(), write ? "was written" : "would be written");
    ctx.err << "hint: remove it (or move it away) to adopt again; `tailor generate` keeps a tree that was adopted\n";
    return kExitProblems;
  }
  if (!edited.empty()) {
    for (const auto& e : edited)
      ctx.err << fmt::format("{}/{}: error: edited since tailor generated it; not overwritten\n", dir, e);
    ctx.err << "hint: nothing was written; undo the edits or change the spec and run tailor generate --force\n";
    return kExitProblems;
  }
  auto counts = [&](int k) {
    return fmt::format("{} identical, {} to replace, {} to write", identical[k], replace[k], create[k]);
  };
  std::string tables = spec.layout->tables.empty() ? ""
                                                   : fmt::format(", {} tables and pages from the knowledge base ({})",
                                                                 identical[1] + replace[1] + create[1], counts(1));
  ctx.out << fmt::format(
      "adopt {}: {} variant files from the spec ({}){}, {} to remove, {} kept, {} untouched; the spec {} {}\n", dir,
      identical[0] + replace[0] + create[0], counts(0), tables, r.impossible.size(), li.keep.size(), untouched,
      write ? "is" : "goes to", spec_path.generic_string());
  if (!li.replaces.empty())
    ctx.out << fmt::format("{} {} replaced by `tailor generate {} -o .` (run in {})\n", fmt::join(li.replaces, " and "),
                           li.replaces.size() == 1 ? "is" : "are", kSpecName, dir);
  if (!write) {
    ctx.out << "dry run: nothing written; --write does it\n";
    return kExitOk;
  }
  if (!spec_there) write_file_atomically(spec_path, text);
  apply_plan(dir, generated, plan, false, true, named);
  for (const auto& [path, why] : r.impossible) {
    fs::remove(fs::path(dir) / path, ec);
    if (ec) throw_file_error(fs::path(dir) / path, "cannot remove: " + ec.message());
  }
  ctx.out << fmt::format("wrote {} files, removed {}; `tailor generate {} -o .` keeps the tree from now on\n",
                         replace[0] + create[0] + replace[1] + create[1], r.impossible.size(), kSpecName);
  return kExitOk;
}

}  // namespace tailor
