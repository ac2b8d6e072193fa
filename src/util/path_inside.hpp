#pragma once
/// Whether a path below a tree's root stays inside it: a folder of the tree
/// may be a symbolic link to elsewhere (a cloned repository can point
/// docs/tables at ~/.config/autostart), and a write or delete through it would
/// land outside the tree.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tailor {

/// The first component of \a rel (relative to \a root; "docs/tables" of
/// "docs/tables/a.md") that is a symbolic link leading out of \a root, or a
/// ".." or absolute part; nullopt when every component stays inside.
std::optional<std::string> path_leaving_root(const std::filesystem::path& root, std::string_view rel);

/// Throws DiagnosticError "ROOT/COMPONENT: error: is a link out of the tree; …"
/// when path_leaving_root finds one. \a doing: "write", "remove".
void require_inside_root(const std::filesystem::path& root, std::string_view rel, std::string_view doing);

}  // namespace tailor
