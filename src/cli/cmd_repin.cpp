// tailor repin DIR --rev REV [--sha256 HASH] [--python-set SET] [-o OUT]
// [--dry-run] [--all-pins] [--nixpkgs PATH] [--json], or --rewrite-spec SPEC.toml: move a
// hand-written tree (or a spec) to another nixpkgs pin with minimal edits.
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "lint/linter.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec_loader.hpp"
#include "repin/nix_eval.hpp"
#include "repin/repin.hpp"
#include "repin/spec_repin.hpp"
#include "repin/summary.hpp"
#include "repin/tree_write.hpp"
#include "util/exit_status.hpp"
#include "util/find_program.hpp"
#include "util/json_text.hpp"
#include "util/read_file.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::ordered_json;

// --json: the edits of each changed file.
Json changes_json(const std::vector<repin::FileChange>& changes) {
  Json out = Json::array();
  for (const auto& f : changes) {
    Json edits = Json::array();
    for (const auto& c : f.changes)
      edits.push_back({{"what", c.what}, {"line", c.line}, {"column", c.column}, {"from", c.from}, {"to", c.to}});
    out.push_back({{"file", f.rel}, {"changes", edits}});
  }
  return out;
}

// --json: what both inputs share (the report's first fields).
Json report_start(const std::string& input, const std::string& path, const repin::RepinPlan& plan, bool dry_run) {
  return {{"input", input},
          {"path", path},
          {"rev", plan.target.rev},
          {"known_pin", plan.target.known != nullptr},
          {"python_set", plan.python ? Json(plan.python->set) : Json(nullptr)},
          {"dry_run", dry_run},
          {"changes", changes_json(plan.changes)},
          {"knowledge", plan.knowledge}};
}

// "2 errors, 1 warning" / "nothing".
std::string plural_findings(const lint::CheckResult& r) {
  if (r.errors + r.warnings == 0) return "nothing";
  return fmt::format("{} error{}, {} warning{}", r.errors, r.errors == 1 ? "" : "s", r.warnings,
                     r.warnings == 1 ? "" : "s");
}

int refuse(CommandContext& ctx, std::string path, std::string message, std::string hint, int status) {
  Diagnostic d;
  d.path = std::move(path);
  d.message = std::move(message);
  d.hint = std::move(hint);
  ctx.err << d.render();
  return status;
}

/// The package set the tree's recipes use most (for the evaluation when --python-set is not given).
std::string tree_python_set(const std::vector<recipe::SourceFile>& files) {
  static const std::regex re(R"(\bpython3\d*Packages\b)");
  std::map<std::string, int> n;
  for (const auto& f : files)
    if (f.rel.ends_with(".nix"))
      for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), re); it != std::sregex_iterator(); ++it)
        n[it->str()]++;
  std::string best = "python3Packages";
  int most = 0;
  for (const auto& [s, c] : n)
    if (c > most) best = s, most = c;
  return best;
}

/// The post-move check (evaluate the pin's torch version) on a local nixpkgs; returns false when the result contradicts
/// the move. \a attribute: the headline package's (packages.toml), whose version the pin's names and docs promise.
bool evaluate(CommandContext& ctx, const std::string& nixpkgs, const std::string& set, const std::string& cuda,
              const std::string& attribute, const repin::TargetPin& target, std::vector<std::string>& verify,
              Json& report) {
  repin::TorchEval e = repin::eval_torch_version(nixpkgs, set, attribute, cuda);
  report["evaluation"] = {{"expr", e.expr}, {"ok", e.ok}, {"version", e.version}, {"error", e.error}};
  ctx.out << "nix-instantiate --eval: " << e.expr << "\n";
  if (auto rev = repin::checkout_rev(nixpkgs); rev && *rev != target.rev)
    verify.push_back(fmt::format("{} is a checkout of {}, not of the new pin {}: the evaluation describes that commit",
                                 nixpkgs, rev->substr(0, 7), target.rev.substr(0, 7)));
  if (!e.ok) {
    ctx.out << fmt::format("  failed: {}\n", e.error);
    verify.push_back(fmt::format("{}.{} does not evaluate on the new pin: {}", set, attribute, e.error));
    return false;
  }
  if (!target.known) {
    ctx.out << fmt::format("  = \"{}\" (the knowledge base does not know this pin)\n", e.version);
    return true;
  }
  std::string want = target.known->version_text(attribute);
  auto is = [&](const std::string& v) {
    return e.version.starts_with(v) &&
           (e.version.size() == v.size() || !std::isdigit(static_cast<unsigned char>(e.version[v.size()])));
  };
  bool same = is(want);
  if (const FactEvidence* d = target.known->version_dispute(attribute))  // one source's value is no contradiction
    for (const auto& c : d->claims) same = same || is(c.value);
  ctx.out << fmt::format("  = \"{}\" (knowledge base: {}{})\n", e.version, want, same ? "" : ", DIFFERENT");
  if (target.known->version_dispute(attribute))  // a measurement settles what the sources dispute: record it
    verify.push_back(
        fmt::format("{}.torch.version measured {} on {}: record it so the knowledge base no longer "
                    "disputes it: {}",
                    set, e.version, target.known->short_rev, probe_pin_command(*target.known)));
  if (!same)
    verify.push_back(
        fmt::format("{}.torch.version is {} on {}, but the knowledge base says {} ships {}: check the "
                    "checkout and the knowledge base",
                    set, e.version, nixpkgs, target.known->short_rev, want));
  return same;
}

int repin_spec(CommandContext& ctx, const std::string& spec, const repin::RepinOptions& o, const KnowledgeBase& kb,
               const std::string& out, bool dry_run, Json& report) {
  std::string text = read_text_file(spec, "spec");
  repin::SpecRepinPlan p = repin::plan_spec_repin(spec, text, o, kb);
  repin::RepinPlan view;  // reuse the tree renderers on the one file
  view.root = spec;
  view.target = repin::parse_rev(o.rev, kb);
  if (o.python_set) view.python = repin::parse_python_set(*o.python_set);
  for (const auto& [s, n] : p.old_pins) view.old_pins[s] = n;
  view.knowledge = p.knowledge;
  view.before = {{spec, p.before}};
  view.after = {{spec, p.after}};
  if (!p.change.edits.empty()) {
    p.change.rel = spec;
    view.changes.push_back(p.change);
  }
  if (dry_run) ctx.out << repin::render_diff(view);
  ctx.out << repin::render_changes(view);
  // The spec's own check: it still loads and expands.
  size_t was = expand(load_spec(spec, p.before, kb), kb).variants.size();
  size_t now = expand(load_spec(spec, p.after, kb), kb).variants.size();
  ctx.out << fmt::format("tailor matrix on the result: {} variants (before: {})\n", now, was);
  ctx.out << repin::render_verify(p.verify);
  report = report_start("spec", spec, view, dry_run);
  report["matrix"] = {{"variants", now}, {"variants_before", was}};
  report["verify"] = p.verify;
  report["wrote"] = nullptr;
  if (dry_run) {
    ctx.out << "dry run: nothing written\n";
  } else if (!out.empty()) {
    std::error_code ec;
    if (fs::exists(out, ec)) {
      Diagnostic d;
      d.path = out;
      d.message = "repin: the output exists";
      d.hint = "-o names a new file";
      ctx.err << d.render();
      return kExitBadInput;
    }
    repin::write_in_place(fs::path(out).parent_path().empty() ? fs::path(".") : fs::path(out).parent_path(),
                          {{fs::path(out).filename().string(), p.after}});
    ctx.out << fmt::format("wrote {}\n", out);
    report["wrote"] = out;
  } else if (!view.changes.empty()) {
    fs::path path(spec);
    repin::write_in_place(path.parent_path().empty() ? fs::path(".") : path.parent_path(),
                          {{path.filename().string(), p.after}});
    ctx.out << fmt::format("rewrote {}\n", spec);
    report["wrote"] = spec;
  }
  return kExitOk;
}

struct RepinArgs {
  std::string dir, spec, old_spec, out, nixpkgs, branch;
  std::string rev, sha256, python_set;
  bool dry_run = false, all_pins = false, json = false;
  std::string from;  // --from OLD
};

void add_repin_options(CLI::App& app, RepinArgs& a) {
  app.add_option("DIR", a.dir, "the tree: a branch checkout or .flox/pkgs (README.md / BUILD_MATRIX.md at its root)");
  app.add_option("--rev", a.rev, "the new nixpkgs revision: 40 hex digits, or a short form the knowledge base knows")
      ->required();
  app.add_option("--sha256", a.sha256,
                 "the new tarball's hash (nix-prefetch-url --unpack URL): nix-base32, hex or SRI");
  app.add_option("--python-set", a.python_set,
                 "move every package set / interpreter name to this set, e.g. python313Packages (python3.pkgs "
                 "becomes python313.pkgs)");
  app.add_option("-o,--output", a.out, "write a repinned copy of the tree to OUT (new or empty) instead of in place")
      ->check(nonempty_check());
  app.add_flag("--dry-run", a.dry_run, "print the edits as a unified diff (-U0) and the summary; write nothing");
  app.add_flag("--all-pins", a.all_pins, "the tree has several pins (TLR004): move all of them");
  app.add_option("--from", a.from,
                 "move only this pin (short or full revision) of several, in a tree or a spec; the others stay")
      ->type_name("OLD");
  app.add_option("--branch", a.branch,
                 "the tree's own branch: doc rows naming other branches stay as written (default: the branch the "
                 "README marks as this one)");
  app.add_option("--nixpkgs", a.nixpkgs,
                 "a local nixpkgs checkout of the new pin: evaluate SET.torch.version there with nix-instantiate")
      ->type_name("PATH");
  app.add_option("--rewrite-spec", a.spec,
                 "move this matrix spec (TOML) instead of a tree: its pin, python, and torch if it was the old pin's")
      ->type_name("SPEC.toml");
  // The old spelling: elsewhere --spec names the spec a command reads, here it
  // named the file to rewrite. Hidden; cmd_repin warns when it is used.
  app.add_option("--spec", a.old_spec)->group("");
  app.add_flag("--json", a.json,
               "print the edits, the check of the result and what is left to verify as one JSON object");
}

// --nixpkgs exists, and nix-instantiate with it; an exit status when not.
std::optional<int> check_nixpkgs(CommandContext& ctx, const RepinArgs& a) {
  std::error_code ec;
  if (a.nixpkgs.empty()) return std::nullopt;
  if (!fs::is_directory(a.nixpkgs, ec))
    return refuse(ctx, a.nixpkgs, "repin: --nixpkgs is not a directory",
                  "a local checkout of nixpkgs at the new revision (git worktree add PATH REV)", kExitBadInput);
  if (find_program("nix-instantiate").empty())
    return refuse(ctx, "", "repin: --nixpkgs needs nix-instantiate, which is not on PATH",
                  "install Nix (Debian: nix-bin), or drop --nixpkgs and verify the torch version yourself",
                  kExitMissingEnv);
  return std::nullopt;
}

// What is left to verify; evaluates the torch version with --nixpkgs. False: the evaluation disagrees.
bool verify_notes(CommandContext& ctx, const RepinArgs& a, const repin::RepinPlan& plan, const KnowledgeBase& kb,
                  std::vector<std::string>& verify, Json& report) {
  if (a.nixpkgs.empty() && plan.changes.empty()) return true;
  std::string set = plan.python ? plan.python->set : tree_python_set(plan.after);
  if (!a.nixpkgs.empty())
    return evaluate(ctx, a.nixpkgs, set, plan.cuda, kb.headline_package().attribute, plan.target, verify, report);
  verify.push_back(
      fmt::format("that {}.torch on {} is the PyTorch the names and docs promise: rerun with "
                  "--nixpkgs PATH (a checkout of the pin), or build one variant and print "
                  "torch.__version__",
                  set, plan.target.rev.substr(0, 7)));
  return true;
}

void write_tree_result(CommandContext& ctx, const RepinArgs& a, const repin::RepinPlan& plan, Json& report) {
  std::vector<recipe::SourceFile> changed;
  for (const auto& c : plan.changes)
    for (const auto& f : plan.after)
      if (f.rel == c.rel) changed.push_back(f);
  if (a.dry_run) {
    ctx.out << "dry run: nothing written\n";
  } else if (!a.out.empty()) {
    repin::write_copy(a.dir, a.out, changed);
    report["wrote"] = a.out;
    ctx.out << fmt::format("wrote {} ({} file{} changed)\n", a.out, changed.size(), changed.size() == 1 ? "" : "s");
  } else if (!changed.empty()) {
    repin::write_in_place(a.dir, changed);
    report["wrote"] = a.dir;
    ctx.out << fmt::format("rewrote {} file{} in place\n", changed.size(), changed.size() == 1 ? "" : "s");
  }
}

int repin_tree(CommandContext& ctx, const RepinArgs& a, repin::RepinOptions o, const KnowledgeBase& kb, InputTree& tree,
               Json& report) {
  if (auto rc = check_nixpkgs(ctx, a)) return *rc;
  if (!a.out.empty() && !a.dry_run) {
    repin::check_output_dir(a.dir, a.out);
    o.output_root = a.out;
  }
  std::vector<recipe::SourceFile> files = tree.files();
  for (auto& f : files)  // Flox manifests and other TOML: check reads only .nix and the docs
    if (f.rel.ends_with(".toml")) f.text = read_file(fs::path(a.dir) / f.rel);
  repin::RepinPlan plan = repin::plan_repin(a.dir, std::move(files), o, kb);
  const std::string shown_root = a.out.empty() || a.dry_run ? a.dir : a.out;
  if (a.dry_run) ctx.out << repin::render_diff(plan);
  ctx.out << repin::render_changes(plan);

  for (const auto& o : plan.other_branches) ctx.out << o << "\n";
  lint::CheckResult before = lint::check_files(a.dir, plan.before, kb);
  lint::CheckResult after = lint::check_files(shown_root, plan.after, kb);
  // What repin introduced, apart from what the tree already had (a finding of the same rule on the same line).
  lint::CheckResult introduced = lint::findings_not_in(after, before);
  int had_errors = after.errors - introduced.errors, had_warnings = after.warnings - introduced.warnings;
  ctx.out << fmt::format(
      "tailor check on the result: {} introduced by repin (the tree had {} error{}, {} warning{} "
      "before; {} of them remain{}):\n",
      plural_findings(introduced), before.errors, before.errors == 1 ? "" : "s", before.warnings,
      before.warnings == 1 ? "" : "s", had_errors + had_warnings,
      had_errors + had_warnings > 0 ? fmt::format(", not shown: tailor check {}", shown_root) : "");
  ctx.out << lint::render_text(introduced);
  report = report_start("tree", a.dir, plan, a.dry_run);
  report["other_branches"] = plan.other_branches;
  report["check"] = {{"errors", after.errors},
                     {"warnings", after.warnings},
                     {"errors_before", before.errors},
                     {"warnings_before", before.warnings},
                     {"errors_introduced", introduced.errors},
                     {"warnings_introduced", introduced.warnings}};
  report["evaluation"] = nullptr;

  std::vector<std::string> verify = plan.verify;
  bool eval_ok = verify_notes(ctx, a, plan, kb, verify, report);
  ctx.out << repin::render_verify(verify);
  report["verify"] = verify;
  report["wrote"] = nullptr;
  write_tree_result(ctx, a, plan, report);
  return introduced.errors > 0 || !eval_ok ? kExitProblems : kExitOk;
}

struct RepinRun final : CommandRun {
  RepinArgs a;
  repin::RepinOptions o;
  CLI::App* app = nullptr;

  void define(CLI::App& app) override {
    this->app = &app;
    app.description(
        "Move a hand-written recipe tree (or, with --rewrite-spec, a matrix spec) to another nixpkgs pin and Python "
        "package set. Only the revision, hash and package-set tokens change; comments and formatting stay "
        "byte for byte. The docs' version/pin tables follow, `tailor check` runs on the result, and a "
        "summary says what is left to verify.\n\n"
        "Hashes: a tarball hash belongs to one revision. With --sha256 (or a hash the knowledge base knows) "
        "it is written beside every moved pin, added where a fetchTarball / fetchFromGitHub had none. "
        "Without one, an old hash is replaced by the fake hash of its format (lib.fakeSha256's 52 zeros, or "
        "lib.fakeHash's sha256-AAAA…=): the fetch then fails with 'hash mismatch' and prints the hash to fill "
        "in, instead of evaluating against a hash that cannot be right. A pin written without a hash stays "
        "without one (tailor check warns TLR005).\n\n"
        "Exit status: 0 done (errors the tree already had do not count); 1 done, but check reports errors repin "
        "introduced or the --nixpkgs evaluation disagrees; 2 bad input (nothing written); 3 --nixpkgs without "
        "nix-instantiate.");
    add_repin_options(app, a);
  }
  void validate() override;
  void resolve(Session& s) override;
  Input input() override;
  int run(Session& s) override;
};

// The options as repin reads them.
void RepinRun::validate() {
  o.rev = a.rev;
  if (app->count("--sha256")) o.sha256 = a.sha256;
  if (app->count("--python-set")) o.python_set = a.python_set;
  o.all_pins = a.all_pins;
  o.from = a.from;
  o.branch = a.branch;
}

// The arguments, before anything is read.
void RepinRun::resolve(Session& s) {
  if (!a.old_spec.empty()) {
    s.warn("repin --spec is deprecated: it is now --rewrite-spec SPEC.toml");
    if (a.spec.empty()) a.spec = a.old_spec;
  }
  if (a.spec.empty() == a.dir.empty())
    usage_error(a.spec.empty() ? "repin: a tree DIR (or --rewrite-spec SPEC.toml) is required"
                               : "repin: give either a tree DIR or --rewrite-spec SPEC.toml, not both",
                "tailor repin DIR --rev REV [--python-set python313Packages] [-o OUT]");
  const KnowledgeBase& kb = s.facts();
  // Arguments first: a bad one stops the run before anything is read.
  repin::parse_rev(a.rev, kb);
  if (o.sha256) repin::parse_sha256(*o.sha256);
  if (o.python_set) repin::parse_python_set(*o.python_set);
  if (!a.spec.empty() && !a.nixpkgs.empty())
    usage_error("repin: --nixpkgs applies to trees, not to --rewrite-spec", "drop --nixpkgs");
}

// The tree, unless a spec moves; a spec given where the tree goes: the hint names the option.
Input RepinRun::input() {
  if (!a.spec.empty()) return {};
  std::error_code ec;
  bool spec_file = fs::is_regular_file(a.dir, ec) && a.dir.ends_with(".toml");
  return {a.dir, "repin: not a directory",
          spec_file ? "to move a matrix spec: tailor repin --rewrite-spec SPEC.toml --rev REV"
                    : "tailor repin DIR --rev REV: DIR is a recipe tree (a branch checkout or .flox/pkgs)"};
}

int RepinRun::run(Session& s) {
  const KnowledgeBase& kb = s.facts();
  // --json: the text report goes nowhere; the facts it shows are collected.
  std::ostringstream discarded;
  CommandContext text{{}, a.json ? discarded : s.out, s.err};
  Json report;
  // An adopted tree (its tailor.toml has a [layout]): the pins live in the spec, and the
  // tables the builder reads are written from it; the spec moves, generate writes the rest.
  std::string adopted = a.dir.empty() ? "" : (fs::path(a.dir) / "tailor.toml").string();
  std::error_code ec;
  bool layout = !adopted.empty() && a.out.empty() && fs::is_regular_file(adopted, ec) &&
                read_text_file(adopted, "spec").find("\n[layout]\n") != std::string::npos;
  int status = layout           ? repin_spec(text, adopted, o, kb, "", a.dry_run, report)
               : a.spec.empty() ? repin_tree(text, a, o, kb, s.tree(), report)
                                : repin_spec(text, a.spec, o, kb, a.out, a.dry_run, report);
  if (layout && status == kExitOk)
    text.out << fmt::format(
        "the tree keeps its builder: `tailor generate {} -o {}` writes the tables and wrappers the moved pins "
        "reach\n",
        adopted, a.dir);
  if (a.json && !report.is_null()) s.out << json_text(report);  // refused: no report
  return status;
}

}  // namespace

std::unique_ptr<CommandRun> make_repin() { return std::make_unique<RepinRun>(); }

}  // namespace tailor
