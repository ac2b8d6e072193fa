#pragma once
/// `tailor check` as a library: lint a recipe tree (from disk or memory) and
/// render the findings as compiler-style text or JSON.

#include <filesystem>
#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "lint/lint_tree.hpp"

namespace tailor::lint {

struct CheckResult {
  std::vector<Problem> problems;  ///< sorted by path, line, column, code
  int files = 0;                  ///< .nix files checked
  int errors = 0;
  int warnings = 0;
};

/// Checks in-memory \a files of a tree displayed as \a root.
CheckResult check_files(const std::string& root, std::vector<SourceFile> files, const KnowledgeBase& kb);

/// Reads and checks the tree under \a dir. Throws DiagnosticError if \a dir is not a directory.
CheckResult check_tree(const std::string& dir, const KnowledgeBase& kb);

/// Every problem rendered, then a one-line summary.
std::string render_text(const CheckResult& r);

/// {"problems": [{"path","line","column","code","severity","message","hint"}], "files": N}
std::string render_json(const CheckResult& r);

/// The rule table: code, severity, name, summary; one rule a line.
std::string render_rules();

}  // namespace tailor::lint
