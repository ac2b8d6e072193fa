// tailor adopt TREE [--write] [--name BRANCH] [--fix-calls]: take over a tree that keeps its own
// builder. Imports the spec with the tree's [layout] (its wrapper texts, the
// team's GPU names, the builder files it keeps), then lists exactly what
// `tailor generate` would write, replace and remove there; --write writes the
// spec to TREE/tailor.toml and does it. Files the spec neither reproduces nor
// proves impossible are left untouched.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "generate/branch_tree.hpp"
#include "generate/layout.hpp"
#include "generate/marker.hpp"
#include "generate/tree_write.hpp"
#include "import/layout_import.hpp"
#include "import/spec_import.hpp"
#include "import/table_import.hpp"
#include "lint/linter.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "prune/prune_record.hpp"
#include "recipe/recipe_tree.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/exit_status.hpp"
#include "util/file_error.hpp"
#include "util/path_inside.hpp"
#include "util/quote.hpp"
#include "util/safe_name.hpp"
#include "util/temp_files.hpp"

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

// What adopt imports from a tree: the spec's text, its expansion and what
// happens to every file.
struct Adoption {
  std::vector<recipe::SourceFile> files;
  ImportResult imported;
  LayoutImport layout;
  std::string text;  ///< the spec written to TREE/tailor.toml
  std::vector<GeneratedFile> generated;
  std::vector<PlannedChange> plan;
  // [0]: the variant files, [1]: the tables and pages.
  int identical[2] = {0, 0}, replace[2] = {0, 0}, create[2] = {0, 0};
  int untouched = 0;             ///< files left alone
  std::set<std::string> tables;  ///< the tables and pages the spec writes ([layout.tables])
  /// Wrappers whose builder call contradicts their name (TLR045): imported as the
  /// name says, and, unless --fix-calls, left untouched and out of the manifest.
  std::vector<lint::Problem> contradicting;
};

struct AdoptRun final : CommandRun {
  std::string dir, name;
  bool write = false, fix_calls = false;

  void define(CLI::App& app) override;
  int run(Session& s) override;
  // The steps of a run, in order.
  bool import_tree(Session& s, Adoption& a) const;
  void read_calls_as_named(Session& s, Adoption& a) const;
  void leave_contradicting(Adoption& a) const;
  WritePolicy list_changes(Session& s, Adoption& a) const;
  void print_summary(Session& s, const Adoption& a, const fs::path& spec_path) const;
};

void AdoptRun::define(CLI::App& app) {
  app.description(
      "Take over a tree that keeps its own builder: list (or, with --write, do) what tailor generate "
      "would write, replace and remove there.");
  app.add_option("TREE", dir, "the tree: a checkout whose variant files are wrappers of its own builder")
      ->required()
      ->check(nonempty_check());
  app.add_flag("--write", write, "write TREE/tailor.toml and the files listed; without it nothing is written");
  app.add_option("--name", name, "branch name of the spec (default: the directory's name)");
  app.add_flag("--fix-calls", fix_calls,
               "write the builder call its name says into each wrapper whose call contradicts its name (TLR045); "
               "without it such a wrapper is reported and left untouched, not adopted");
}

// A wrapper whose call contradicts its name (isa = "avx512" in …-sm89-avx2.nix)
// is reported and read as its name says, so the import learns the team's
// template, not the mistake.
void AdoptRun::read_calls_as_named(Session& s, Adoption& a) const {
  lint::CheckResult r = lint::check_files(dir, a.files, s.facts(), true);
  std::erase_if(r.problems, [](const lint::Problem& p) { return p.rule->code != "TLR045"; });
  if (r.problems.empty()) return;
  lint::FixPlan plan = lint::plan_fixes(dir, r, a.files);
  for (const auto& ff : plan.files)
    for (auto& f : a.files)
      if (f.rel == ff.rel) f.text = ff.after;
  for (const auto& p : r.problems) s.err << p.render();
  a.contradicting = std::move(r.problems);
}

// Without --fix-calls, a contradicting wrapper is not written, and its hash is
// not recorded as tailor's: `generate --check` keeps reporting it.
void AdoptRun::leave_contradicting(Adoption& a) const {
  if (fix_calls || a.contradicting.empty()) return;
  std::set<std::string> left;
  for (const auto& p : a.contradicting) left.insert(p.rel);
  std::erase_if(a.generated, [&](const GeneratedFile& f) { return left.count(f.path) > 0; });
  for (auto& f : a.generated) {
    if (f.path != kLayoutManifest) continue;
    std::string body = f.content.substr(0, f.content.rfind('\n', f.content.size() - 2) + 1), kept;
    std::istringstream in(body);
    for (std::string l; std::getline(in, l);) {
      auto sep = l.find("  ");
      if (sep != std::string::npos && !l.starts_with("#") && left.count(l.substr(sep + 2))) continue;
      kept += l + "\n";
    }
    f.content = with_marker(kept, CommentStyle::hash);
  }
  a.plan = plan_tree(dir, a.generated);
}

// The spec of the tree with its [layout], and the plan of generate's files; false (reported)
// when the tree's wrappers are not understood.
bool AdoptRun::import_tree(Session& s, Adoption& a) const {
  const KnowledgeBase& kb = s.facts();
  a.files = recipe::read_tree(dir);
  read_calls_as_named(s, a);
  a.imported = import_spec(name, a.files, kb);
  for (const auto& w : a.imported.warnings) s.warn(w);
  Spec imported = load_spec(std::string(kSpecName), a.imported.toml, kb);
  Matrix first = expand(imported, kb);
  auto wdir = wrapper_dir(a.files, first);
  if (!wdir || wdir->empty())
    a.layout.why = wdir ? "the variant files are at the tree's root, not in a folder of their own"
                        : "no variant of the imported spec has a file in the tree";
  else
    a.layout = import_layout(a.files, imported, first, kb, *wdir);
  if (a.layout.toml.empty()) {
    Diagnostic d;
    d.message = fmt::format("{}: the tree's wrappers are not understood: {}; nothing {}", dir, a.layout.why,
                            write ? "was written" : "would be written");
    s.err << d.render();
    return false;
  }
  // The tables and pages the spec reproduces are written, the rest kept.
  Spec with_wrappers = load_spec(std::string(kSpecName), a.imported.toml + a.layout.toml, kb);
  import_tables(a.files, dir, with_wrappers, expand(with_wrappers, kb), kb, a.layout);
  a.text = a.imported.toml + a.layout.toml;
  Spec spec = load_spec(std::string(kSpecName), a.text, kb);
  spec.source = std::string(kSpecName);
  Matrix m = expand(spec, kb);
  for (const auto& [path, text] : spec.layout->tables) a.tables.insert(path);
  for (const auto& [tmpl, text] : spec.layout->pages)
    for (const auto& [path, cell] : layout_pages(spec, m, kb, tmpl)) a.tables.insert(path);
  a.generated = branch_tree(spec, m, kb);
  a.plan = plan_tree(dir, a.generated);
  leave_contradicting(a);
  return true;
}

// Prints what happens to every file of the tree; the policy that writes it
// (the files tailor did not write that it replaces, named).
WritePolicy AdoptRun::list_changes(Session& s, Adoption& a) const {
  std::map<std::string, const GeneratedFile*> by_path;
  for (const auto& f : a.generated) by_path[f.path] = &f;
  std::vector<std::string> lines;
  WritePolicy policy;
  policy.prune = true;
  std::set<std::string> accounted{std::string(kSpecName)};
  for (const auto& c : a.plan) {
    accounted.insert(c.path);
    if (c.path == kLayoutManifest) continue;
    int table = a.tables.count(c.path) ? 1 : 0;
    switch (c.change) {
      case Change::unchanged: ++a.identical[table]; break;
      case Change::create:
        ++a.create[table];
        lines.push_back(fmt::format("write   {}", c.path));
        break;
      case Change::update:
      case Change::conflict: {
        if (c.change == Change::conflict && !c.foreign) break;  // edited: refused by the policy
        ++a.replace[table];
        policy.named.insert(c.path);
        std::string lines_differ = differing_lines(read_text(fs::path(dir) / c.path), by_path.at(c.path)->content);
        lines.push_back(fmt::format("replace {} (line{} {})", c.path,
                                    lines_differ.find(',') == std::string::npos ? "" : "s", lines_differ));
        break;
      }
      case Change::stale: lines.push_back(fmt::format("remove  {} (no longer in the matrix)", c.path)); break;
    }
  }
  for (const auto& [path, why] : a.imported.impossible) {
    accounted.insert(path);
    lines.push_back(fmt::format("remove  {} ({})", path, why));
  }
  for (const auto& k : a.layout.keep) {
    accounted.insert(k);
    auto why = a.layout.kept_why.find(k);
    lines.push_back(fmt::format("keep    {} (the tree's builder: checked, never written{})", k,
                                why == a.layout.kept_why.end() ? "" : ": " + why->second));
  }
  std::map<std::string, std::string> contradicts;
  for (const auto& p : a.contradicting)
    contradicts[p.rel] = fmt::format(
        "its builder call contradicts its name at line {} [TLR045]: not adopted; "
        "--fix-calls writes the call the name says",
        p.pos.line);
  for (const auto& f : a.files)
    if (!accounted.count(f.rel)) {
      ++a.untouched;
      auto why = a.layout.kept_why.find(f.rel);  // a page the spec does not reproduce says why
      auto c = contradicts.find(f.rel);
      lines.push_back(fmt::format("untouched {}{}", f.rel,
                                  c != contradicts.end()           ? " (" + c->second + ")"
                                  : why == a.layout.kept_why.end() ? ""
                                                                   : " (" + why->second + ")"));
    }
  for (const auto& l : lines) s.out << l << "\n";
  for (const auto& c : a.layout.corrected) s.out << "corrected: " << c << "\n";
  // The pages the page template does not give back: written from their own text, or kept.
  for (const auto& [page, why] : a.layout.page_why)
    if (!page.ends_with(".md"))
      s.out << fmt::format("pages of {}/: no template, each page its own text: {}\n", page, why);
    else if (a.tables.count(page))
      s.out << fmt::format("page {}: its own text, not the template's: {}\n", page, why);
  return policy;
}

void AdoptRun::print_summary(Session& s, const Adoption& a, const fs::path& spec_path) const {
  auto counts = [&](int k) {
    return fmt::format("{} identical, {} to replace, {} to write", a.identical[k], a.replace[k], a.create[k]);
  };
  std::string tables = a.tables.empty() ? ""
                                        : fmt::format(", {} tables and pages from the knowledge base ({})",
                                                      a.identical[1] + a.replace[1] + a.create[1], counts(1));
  s.out << fmt::format(
      "adopt {}: {} variant files from the spec ({}){}, {} to remove, {} kept, {} untouched; the spec {} {}\n", dir,
      a.identical[0] + a.replace[0] + a.create[0], counts(0), tables, a.imported.impossible.size(),
      a.layout.keep.size(), a.untouched, write ? "is" : "goes to", spec_path.generic_string());
  if (!a.layout.replaces.empty())
    s.out << fmt::format("{} {} replaced by `tailor generate {} -o .` (run in {})\n",
                         fmt::join(a.layout.replaces, " and "), a.layout.replaces.size() == 1 ? "is" : "are", kSpecName,
                         dir);
}

int AdoptRun::run(Session& s) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw_file_error(dir, "not a directory");
  name = tree_branch_name(dir, name);
  auto lock = lock_tree(dir, s.err, write);
  Adoption a;
  if (!import_tree(s, a)) return kExitProblems;
  WritePolicy policy = list_changes(s, a);
  fs::path spec_path = fs::path(dir) / kSpecName;
  bool spec_there = fs::exists(spec_path, ec);
  if (spec_there && read_text(spec_path) != a.text) {
    Diagnostic d;
    d.message = fmt::format("{}: exists and is not the spec adopt imports; nothing {}", spec_path.generic_string(),
                            write ? "was written" : "would be written");
    d.hint = fs::exists(fs::path(dir) / kLayoutManifest, ec)
                 ? "remove it (or move it away) to adopt again; `tailor generate` keeps a tree that was adopted"
                 : fmt::format(
                       "no {} beside it: an adopt that did not finish wrote it; remove it and run `tailor "
                       "adopt {} --write` again to finish the tree",
                       kLayoutManifest, dir);
    s.err << d.render();
    return kExitProblems;
  }
  std::vector<const PlannedChange*> refused = refused_changes(a.plan, policy);
  std::erase_if(refused, [](const PlannedChange* c) { return c->path == kLayoutManifest; });  // tailor's own record
  if (!refused.empty()) {
    for (const PlannedChange* c : refused) s.err << refusal(dir, *c, "not overwritten").render();
    s.err << "hint: nothing was written; undo the edits or change the spec and run tailor generate --force\n";
    return kExitProblems;
  }
  print_summary(s, a, spec_path);
  if (!write) {
    s.out << "dry run: nothing written; --write does it\n";
    return a.contradicting.empty() || fix_calls ? kExitOk : kExitProblems;
  }
  // The files one by one, the record of what tailor wrote and the spec last: a run cut short
  // leaves no spec, and the next `adopt --write` finishes the tree. A signal stops between files.
  std::optional<DeferSignals> defer(std::in_place);
  auto stopped = [&] {
    int sig = interrupting_signal();
    if (sig)
      s.warn(
          fmt::format("interrupted by {}: the spec is not written; run `tailor adopt {} --write` again to finish "
                      "the tree",
                      signal_name(sig), dir));
    return sig;
  };
  const PlannedChange* manifest = nullptr;
  for (const auto& c : a.plan) {
    if (c.path == kLayoutManifest) {
      manifest = &c;
      continue;
    }
    if (int sig = stopped()) return 128 + sig;
    write_tree(dir, a.generated, {c}, policy);
  }
  for (const auto& [path, why] : a.imported.impossible) {
    if (int sig = stopped()) return 128 + sig;
    require_inside_root(dir, path, "remove");
    fs::remove(fs::path(dir) / path, ec);
    if (ec) throw_file_error(fs::path(dir) / path, "cannot remove: " + ec.message());
  }
  if (int sig = stopped()) return 128 + sig;
  if (manifest) write_tree(dir, a.generated, {*manifest}, policy);
  if (int sig = stopped()) return 128 + sig;
  if (!spec_there) write_file_atomically(spec_path, a.text);
  defer.reset();
  s.out << fmt::format("wrote {} files, removed {}; `tailor generate {} -o .` keeps the tree from now on\n",
                       a.replace[0] + a.create[0] + a.replace[1] + a.create[1], a.imported.impossible.size(),
                       kSpecName);
  return a.contradicting.empty() || fix_calls ? kExitOk : kExitProblems;
}

}  // namespace

std::unique_ptr<CommandRun> make_adopt() { return std::make_unique<AdoptRun>(); }

}  // namespace tailor
