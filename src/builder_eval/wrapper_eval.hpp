#pragma once
/// Every wrapper of a tree that keeps its own builder, evaluated through that
/// builder by the real nix-instantiate (data/builder_eval/probe.nix): nixpkgs
/// is the stand-in tailor ships (data/builder_eval/nixpkgs.nix) or the user's
/// checkout, other repositories' recipes stand-ins; nothing is fetched. The
/// wrappers of a folder go through one evaluation; one that fails is reported
/// and the evaluation goes on after it, so a tree costs one process per failure
/// and one more.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "builder_eval/missing_entry.hpp"
#include "builder_eval/nix_error.hpp"
#include "util/process.hpp"

namespace tailor::builder_eval {

struct WrapperFailure {
  std::string wrapper;  ///< relative to the root; empty: the evaluation stopped before any wrapper
  NixError error;       ///< the builder's error, its file relative to the root where it lies under it
  std::optional<MissingEntry> lacks;
  /// When an entry is missing: the wrapper's arguments whose values make it up
  /// ("tvVersion = \"0.27\""), and the wrappers passing the same, left
  /// unevaluated (they reach the same lookup; one process each would be slow).
  std::string shared;
  std::vector<std::string> alike;
};

struct EvalOptions {
  /// A nixpkgs checkout to evaluate against; empty: the stand-in.
  std::string nixpkgs;
  /// Failures after which the rest is left unevaluated (each costs a process).
  size_t max_failures = 50;
};

struct WrapperEval {
  size_t wrappers = 0;   ///< asked for
  size_t evaluated = 0;  ///< that evaluated
  /// Functions of the package set (`{ callPackage, … }:`, a required argument): the caller's to evaluate.
  size_t skipped = 0;
  std::vector<WrapperFailure> failures;
  size_t not_evaluated = 0;  ///< left after max_failures, or alike a failure
};

/// Thrown when nix-instantiate cannot be run: the caller reports it (exit 3).
struct NoNix {
  std::string why;
};

/// Evaluates \a wrappers (paths relative to \a root, e.g. ".flox/pkgs/x.nix").
/// Throws NoNix when nix-instantiate is not on PATH.
WrapperEval evaluate_wrappers(const std::filesystem::path& root, const std::vector<std::string>& wrappers,
                              const EvalOptions& options = {}, Processes& processes = system_processes());

}  // namespace tailor::builder_eval
