#include "util/path_inside.hpp"

#include <fmt/format.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

bool below(const fs::path& p, const fs::path& root) {
  auto r = root.begin(), x = p.begin();
  for (; r != root.end() && !r->empty(); ++r, ++x)
    if (x == p.end() || *x != *r) return false;
  return true;
}

}  // namespace

std::optional<std::string> path_leaving_root(const fs::path& root, std::string_view rel) {
  fs::path r(rel);
  if (r.is_absolute()) return std::string(rel);
  std::error_code ec;
  fs::path real_root = fs::weakly_canonical(root, ec);
  if (ec) real_root = root;
  fs::path prefix;
  for (const auto& part : r) {
    if (part == "..") return (prefix / part).generic_string();
    if (part.empty() || part == ".") continue;
    prefix /= part;
    fs::path at = root / prefix;
    if (!fs::is_symlink(fs::symlink_status(at, ec))) continue;
    // A link is followed only where its target (links resolved) stays below the root.
    fs::path target = fs::weakly_canonical(at, ec);
    if (ec || !below(target, real_root)) return prefix.generic_string();
  }
  return std::nullopt;
}

void require_inside_root(const fs::path& root, std::string_view rel, std::string_view doing) {
  auto out = path_leaving_root(root, rel);
  if (!out) return;
  Diagnostic d;
  d.path = (root / *out).string();
  d.message = fmt::format("is a link out of the tree (or leaves it); tailor does not {} {} through it", doing, rel);
  d.hint = "replace the link with a folder, or write the tree elsewhere with -o";
  throw DiagnosticError(d);
}

}  // namespace tailor
