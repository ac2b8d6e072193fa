#pragma once
/// Runs a build plan with `nix build` or `flox build`: a bounded number of
/// builds at a time, dependencies before dependents, one log file per
/// variant, a state file that makes a rerun resume, and a verdict from
/// `tailor verify` for each result.

#include <iosfwd>
#include <string>
#include <vector>

#include "build/build_plan.hpp"

namespace tailor {

struct BuildOptions {
  std::string tool = "nix";  ///< "nix" or "flox" (the program run, found on PATH)
  std::string tree;          ///< the generated tree (its .flox/pkgs/<name>.nix are built)
  std::string log_dir;       ///< one <name>.log per variant, and state.json
  int jobs = 1;              ///< builds at a time on this machine
  std::string builders;      ///< passed through as nix --builders
  bool keep_going = false;   ///< start independent builds after a failure
  bool rebuild = false;      ///< ignore earlier successes in the state file
  std::string verifier;      ///< tailor binary to run `verify` with; empty: no verdict
};

struct BuildOutcome {
  std::string name;
  std::string status;  ///< succeeded, reused (earlier run), failed, blocked (a need failed), not-started
  std::string result;  ///< the out-link's target, for successes
  std::string log;
  double seconds = 0;
  std::string verdict;  ///< ok, FAILED, not run
};

/// The argument vector for building \a name (exposed for tests and --dry-run).
std::vector<std::string> build_command(const BuildOptions& o, const std::string& name);

/// Runs \a plan; progress lines go to \a progress.
std::vector<BuildOutcome> run_builds(const std::vector<PlannedBuild>& plan, const BuildOptions& o, std::ostream& progress);

}  // namespace tailor
