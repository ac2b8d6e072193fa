#pragma once
/// A recipe tree as `tailor check` sees it: every .nix file with its parse
/// result and facts, the variant its file name promises, the docs at the
/// root, and the problems found so far. Trees come from disk or memory.

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "lint/rename_edit.hpp"
#include "lint/rules.hpp"
#include "matrix/variant.hpp"
#include "recipe/line_index.hpp"
#include "recipe/recipe_facts.hpp"
#include "recipe/source_file.hpp"
#include "util/diagnostic.hpp"

namespace tailor::lint {

// What a recipe says is the recipe layer's (src/recipe); the checks speak of it by these names.
using recipe::CallFact;
using recipe::Fact;
using recipe::FetchFact;
using recipe::kMaxRegexLine;
using recipe::kMaxRegexName;
using recipe::LineIndex;
using recipe::PinFact;
using recipe::RecipeFacts;
using recipe::SourceFile;

/// One finding: a rule, where, and what.
struct Problem {
  const Rule* rule = nullptr;
  std::string path;  ///< as displayed: root + "/" + relative path
  Pos pos;           ///< line 0: the whole file
  std::string line_text;
  std::string message;
  std::string hint;
  std::vector<std::string> notes;
  std::string rel;  ///< the file relative to the root

  // The mechanical fix, if the rule knows one (`tailor check --fix`):
  std::vector<TextEdit> fix;  ///< edits to the file's text
  std::string rename_to;      ///< or a new relative path for the file
  std::string fix_summary;    ///< "pname \"a\" → \"b\"": what the fix does

  // A table fact (TLR035–TLR039) stands for the findings it causes in the
  // files generated from it: those of rule fold_rule in fold_files whose
  // message holds fold_text are folded into it, unless --all-sites.
  std::string fold_rule, fold_text;
  std::set<std::string> fold_files;

  /// Compiler style, with the rule code after the message.
  std::string render() const;
};

struct NixFile {
  SourceFile src;
  std::string display;  ///< root + "/" + rel
  std::string stem;     ///< file name without ".nix"
  bool parsed = false;
  RecipeFacts facts;
  /// lib/ builders, default.nix, flake.nix, shell.nix: no variant of their own.
  bool helper = false;
  std::optional<Variant> variant;  ///< read from the file name
  std::string name_problem;        ///< why the file name is not a variant name
  /// How the file name spells the variant's tokens when it is off the strict
  /// pattern (lint/spelled_name.hpp); empty for a strict name.
  std::map<std::string, std::string> spelling;
  std::set<std::string> ignored;      ///< rule codes silenced by `# tailor: ignore TLR005` in this file
  std::vector<Fact> unknown_ignores;  ///< ignore comments naming no rule

  /// A variant recipe: its name parses, or it states a pname/variantName.
  bool is_recipe() const { return !helper && (variant || !facts.names.empty()); }
};

struct LintTree {
  std::string root;                 ///< as given by the user
  std::vector<NixFile> nix;         ///< sorted by relative path
  std::vector<SourceFile> docs;     ///< markdown at the root (README.md, BUILD_MATRIX.md, …) and under docs/
  std::vector<SourceFile> scripts;  ///< bash scripts (*.sh): a generator's arrays of facts
  std::set<std::string> files;      ///< every relative path, for import checks
};

/// Every file under \a dir, sorted, texts not read: .git, links named result*
/// (build results) and links to directories are skipped. Throws DiagnosticError
/// if \a dir is not a directory.
std::vector<SourceFile> list_tree(const std::filesystem::path& dir);

/// list_tree(dir) with the texts of the recipes (*.nix), docs and scripts read.
std::vector<SourceFile> read_tree(const std::filesystem::path& dir);

/// Parses and reads the facts of \a files (see SourceFile). Syntax errors
/// become TLR001 problems in \a problems. With \a read_from, \a files are
/// list_tree(read_from) and each text is read just before its file is parsed,
/// on the same core (the bytes are still in its cache).
LintTree make_tree(std::string root, std::vector<SourceFile> files, const KnowledgeBase& kb,
                   std::vector<Problem>& problems, const std::filesystem::path& read_from = {});

/// The tree-relative path that \a import, written in \a from, names: normalised,
/// "default.nix" for the tree's root; it starts with ".." when it leaves the tree.
std::string import_target(const NixFile& from, std::string_view import);

/// The file of \a t that \a import, written in \a from, names (a directory: its
/// default.nix); null when the tree has none.
const NixFile* imported_file(const LintTree& t, const NixFile& from, std::string_view import);

/// \a f, then the files of \a t it imports or calls (`import ./lib/builder.nix { … }`),
/// transitively, each once (a directory import is its default.nix): where a thin
/// recipe's builder states its pin, sets and source overrides.
std::vector<const NixFile*> reached_from(const LintTree& t, const NixFile& f);

/// Collects problems for the checks: positions from spans, suppressions.
class Sink {
 public:
  explicit Sink(std::vector<Problem>& out) : out_(out) {}

  /// A problem at \a span of \a file (line 0 of the span: the whole file).
  Problem& add(const NixFile& file, std::string_view code, const nix::Span& span, std::string message,
               std::string hint = {});
  /// A problem in a non-Nix file of the tree (docs), at 1-based \a line / \a column.
  Problem& add_doc(const LintTree& tree, const SourceFile& doc, std::string_view code, int line, int column,
                   std::string message, std::string hint = {});

 private:
  std::vector<Problem>& out_;
  Problem discarded_;
};

/// The position of a file's variant name for diagnostics about the whole
/// recipe: its first pname/variantName, else no position.
nix::Span name_span(const NixFile& f);

}  // namespace tailor::lint
