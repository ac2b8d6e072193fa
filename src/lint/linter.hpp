#pragma once
/// `tailor check` as a library: lint a recipe tree (from disk or memory) and
/// render the findings as compiler-style text or JSON.

#include <filesystem>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "lint/findings.hpp"

namespace tailor::lint {

struct CheckResult {
  std::vector<Problem> problems;  ///< sorted by path, line, column, code
  int files = 0;                  ///< .nix files checked
  /// Of them, files that may be recipes (not lib/ builders, default.nix, flake.nix,
  /// shell.nix): none under a directory is a mistyped path, not a clean tree.
  int recipes = 0;
  int errors = 0;
  int warnings = 0;
  /// Recipes that call a builder of the tree that tailor did not write (a team's
  /// own: its wrappers), relative to the root: what check evaluates through it.
  std::vector<std::string> builder_wrappers;
};

/// Adds \a more to \a r's problems (kept sorted by path, line, column, code) and counts.
void add_problems(CheckResult& r, std::vector<Problem> more);

/// Checks in-memory \a files of a tree displayed as \a root.
/// \a all_sites: keep every finding a table fact causes in generated files (else they fold into it).
CheckResult check_files(const std::string& root, std::vector<SourceFile> files, const KnowledgeBase& kb,
                        bool all_sites = false);

/// Checks in-memory \a files with the builder-call rule alone (TLR045: a wrapper's call contradicts its
/// name), beside what reading them finds (syntax errors): what adopt reads a tree by, without every rule.
CheckResult check_call_names(const std::string& root, std::vector<SourceFile> files, const KnowledgeBase& kb);

/// The findings of \a after that \a before lacks (the same rule on the same
/// line of the same file counts as one the tree had), with their counts.
CheckResult findings_not_in(const CheckResult& after, const CheckResult& before);

/// Reads and checks the tree under \a dir. Throws DiagnosticError if \a dir is not a directory.
CheckResult check_tree(const std::string& dir, const KnowledgeBase& kb, bool all_sites = false);
/// Checks the tree under \a dir whose files list_tree(\a dir) gave as \a listed:
/// each text is read as its file is parsed, and given back once its facts are read.
CheckResult check_tree(const std::string& dir, std::vector<SourceFile> listed, const KnowledgeBase& kb,
                       bool all_sites = false);

/// The fixes of one file: its edits, a rename, and what each fix does.
struct FileFix {
  std::string rel;      ///< relative to the root
  std::string new_rel;  ///< rel, or the new name when the fix renames the file
  std::string before, after;
  std::vector<TextEdit> edits;    ///< sorted, not overlapping
  std::vector<std::string> done;  ///< "path:line:col: what [TLR002]", one per fixed problem
};

struct FixPlan {
  std::vector<FileFix> files;  ///< sorted by rel
  int fixes = 0;               ///< problems fixed
};

/// The mechanical fixes of \a r's problems in \a files (the texts \a r was checked
/// on). A fix whose edits overlap another's, or whose result no longer parses,
/// is left out (the problem stays reported).
FixPlan plan_fixes(const std::string& root, const CheckResult& r, const std::vector<SourceFile>& files);

/// Writes \a plan under \a dir: each file to a temporary beside it, then renamed
/// over the original (or to its new name). Throws DiagnosticError on failure.
void write_fixes(const std::filesystem::path& dir, const FixPlan& plan);

/// A git-style diff of \a plan (paths relative to the root: `git apply` in DIR reads it).
std::string render_diff(const FixPlan& plan);

/// Every problem rendered, then a one-line summary.
std::string render_text(const CheckResult& r);

/// [{"file","line","column","severity","rule","message","hint"[,"notes"]}]
std::string render_json(const CheckResult& r);

/// The rule table: code, severity, name, summary; one rule a line.
std::string render_rules();

}  // namespace tailor::lint
