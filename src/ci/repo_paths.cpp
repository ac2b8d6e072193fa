#include "ci/repo_paths.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace fs = std::filesystem;

fs::path repository_root(const fs::path& dir) {
  std::error_code ec;
  fs::path start = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  for (fs::path d = start; !d.empty(); d = d.parent_path()) {
    if (fs::exists(d / ".git", ec)) return d;
    if (d == d.parent_path()) break;
  }
  return start;
}

std::string relative_to_repository(const fs::path& p, const fs::path& root, std::string_view what) {
  std::error_code ec;
  fs::path full = fs::weakly_canonical(fs::absolute(p, ec), ec);
  fs::path rel = full.lexically_relative(root);
  std::string s = rel.empty() ? "." : rel.generic_string();
  if (s.starts_with("..")) {
    Diagnostic d;
    d.path = p.string();
    d.message = fmt::format("{} is outside the repository {}: a CI checkout cannot see it", what, root.string());
    d.hint = "run tailor ci inside the repository that holds the spec and the tree";
    throw DiagnosticError(d);
  }
  bool plain = std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) || std::string_view("._/+-").find(c) != std::string_view::npos;
  });
  if (!plain) {
    Diagnostic d;
    d.path = s;
    d.message = fmt::format("{} path holds characters other than letters, digits and ._/+-", what);
    d.hint = "CI files name it unquoted: rename it";
    throw DiagnosticError(d);
  }
  return s;
}

}  // namespace tailor
