#pragma once
/// The docs of a tree (README.md, BUILD_MATRIX.md) follow a repin: every
/// mention of an old nixpkgs revision (short or full, kept at its length),
/// and in Markdown tables the PyTorch and Python versions that came from the
/// old pin, in cells of a "PyTorch" / "Python" column or row.

#include <string>
#include <string_view>
#include <vector>

#include "util/text_edit.hpp"

namespace tailor::repin {

struct DocRepin {
  std::vector<std::string> old_revs;  ///< as found in the recipes (7 to 40 hex digits)
  std::string new_rev;                ///< 40 hex digits
  /// The headline package (packages.toml) whose version tables and mentions
  /// follow the pin: its attribute ("torch") and name ("pytorch").
  std::string attribute, name;
  std::string old_torch, new_torch;    ///< its versions; empty: unknown, not rewritten
  std::string old_python, new_python;  ///< "3.12" -> "3.13"; empty: unchanged or unknown
  /// The tree's own branch (--branch); empty: the one the doc marks ("You are on
  /// `X`", a row saying "this branch"), or the only one its branch tables name.
  std::string branch;
};

/// A mention the update left as written, for the summary.
struct Mention {
  int line = 0, column = 0;
  std::string text;
};

/// The edits for one doc; mentions of the old torch version outside the
/// table cells it rewrote go to \a left. A line about another branch (a row
/// of a "Branch" table and its continuation rows, a line whose first `code`
/// names one) is not the tree's to change: it is left as written, and goes to
/// \a other_branches (text = the branch) when an edit was dropped there.
std::vector<TextEdit> plan_doc(std::string_view text, const DocRepin& r, std::vector<Mention>& left,
                               std::vector<Mention>* other_branches = nullptr);

/// Occurrences of \a version in \a text not inside a longer version ("2.9.1" not in "2.9.10").
std::vector<size_t> find_version(std::string_view text, std::string_view version);

/// "PyTorch 2.9.1" / "torch 2.9.1" / "torch-2.9.1" mentions in \a text (comments,
/// descriptions) of \a word ("torch", matched in any case): byte offsets of the version.
std::vector<size_t> find_torch_mentions(std::string_view text, std::string_view version, std::string_view word);

}  // namespace tailor::repin
