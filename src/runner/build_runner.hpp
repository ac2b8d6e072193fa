#pragma once
/// Runs a build plan with `nix build` or `flox build`: a bounded number of
/// builds at a time, dependencies before dependents, one log file per
/// variant, a state file that makes a rerun resume, and a verdict from
/// `tailor verify` for each result.

#include <iosfwd>
#include <string>
#include <vector>

#include "runner/build_plan.hpp"
#include "runner/build_progress.hpp"
#include "util/process.hpp"

#include "runner/build_status.hpp"

namespace tailor {

struct BuildOptions {
  std::string tool = "nix";  ///< "nix" or "flox" (the program run, found on PATH)
  std::string tree;          ///< the generated tree (its .flox/pkgs/<name>.nix are built)
  std::string log_dir;       ///< one <name>.log per variant, and state.json
  int jobs = 1;              ///< builds at a time on this machine
  double memory_gb = 0;      ///< memory the local builds may use together (0: no bound)
  std::string builders;      ///< passed through as nix --builders
  bool keep_going = false;   ///< start independent builds after a failure
  bool rebuild = false;      ///< ignore earlier successes in the state file
  std::string verifier;      ///< tailor binary to run `verify` with; empty: no verdict
  ProgressStyle progress = ProgressStyle::plain;
  int width = 80;  ///< terminal columns, for the tty status line
};

struct BuildOutcome {
  std::string name;
  BuildStatus status = BuildStatus::pending;  ///< reused: an earlier run's; blocked: a need failed
  std::string result;                         ///< the out-link's target, for successes
  std::string log;
  double seconds = 0;
  Verdict verdict = Verdict::none;  ///< error: verify could not judge it
  std::string verify_message;       ///< what verify said for FAILED and error verdicts
  std::string why;                  ///< why it was built rather than reused (empty when reused)
};

/// The argument vector for building \a b (exposed for tests and --dry-run).
/// With remote builders a heavy build gets `--max-jobs 0`: Nix then builds
/// nothing of it locally and sends its big-parallel derivations to builders
/// that declare the feature.
std::vector<std::string> build_command(const BuildOptions& o, const PlannedBuild& b);

/// Extra environment for the build: flox takes remote builders through
/// NIX_CONFIG, having no --builders of its own. Entries are NAME=VALUE.
std::vector<std::string> build_environment(const BuildOptions& o, const PlannedBuild& b);

/// True when \a b runs on remote builders rather than this machine.
bool builds_remotely(const BuildOptions& o, const PlannedBuild& b);

/// MemAvailable from a /proc/meminfo-format file, in GB (GiB); 0 if unreadable.
double available_memory_gb(const std::string& meminfo = "/proc/meminfo");

/// Runs \a plan with \a processes; progress (in o.progress's style) goes to \a progress.
std::vector<BuildOutcome> run_builds(const std::vector<PlannedBuild>& plan, const BuildOptions& o,
                                     std::ostream& progress, Processes& processes = system_processes());

}  // namespace tailor
