#pragma once
/// What `tailor check` finds in a recipe tree: the problems, the tree as check
/// reads it (the recipe tree and what its `# tailor: ignore` comments silence),
/// and the sink the rules report into. Reading the tree is the recipe layer's
/// (recipe/recipe_tree.hpp); turning a file that does not parse into a TLR001
/// finding is the linter's, here.

#include <filesystem>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "lint/rename_edit.hpp"
#include "lint/rules.hpp"
#include "recipe/line_index.hpp"
#include "recipe/recipe_facts.hpp"
#include "recipe/recipe_tree.hpp"
#include "recipe/source_file.hpp"
#include "util/diagnostic.hpp"

namespace tailor::lint {

// What a recipe says, and the tree of them, are the recipe layer's (src/recipe);
// the checks speak of them by these names.
using recipe::CallFact;
using recipe::Fact;
using recipe::FetchFact;
using recipe::import_target;
using recipe::imported_file;
using recipe::kMaxRegexLine;
using recipe::kMaxRegexName;
using recipe::LineIndex;
using recipe::list_tree;
using recipe::NixFile;
using recipe::PinFact;
using recipe::reached_from;
using recipe::read_tree;
using recipe::RecipeFacts;
using recipe::RecipeTree;
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

/// What the `# tailor: ignore TLR005, pin-unknown` comments of one file say.
struct Ignores {
  std::set<std::string> codes;  ///< the rules they silence, by code
  std::vector<Fact> unknown;    ///< codes naming no rule
};

/// A recipe tree as check reads it: the recipe tree, and each file's ignores.
struct LintTree : RecipeTree {
  std::vector<Ignores> ignores;  ///< one per file of nix, in its order

  /// The ignores of \a f, a file of this tree (none for a file of another).
  const Ignores& ignores_of(const NixFile& f) const;
};

/// Reads the tree of \a files (recipe::make_tree) and the ignores of each file;
/// a file that does not parse becomes a TLR001 problem in \a problems, unless it
/// ignores that rule.
LintTree make_tree(std::string root, std::vector<SourceFile> files, const KnowledgeBase& kb,
                   std::vector<Problem>& problems, const std::filesystem::path& read_from = {});

/// Collects problems for the checks: positions from spans, suppressions.
class Sink {
 public:
  Sink(const LintTree& tree, std::vector<Problem>& out) : tree_(tree), out_(out) {}

  /// A problem at \a span of \a file (line 0 of the span: the whole file).
  Problem& add(const NixFile& file, std::string_view code, const nix::Span& span, std::string message,
               std::string hint = {});
  /// A problem in a non-Nix file of the tree (docs), at 1-based \a line / \a column.
  Problem& add_doc(const LintTree& tree, const SourceFile& doc, std::string_view code, int line, int column,
                   std::string message, std::string hint = {});

 private:
  /// The line \a line of \a text, from an index built at the first finding in it:
  /// a scan from the top per finding made check quadratic in the findings of a file.
  std::string line_text(const std::string& text, int line);

  const LintTree& tree_;
  std::vector<Problem>& out_;
  Problem discarded_;
  std::unordered_map<const std::string*, LineIndex> lines_;  ///< by the text they index
};

/// The position of a file's variant name for diagnostics about the whole
/// recipe: its first pname/variantName, else no position.
nix::Span name_span(const NixFile& f);

}  // namespace tailor::lint
