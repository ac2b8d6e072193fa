#pragma once
/// The state file of `tailor build` (LOGDIR/state.json): what each variant's
/// last build gave, with the inputs that determined its derivation, so that a
/// rerun reuses a result only while its recipe, pin, builders and the
/// variants it builds against are unchanged, and says why it rebuilds one.
///
/// Format 2: {"format": 2, "builds": {NAME: {"status", "result", "verdict",
/// "verify_message", "seconds", "inputs": {"recipe", "pin", "builders",
/// "needs"}}}}. Format 1 (tailor 0.1) held the records at the top level,
/// keyed on the name only: they are read, but never reused.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "runner/build_status.hpp"

namespace tailor {

inline constexpr int kBuildStateFormat = 2;

/// What determines a variant's derivation: hashes of its recipe file and of
/// the shared builder files, the nixpkgs pin, and a hash of the inputs of the
/// variants it builds against.
struct DerivationInputs {
  std::string recipe, pin, builders, needs;

  bool empty() const { return recipe.empty(); }
  /// One hash of all four (what dependents fold into their `needs`).
  std::string key() const;
  bool operator==(const DerivationInputs&) const = default;
};

struct BuildRecord {
  std::optional<BuildStatus> status;  ///< succeeded, failed or interrupted; none: unreadable
  std::string result;
  Verdict verdict = Verdict::none;
  std::string verify_message;
  double seconds = 0;
  DerivationInputs inputs;  ///< empty: a format-1 record
};

struct BuildState {
  std::map<std::string, BuildRecord> builds;
  std::string note;  ///< why earlier records cannot be trusted (unreadable, newer format); empty if none
};

/// Reads \a path; a missing file is an empty state, a damaged or newer one an
/// empty state with a note (it only costs rebuilds).
BuildState read_build_state(const std::filesystem::path& path);

/// Writes \a state atomically in format kBuildStateFormat.
void write_build_state(const std::filesystem::path& path, const BuildState& state);

inline constexpr std::string_view kNotBuiltBefore = "not built before";

/// Whether \a earlier (null: none) stands for a build of \a now: empty when it
/// does, else why the variant is built (again).
std::string rebuild_reason(const BuildRecord* earlier, const DerivationInputs& now);

}  // namespace tailor
