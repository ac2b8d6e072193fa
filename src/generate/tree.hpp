#pragma once
/// Writing a generated tree safely: plan every change first, refuse to
/// overwrite files a human edited, then write each file atomically (temp file
/// and rename). A run that changes nothing writes nothing.

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "util/enum_names.hpp"

namespace tailor {

struct GeneratedFile {
  std::string path;     ///< relative to the tree's root
  std::string content;  ///< complete, generated-by marker included
  /// Written without the marker (a tree's own layout, generate/layout.hpp):
  /// kLayoutManifest records its hash instead.
  bool bare = false;
};

enum class Change {
  create,     ///< not there yet
  update,     ///< there, generated, unedited, different
  unchanged,  ///< there and identical
  conflict,   ///< there but edited by a human (or never generated): needs --force
  stale,      ///< generated earlier, no longer in the matrix: removed with --prune
  // What a tree that keeps its own builder ([layout], adopt) has besides: never written.
  kept,       ///< a file of the tree's own builder: checked, never written
  untouched,  ///< a file of the tree tailor neither writes nor removes
};
/// As generate's and adopt's JSON spell a change (a human's edit is "edited").
inline constexpr EnumNames<Change, 7> kChanges{{{{Change::create, "create"},
                                                 {Change::update, "update"},
                                                 {Change::unchanged, "unchanged"},
                                                 {Change::conflict, "edited"},
                                                 {Change::stale, "stale"},
                                                 {Change::kept, "keep"},
                                                 {Change::untouched, "untouched"}}}};

struct PlannedChange {
  std::string path;
  Change change;
  std::string note;      ///< why, for conflicts and stale files
  bool foreign = false;  ///< a conflict with a file tailor never wrote (no marker): --force does not overwrite it
};

/// Whether \a c may be written: an edited file with --force or named in
/// \a named (--overwrite), a file tailor never wrote only when named.
bool may_overwrite(const PlannedChange& c, bool force, const std::set<std::string>& named);

/// The note of a stale change that is a staging file of a killed run: never a
/// human's file, so apply_plan removes it with or without --prune.
inline constexpr std::string_view kLeftoverNote = "staging file of a killed run";
inline bool is_staging_leftover(const PlannedChange& c) { return c.change == Change::stale && c.note == kLeftoverNote; }

/// Compares \a files with what \a root holds. Generated files in the
/// directories tailor writes that \a files lacks are reported stale.
std::vector<PlannedChange> plan_tree(const std::filesystem::path& root, const std::vector<GeneratedFile>& files);

/// A run that keeps stale files (no --prune) keeps them in the layout manifest
/// (.tailor-files) of \a files too, with the hash they were written with: they stay
/// tailor's, reported stale (and `--check` not up to date) until --prune removes
/// them, instead of being forgotten by the manifest the run writes. Returns
/// whether \a files changed (then plan again). Only the paths \a variant_file accepts
/// (a wrapper or page of a variant the matrix dropped): a table the spec no longer
/// writes goes back to the team.
bool remember_stale(const std::filesystem::path& root, std::vector<GeneratedFile>& files,
                    const std::vector<PlannedChange>& plan,
                    const std::function<bool(const std::string&)>& variant_file);

/// Applies \a plan: creates/updates files (conflicts too where may_overwrite), removes
/// stale ones when \a prune. Throws DiagnosticError if a write fails; files
/// already renamed stay, the one being written is left untouched.
void apply_plan(const std::filesystem::path& root, const std::vector<GeneratedFile>& files,
                const std::vector<PlannedChange>& plan, bool force, bool prune,
                const std::set<std::string>& named = {});

}  // namespace tailor
