#include "import/adopt.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "generate/branch_tree.hpp"
#include "generate/layout.hpp"
#include "import/layout_import.hpp"
#include "import/spec_import.hpp"
#include "import/table_import.hpp"
#include "lint/linter.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "recipe/recipe_tree.hpp"
#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/file_error.hpp"
#include "util/path_inside.hpp"
#include "util/read_file.hpp"
#include "util/temp_files.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// The 1-based numbers of the lines where \a a and \a b differ.
std::vector<int> differing_lines(const std::string& a, const std::string& b) {
  auto lines = [](const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  };
  auto la = lines(a), lb = lines(b);
  std::vector<int> diff;
  for (size_t i = 0; i < std::max(la.size(), lb.size()); ++i)
    if (i >= la.size() || i >= lb.size() || la[i] != lb[i]) diff.push_back(static_cast<int>(i + 1));
  if (a.size() && b.size() && (a.back() == '\n') != (b.back() == '\n') && diff.empty())
    diff.push_back(static_cast<int>(lb.size()));
  return diff;
}

// The tree's files, read; a wrapper whose call contradicts its name (isa = "avx512" in
// …-sm89-avx2.nix) is reported and read as its name says, so the import learns the
// team's template, not the mistake.
std::vector<recipe::SourceFile> read_as_named(const std::string& dir, std::vector<recipe::SourceFile> files,
                                              const KnowledgeBase& kb, const AdoptSink& sink, AdoptionPlan& plan) {
  lint::CheckResult r = lint::check_call_names(dir, files, kb);
  std::erase_if(r.problems, [](const lint::Problem& p) { return p.rule->code != "TLR045"; });
  if (r.problems.empty()) return files;
  lint::FixPlan fixes = lint::plan_fixes(dir, r, files);
  for (const auto& ff : fixes.files)
    for (auto& f : files)
      if (f.rel == ff.rel) f.text = ff.after;
  for (const auto& p : r.problems) sink.finding(p);
  plan.contradicting = std::move(r.problems);
  return files;
}

// The layout of the tree's wrappers (why not, when they fit none).
LayoutImport wrappers_layout(const std::vector<recipe::SourceFile>& files, const Spec& spec, const Matrix& m,
                             const KnowledgeBase& kb) {
  std::optional<std::string> wdir = wrapper_dir(files, m);
  if (wdir && !wdir->empty()) return import_layout(files, spec, m, kb, *wdir);
  LayoutImport none;
  none.why = wdir ? "the variant files are at the tree's root, not in a folder of their own"
                  : "no variant of the imported spec has a file in the tree";
  return none;
}

// Without fix_calls, a contradicting wrapper is not written, and its hash is not
// recorded as tailor's: `generate --check` keeps reporting it.
void leave_contradicting(AdoptionPlan& plan) {
  std::set<std::string> left{std::string(kLayoutManifest)};
  for (const auto& p : plan.contradicting) left.insert(p.rel);
  std::erase_if(plan.generated, [&](const GeneratedFile& f) { return left.count(f.path) > 0; });
  plan.generated.push_back(layout_manifest(plan.generated));
  plan.changes = plan_tree(plan.dir, plan.generated);
}

// What generate's plan does to each file it writes: a file tailor never wrote is
// replaced by name; one edited since tailor wrote it refuses the run.
void generated_files(AdoptionPlan& plan, const std::set<std::string>& tables) {
  std::map<std::string, const GeneratedFile*> by_path;
  for (const auto& f : plan.generated) by_path[f.path] = &f;
  plan.policy.prune = true;
  for (const auto& c : plan.changes) {
    if (c.path == kLayoutManifest) continue;
    AdoptedFile f{c.path, c.change, tables.count(c.path) > 0, {}, c.note};
    if (c.change == Change::conflict && c.foreign) f.change = Change::update;
    if (f.change == Change::update) {
      plan.policy.named.insert(c.path);
      f.lines = differing_lines(read_file(fs::path(plan.dir) / c.path), by_path.at(c.path)->content);
      f.reason.clear();
    }
    if (c.change == Change::stale) f.reason = "no longer in the matrix";
    plan.files.push_back(std::move(f));
  }
}

// The files generate does not write: the impossible ones removed, the builder kept, the rest untouched.
void other_files(AdoptionPlan& plan, const std::vector<recipe::SourceFile>& files, const LayoutImport& li) {
  std::set<std::string> accounted{std::string(kAdoptSpecName)};
  for (const auto& c : plan.changes) accounted.insert(c.path);
  for (const auto& [path, why] : plan.impossible) {
    accounted.insert(path);
    plan.files.push_back({path, Change::stale, false, {}, why});
  }
  auto why_of = [&](const std::string& path) {
    auto why = li.kept_why.find(path);
    return why == li.kept_why.end() ? std::string() : why->second;
  };
  for (const auto& k : li.layout.keep) {
    accounted.insert(k);
    plan.files.push_back({k, Change::kept, false, {}, why_of(k), li.own_wrappers.count(k) > 0});
  }
  std::map<std::string, std::string> contradicts;
  for (const auto& p : plan.contradicting)
    contradicts[p.rel] = fmt::format(
        "its builder call contradicts its name at line {} [TLR045]: not adopted; "
        "--fix-calls writes the call the name says",
        p.pos.line);
  for (const auto& f : files)
    if (!accounted.count(f.rel)) {  // a page the spec does not reproduce says why
      auto c = contradicts.find(f.rel);
      plan.files.push_back({f.rel, Change::untouched, false, {}, c != contradicts.end() ? c->second : why_of(f.rel)});
    }
}

// The pages the page template does not give back: written from their own text, or kept.
void page_notes(AdoptionPlan& plan, const LayoutImport& li, const std::set<std::string>& tables) {
  for (const auto& [page, why] : li.page_why)
    if (!page.ends_with(".md"))
      plan.pages.push_back({page, why, true});
    else if (tables.count(page))
      plan.pages.push_back({page, why, false});
}

}  // namespace

AdoptionPlan plan_adoption(const std::string& dir, const AdoptOptions& options, const KnowledgeBase& kb,
                           const AdoptSink& sink) {
  return plan_adoption(dir, recipe::read_tree(dir), options, kb, sink);
}

AdoptionPlan plan_adoption(const std::string& dir, std::vector<recipe::SourceFile> read, const AdoptOptions& options,
                           const KnowledgeBase& kb, const AdoptSink& sink) {
  AdoptionPlan plan;
  plan.dir = dir;
  std::vector<recipe::SourceFile> files = read_as_named(dir, std::move(read), kb, sink, plan);
  // The variants: the spec imported, parsed and expanded once (a [layout] changes no variant:
  // the wrappers', tables' and final stages add theirs to this Spec and share its Matrix).
  ImportResult imported = import_spec(options.name, files, kb);
  for (const auto& w : imported.warnings) sink.warning(w);
  Spec spec = load_spec(std::string(kAdoptSpecName), imported.toml, kb);
  spec.source = std::string(kAdoptSpecName);
  Matrix m = expand(spec, kb);
  // The wrappers, then the tables and pages read with the wrappers' layout.
  LayoutImport li = wrappers_layout(files, spec, m, kb);
  if (!li.why.empty()) {
    plan.why = li.why;
    return plan;
  }
  spec.layout = spec_layout(li);
  import_tables(files, dir, spec, m, kb, li);
  spec.layout = spec_layout(li);
  spec.text = imported.toml + layout_toml(*spec.layout);
  plan.spec = spec.text;
  plan.impossible = imported.impossible;
  plan.corrected = li.corrected;
  plan.replaces = spec.layout->replaces;
  // The tables and pages the spec reproduces are written, the rest kept.
  std::set<std::string> tables;
  for (const auto& [path, text] : spec.layout->tables) tables.insert(path);
  for (const auto& [tmpl, text] : spec.layout->pages)
    for (const auto& [path, cell] : layout_pages(spec, m, kb, tmpl)) tables.insert(path);
  plan.generated = branch_tree(spec, m, kb);
  plan.changes = plan_tree(dir, plan.generated);
  if (!options.fix_calls && !plan.contradicting.empty()) leave_contradicting(plan);
  generated_files(plan, tables);
  other_files(plan, files, li);
  page_notes(plan, li, tables);
  return plan;
}

size_t AdoptionPlan::count(Change c, std::optional<bool> table) const {
  return static_cast<size_t>(std::count_if(files.begin(), files.end(), [&](const AdoptedFile& f) {
    return f.change == c && (!table || f.table == *table);
  }));
}

std::string AdoptionPlan::spec_path() const { return (fs::path(dir) / kAdoptSpecName).generic_string(); }

std::string adoption_refusals(const AdoptionPlan& plan, bool write) {
  if (!plan.why.empty()) {
    Diagnostic d;
    d.message = fmt::format("{}: the tree's wrappers are not understood: {}; nothing {}", plan.dir, plan.why,
                            write ? "was written" : "would be written");
    return d.render();
  }
  std::error_code ec;
  if (fs::exists(plan.spec_path(), ec) && read_file(plan.spec_path(), "spec") != plan.spec) {
    Diagnostic d;
    d.message = fmt::format("{}: exists and is not the spec adopt imports; nothing {}", plan.spec_path(),
                            write ? "was written" : "would be written");
    d.hint = fs::exists(fs::path(plan.dir) / kLayoutManifest, ec)
                 ? "remove it (or move it away) to adopt again; `tailor generate` keeps a tree that was adopted"
                 : fmt::format(
                       "no {} beside it: an adopt that did not finish wrote it; remove it and run `tailor "
                       "adopt {} --write` again to finish the tree",
                       kLayoutManifest, plan.dir);
    return d.render();
  }
  std::vector<const PlannedChange*> refused = refused_changes(plan.changes, plan.policy);
  std::erase_if(refused, [](const PlannedChange* c) { return c->path == kLayoutManifest; });  // tailor's own record
  if (refused.empty()) return "";
  std::string out;
  for (const PlannedChange* c : refused) out += refusal(plan.dir, *c, "not overwritten").render();
  return out + "hint: nothing was written; undo the edits or change the spec and run tailor generate --force\n";
}

int write_adoption(const AdoptionPlan& plan) {
  const std::string& dir = plan.dir;
  std::error_code ec;
  bool spec_there = fs::exists(plan.spec_path(), ec);
  // A signal stops the run between files.
  DeferSignals defer;
  const PlannedChange* manifest = nullptr;
  for (const auto& c : plan.changes) {
    if (c.path == kLayoutManifest) {
      manifest = &c;
      continue;
    }
    if (int sig = interrupting_signal()) return sig;
    write_tree(dir, plan.generated, {c}, plan.policy);
  }
  for (const auto& [path, why] : plan.impossible) {
    if (int sig = interrupting_signal()) return sig;
    require_inside_root(dir, path, "remove");
    fs::remove(fs::path(dir) / path, ec);
    if (ec) throw_file_error(fs::path(dir) / path, "cannot remove: " + ec.message());
  }
  if (int sig = interrupting_signal()) return sig;
  if (manifest) write_tree(dir, plan.generated, {*manifest}, plan.policy);
  if (int sig = interrupting_signal()) return sig;
  if (!spec_there) write_file_atomically(plan.spec_path(), plan.spec);
  return 0;
}

}  // namespace tailor
