#pragma once
/// `tailor adopt`: the plan of taking over a tree that keeps its own builder.
/// The spec is imported (spec_import.hpp) and expanded once; the wrappers are
/// read back into its [layout] (layout_import.hpp), the tables and pages into
/// its templates (table_import.hpp), all over the typed Layout; then each file
/// of the tree gets what `tailor generate` does to it (a Change, generate's
/// own) and why. The command renders the plan (text or JSON) and writes it.

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generate/tree.hpp"
#include "generate/tree_write.hpp"
#include "kb/knowledge_base.hpp"
#include "lint/findings.hpp"
#include "util/enum_names.hpp"

namespace tailor {

/// Where adopt writes the spec, in the tree.
inline constexpr std::string_view kAdoptSpecName = "tailor.toml";

/// What adopt does to a file, as its report's lines spell it; its JSON spells a
/// change as generate's does (kChanges). The files already as the spec writes
/// them (unchanged) and the edited ones, which refuse the run (conflict), have no line.
inline constexpr EnumNames<Change, 5> kAdoptLines{{{{Change::create, "write"},
                                                    {Change::update, "replace"},
                                                    {Change::stale, "remove"},
                                                    {Change::kept, "keep"},
                                                    {Change::untouched, "untouched"}}}};

/// One file of the tree and what adopt does to it.
struct AdoptedFile {
  std::string path;  ///< relative to the tree
  /// create (write), update (replace: differs, or was never tailor's), unchanged, conflict
  /// (edited since tailor wrote it: refused), stale (removed), kept (the builder, or a wrapper
  /// of its own text), untouched.
  Change change = Change::untouched;
  bool table = false;      ///< a table or page the spec writes; else a variant's file (or none written)
  std::vector<int> lines;  ///< update: the 1-based lines that differ
  std::string reason;      ///< why: removed, kept (a table tailor does not write), untouched, edited
  bool own_text = false;   ///< kept: a variant's wrapper of the team's own text, which no template gives back
};

/// A page, or folder of pages, that the page template does not give back.
struct PageNote {
  std::string path;  ///< a page, or a folder ("docs/matrices")
  std::string why;
  bool folder = false;  ///< no template for the folder: each page is written from its own text
};

struct AdoptionPlan {
  std::string dir;  ///< the tree
  /// Why the tree's wrappers fit no [layout]; then nothing else is set.
  std::string why;
  std::string spec;                    ///< the text of TREE/tailor.toml
  std::vector<AdoptedFile> files;      ///< in the report's order: generated, removed, kept, untouched
  std::vector<std::string> corrected;  ///< the facts of the team's files the spec corrects, one line each
  std::vector<PageNote> pages;         ///< pages written from their own text, or kept
  std::vector<std::string> replaces;   ///< the team's scripts that `tailor generate` replaces
  /// Wrappers whose builder call contradicts their name (TLR045): imported as the name
  /// says, and, unless fix_calls, left untouched and out of the manifest.
  std::vector<lint::Problem> contradicting;
  /// Recipes the knowledge base proves impossible: removed (path, why).
  std::vector<std::pair<std::string, std::string>> impossible;
  // What writing it does.
  std::vector<GeneratedFile> generated;
  std::vector<PlannedChange> changes;
  WritePolicy policy;  ///< the files tailor did not write that it replaces, named

  /// The files of change \a c (and, where given, that are tables and pages or variant files).
  size_t count(Change c, std::optional<bool> table = std::nullopt) const;
  /// TREE/tailor.toml.
  std::string spec_path() const;
  /// The files written: created and replaced.
  size_t written() const { return count(Change::create) + count(Change::update); }
};

struct AdoptOptions {
  std::string name;        ///< the spec's branch name
  bool fix_calls = false;  ///< a contradicting wrapper is written with the call its name says
};

/// Where the plan reports as it is made: out before a later step can fail.
struct AdoptSink {
  std::function<void(const lint::Problem&)> finding;  ///< a wrapper whose call contradicts its name
  std::function<void(const std::string&)> warning;    ///< what the imported spec does not reproduce
};

/// The plan of adopting the tree at \a dir. Throws DiagnosticError where the
/// spec cannot be imported.
AdoptionPlan plan_adoption(const std::string& dir, const AdoptOptions& options, const KnowledgeBase& kb,
                           const AdoptSink& sink);
/// The same, of the tree at \a dir whose files recipe::read_tree read as \a files.
AdoptionPlan plan_adoption(const std::string& dir, std::vector<recipe::SourceFile> files, const AdoptOptions& options,
                           const KnowledgeBase& kb, const AdoptSink& sink);

/// Why \a plan may not be written: the wrappers fit no layout (why), TREE/tailor.toml is
/// another spec, or a file tailor wrote was edited since; the diagnostics as printed,
/// empty when none. \a write: the run writes (said in the message).
std::string adoption_refusals(const AdoptionPlan& plan, bool write);

/// Writes \a plan into its tree: the files one by one, the impossible ones removed,
/// then the manifest and the spec last, so that a run cut short leaves no spec. A
/// signal stops it between files: returns that signal, else 0.
int write_adoption(const AdoptionPlan& plan);

}  // namespace tailor
