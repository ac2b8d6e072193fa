#pragma once
/// `tailor repin` as a library: move a hand-written recipe tree to another
/// nixpkgs pin and Python package set with minimal text edits. Planning
/// reads everything and computes every edit before anything is written;
/// bad input throws DiagnosticError and leaves no trace.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "recipe/source_file.hpp"
#include "repin/pin_args.hpp"
#include "util/text_edit.hpp"

namespace tailor::repin {

struct RepinOptions {
  std::string rev;                        ///< --rev, unvalidated
  std::optional<std::string> sha256;      ///< --sha256
  std::optional<std::string> python_set;  ///< --python-set
  bool all_pins = false;                  ///< --all-pins
  std::string from;                       ///< --from: move this pin only (short or full), the others stay
  std::string output_root;                ///< where the result is shown (-o OUT); empty: the tree itself
  std::string branch;                     ///< --branch: the tree's own branch (docs rows of others stay)
};

/// One change for the summary: what, where, from what to what.
struct Change {
  std::string what;  ///< "pin", "sha256", "python set", "torch", "python"
  int line = 0, column = 0;
  std::string from, to;
};

struct FileChange {
  std::string rel;
  std::vector<TextEdit> edits;  ///< against the original text
  std::vector<Change> changes;  ///< in source order
};

struct RepinPlan {
  std::string root;  ///< as displayed
  TargetPin target;
  std::optional<PythonSet> python;                ///< the set moved to, when asked
  std::string hash;                               ///< the hash written for the new pin; empty: none known
  std::string hash_source;                        ///< "--sha256" / "knowledge base"
  std::map<std::string, int> old_pins;            ///< old revision (as written, longest form) -> files
  std::set<std::string> old_python_names;         ///< package-set / interpreter names found
  std::string cuda;                               ///< the tree's CUDA version ("12.9"), for the evaluation
  std::vector<recipe::SourceFile> before, after;  ///< every file read, before and after
  std::vector<FileChange> changes;                ///< files whose text changes, sorted by path
  std::vector<std::string> knowledge;             ///< what the knowledge base says about the move
  std::vector<std::string> verify;                ///< what the user must still check or do
  /// Doc lines about another branch that an edit would have changed, left as
  /// written: "README.md:36: mentions branch pytorch-2.9-vllm-0.14.0: left".
  std::vector<std::string> other_branches;
};

/// Plans the repin of \a files (a tree read with lint::read_tree, shown as \a root).
RepinPlan plan_repin(const std::string& root, std::vector<recipe::SourceFile> files, const RepinOptions& o,
                     const KnowledgeBase& kb);

}  // namespace tailor::repin
