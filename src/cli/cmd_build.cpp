// tailor build SPEC [NAME|GLOB...]: generate the tree, then build the selected
// variants (and what they build against) with flox or nix, resumably.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "generate/branch_tree.hpp"
#include "generate/tree_write.hpp"
#include "matrix/spec_loader.hpp"
#include "runner/build_plan.hpp"
#include "runner/build_runner.hpp"
#include "util/exit_status.hpp"
#include "util/find_program.hpp"
#include "util/json_text.hpp"
#include "util/temp_files.hpp"
#include "util/text_table.hpp"

namespace tailor {

namespace {

// The tailor that judges results with `tailor verify`: this binary when it is
// tailor, else one on PATH (tests run the CLI inside the test binary).
std::string verifier() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && p.filename() == "tailor") return p.string();
  return !find_program("tailor").empty() ? "tailor" : "";
}

struct BuildRun final : CommandRun {
  SpecArg spec_arg;
  std::string spec_name, tool;
  std::vector<std::string> patterns;
  BuildOptions o;
  bool dry_run = false, json = false, no_verify = false;
  std::string progress_mode = "auto";
  double memory_gb = -1;

  void define(CLI::App& app) override;
  std::vector<std::string> specs() override {
    return {spec_name = chosen_spec_with_names(spec_arg, patterns, "build")};
  }
  int run(Session& s) override;

  // The steps of a run, in order.
  std::string choose_tool_and_memory();
  int print_plan(Session& s, const Spec& spec, const std::vector<PlannedBuild>& plan,
                 const std::string& memory_text) const;
  int update_tree(Session& s, const Expanded& e, std::vector<PlannedBuild>& plan) const;
  bool report(Session& s, const std::vector<BuildOutcome>& results) const;
};

void BuildRun::define(CLI::App& app) {
  app.description("Build variants of a spec with flox or nix.");
  o.tree = "out";
  add_spec_arg(app, spec_arg, "spec file or built-in spec (required; with --spec, every positional is a NAME)");
  app.add_option("NAME", patterns, "variant names or shell globs (default: every variant)");
  app.add_option("--tree", o.tree, "where the recipe tree is generated (default: out)");
  app.add_option("--tool", tool, "nix or flox (default: flox when on PATH, else nix)")
      ->check(CLI::IsMember({"nix", "flox"}));
  app.add_flag("--dry-run", dry_run, "print the plan, run nothing");
  app.add_option("-j,--jobs", o.jobs, "builds at a time (default: 1); --memory bounds those on this machine")
      ->check(positive_whole_number());
  app.add_option("--memory", memory_gb, "GB the local builds may use together (default: MemAvailable; 0: no bound)")
      ->check(non_negative_number());
  app.add_option("--builders", o.builders,
                 "remote builders, passed to nix --builders (see tailor builders); CUDA builds then run there only");
  app.add_flag("--keep-going", o.keep_going, "go on with independent builds after a failure");
  app.add_flag("--rebuild", o.rebuild, "build again what succeeded in an earlier run");
  app.add_option("--log-dir", o.log_dir, "one log per variant and state.json (default: TREE/.tailor-build)");
  app.add_flag("--json", json, "print the final report as JSON");
  app.add_flag("--no-verify", no_verify, "do not run tailor verify on the results (their verdicts are 'not run')");
  app.add_option("--progress", progress_mode, "auto (tty when stderr is a terminal), tty or plain (one line per event)")
      ->check(CLI::IsMember({"auto", "tty", "plain"}));
}

// The tool, the log folder and the memory bound; returns the bound in words.
std::string BuildRun::choose_tool_and_memory() {
  if (o.log_dir.empty()) o.log_dir = (std::filesystem::path(o.tree) / ".tailor-build").string();
  o.tool = !tool.empty() ? tool : !find_program("flox").empty() ? "flox" : "nix";
  bool measured = memory_gb < 0;
  o.memory_gb = measured ? available_memory_gb() : memory_gb;
  return o.memory_gb > 0
             ? fmt::format("local builds within {:.0f} GB{}", o.memory_gb, measured ? " (MemAvailable)" : "")
             : "no memory bound";
}

int BuildRun::print_plan(Session& s, const Spec& spec, const std::vector<PlannedBuild>& plan,
                         const std::string& memory_text) const {
  s.out << fmt::format("plan for {}: {} build{} with {}, {} at a time, {}{}\n\n", spec.path, plan.size(),
                       plan.size() == 1 ? "" : "s", o.tool, o.jobs, memory_text,
                       o.builders.empty() ? "" : "; remote builders: " + o.builders);
  TextTable t({"#", "variant", "needs", "why", "where", "command"});
  for (size_t i = 0; i < plan.size(); ++i) {
    std::string cmd;
    for (const auto& e : build_environment(o, plan[i])) cmd += "'" + e + "' ";
    for (const auto& a : build_command(o, plan[i])) cmd += (cmd.empty() || cmd.ends_with(' ') ? "" : " ") + a;
    std::string where =
        builds_remotely(o, plan[i]) ? "remote (big-parallel)" : fmt::format("local, {:.0f} GB", plan[i].memory_gb);
    t.add_row({std::to_string(i + 1), plan[i].name,
               plan[i].needs.empty() ? "-" : fmt::format("{}", fmt::join(plan[i].needs, ", ")),
               plan[i].selected ? "selected" : "needed", where, cmd});
  }
  s.out << t.render();
  return kExitOk;
}

// Build exactly what the spec says: bring the tree up to date first, under
// generate's policy without --force (an edited file stops the build).
int BuildRun::update_tree(Session& s, const Expanded& e, std::vector<PlannedBuild>& plan) const {
  std::vector<GeneratedFile> files = branch_tree(e.spec, e.matrix, s.facts());
  auto lock = lock_tree(o.tree, s.err, true);
  std::vector<PlannedChange> changes = plan_tree(o.tree, files);
  WritePolicy policy;
  if (auto refused = refused_changes(changes, policy); !refused.empty()) {
    Diagnostic d = refusal(o.tree, *refused.front(), "the tree differs from the spec");
    d.hint = "'tailor generate --force' overwrites it, or build from another --tree";
    s.err << d.render();
    return kExitProblems;
  }
  write_tree(o.tree, files, changes, policy);
  key_builds(plan, e.matrix, files);
  return kExitOk;
}

// The table (or JSON) of outcomes; whether every build succeeded and verified.
bool BuildRun::report(Session& s, const std::vector<BuildOutcome>& results) const {
  bool all_ok = true;
  // A result that does not hold what its variant promises is a failure too.
  for (const auto& r : results)
    all_ok = all_ok && has_result(r.status) && r.verdict != Verdict::failed && r.verdict != Verdict::error;
  if (json) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& r : results)
      j.push_back({{"name", r.name},
                   {"status", name_of(r.status)},
                   {"why", r.why},
                   {"seconds", r.seconds},
                   {"result", r.result},
                   {"verify", name_of(r.verdict)},
                   {"verify_message", r.verify_message},
                   {"log", r.log}});
    s.out << json_text(nlohmann::ordered_json{{"ok", all_ok}, {"builds", j}});
    return all_ok;
  }
  TextTable t({"variant", "status", "time", "result", "verify", "log"});
  for (const auto& r : results)
    t.add_row({r.name, std::string(name_of(r.status)), fmt::format("{:.1f}s", r.seconds),
               r.result.empty() ? "-" : r.result, r.verdict == Verdict::none ? "-" : std::string(name_of(r.verdict)),
               r.log});
  s.out << t.render();
  // What verify said, under the table: the reason a verdict is not ok.
  for (const auto& r : results)
    if (!r.verify_message.empty())
      s.out << fmt::format("{}: verify: {}: {}\n", r.name, name_of(r.verdict), r.verify_message);
  return all_ok;
}

int BuildRun::run(Session& s) {
  Expanded& e = s.matrix(spec_name);
  std::vector<PlannedBuild> plan = plan_builds(e.spec, e.matrix, s.facts(), patterns);
  std::string memory_text = choose_tool_and_memory();
  if (dry_run) return print_plan(s, e.spec, plan, memory_text);
  if (find_program(o.tool).empty()) {
    Diagnostic d;
    d.message = fmt::format("{} is not on PATH: tailor build runs flox or nix", o.tool);
    d.hint = "install Nix (Debian: nix-bin) or Flox, or use --dry-run to see the plan";
    s.err << d.render();
    return kExitMissingEnv;
  }
  if (int rc = update_tree(s, e, plan)) return rc;
  if (!no_verify) o.verifier = verifier();
  // Progress goes to stderr; only the real one can be a terminal.
  int err_fd = &s.err == &std::cerr ? 2 : -1;
  o.progress = choose_progress(progress_mode, err_fd);
  o.width = terminal_width(err_fd);
  bool all_ok = report(s, run_builds(plan, o, s.err));
  // Interrupted: the builds were stopped and recorded; exit as the shell expects of a signal.
  if (int sig = interrupting_signal()) return 128 + sig;
  return all_ok ? kExitOk : kExitProblems;
}

}  // namespace

std::unique_ptr<CommandRun> make_build() { return std::make_unique<BuildRun>(); }

}  // namespace tailor
