// tailor adopt TREE [--write] [--name BRANCH] [--fix-calls] [--json]: take over a tree that keeps
// its own builder. The plan (import/adopt.hpp) says what `tailor generate` would write, replace
// and remove there; this prints it, as text or JSON, and with --write does it.
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "import/adopt.hpp"
#include "import/adopt_json.hpp"
#include "prune/prune_record.hpp"
#include "util/exit_status.hpp"
#include "util/json_text.hpp"

namespace tailor {

namespace {

struct AdoptRun final : CommandRun {
  std::string dir;
  AdoptOptions options;
  bool write = false, json = false;

  void define(CLI::App& app) override;
  Input input() override { return {dir, "not a directory", ""}; }
  int run(Session& s) override;
};

void AdoptRun::define(CLI::App& app) {
  app.description(
      "Take over a tree that keeps its own builder: list (or, with --write, do) what tailor generate "
      "would write, replace and remove there.");
  app.add_option("TREE", dir, "the tree: a checkout whose variant files are wrappers of its own builder")
      ->required()
      ->check(nonempty_check());
  app.add_flag("--write", write, "write TREE/tailor.toml and the files listed; without it nothing is written");
  app.add_option("--name", options.name, "branch name of the spec (default: the directory's name)");
  app.add_flag("--fix-calls", options.fix_calls,
               "write the builder call its name says into each wrapper whose call contradicts its name (TLR045); "
               "without it such a wrapper is reported and left untouched, not adopted");
  app.add_flag("--json", json, "print the plan (and what was written) as one JSON object");
}

// The text: a line per file that changes or stays the team's, the facts corrected, the pages of their own text.
void print_lines(Session& s, const AdoptionPlan& p) {
  for (const auto& f : p.files) {
    std::string_view word = kAdoptLines.name(f.change);
    if (f.change == Change::update)
      s.out << fmt::format("{} {} (line{} {})\n", word, f.path, f.lines.size() > 1 ? "s" : "",
                           fmt::join(f.lines, ", "));
    else if (f.change == Change::kept && f.own_text)
      s.out << fmt::format("{:<7} {} (its own text, not its backend's: never written; {})\n", word, f.path, f.reason);
    else if (f.change == Change::kept)
      s.out << fmt::format("{:<7} {} (the tree's builder: checked, never written{})\n", word, f.path,
                           f.reason.empty() ? "" : ": " + f.reason);
    else if (!word.empty())
      s.out << fmt::format("{:<7} {}{}\n", word, f.path, f.reason.empty() ? "" : " (" + f.reason + ")");
  }
  for (const auto& c : p.corrected) s.out << "corrected: " << c << "\n";
  for (const auto& pg : p.pages)
    s.out << (pg.folder ? fmt::format("pages of {}/: no template, each page its own text: {}\n", pg.path, pg.why)
                        : fmt::format("page {}: its own text, not the template's: {}\n", pg.path, pg.why));
}

// Then, unless refused, the counts (variant files and tables apart) and the scripts generate replaces.
void print_summary(Session& s, const AdoptionPlan& p, bool write) {
  auto counts = [&](bool t) {
    size_t n[3] = {p.count(Change::unchanged, t), p.count(Change::update, t), p.count(Change::create, t)};
    return std::pair(n[0] + n[1] + n[2], fmt::format("{} identical, {} to replace, {} to write", n[0], n[1], n[2]));
  };
  auto [variants, of_variants] = counts(false);
  auto [tables, of_tables] = counts(true);
  s.out << fmt::format(
      "adopt {}: {} variant files from the spec ({}){}, {} to remove, {} kept, {} untouched; the spec {} {}\n", p.dir,
      variants, of_variants,
      tables ? fmt::format(", {} tables and pages from the knowledge base ({})", tables, of_tables) : "",
      p.impossible.size(), p.count(Change::kept), p.count(Change::untouched), write ? "is" : "goes to", p.spec_path());
  if (!p.replaces.empty())
    s.out << fmt::format("{} {} replaced by `tailor generate {} -o .` (run in {})\n", fmt::join(p.replaces, " and "),
                         p.replaces.size() == 1 ? "is" : "are", kAdoptSpecName, p.dir);
}

int AdoptRun::run(Session& s) {
  options.name = tree_branch_name(dir, options.name);
  auto lock = lock_tree(dir, s.err, write);  // before the tree is read: another --write may be writing it
  AdoptSink sink{[&](const lint::Problem& f) { s.err << f.render(); }, [&](const std::string& w) { s.warn(w); }};
  AdoptionPlan p = plan_adoption(dir, s.tree().files(), options, s.facts(), sink);
  if (!json) print_lines(s, p);
  if (std::string refused = adoption_refusals(p, write); !refused.empty()) {
    s.err << refused;
    return kExitProblems;
  }
  if (!json) print_summary(s, p, write);
  int done = p.contradicting.empty() || options.fix_calls ? kExitOk : kExitProblems;
  if (!write) {
    s.out << (json ? json_text(adoption_json(p, write, false)) + "\n" : "dry run: nothing written; --write does it\n");
    return done;
  }
  if (int sig = write_adoption(p)) {  // cut short between files: no spec yet
    s.warn(fmt::format(
        "interrupted by {}: the spec is not written; run `tailor adopt {} --write` again to finish the tree",
        signal_name(sig), dir));
    return 128 + sig;
  }
  s.out << (json ? json_text(adoption_json(p, write, true)) + "\n"
                 : fmt::format("wrote {} files, removed {}; `tailor generate {} -o .` keeps the tree from now on\n",
                               p.written(), p.impossible.size(), kAdoptSpecName));
  return done;
}

}  // namespace

std::unique_ptr<CommandRun> make_adopt() { return std::make_unique<AdoptRun>(); }

}  // namespace tailor
