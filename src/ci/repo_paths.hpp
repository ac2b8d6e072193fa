#pragma once
/// Paths as a CI job sees them: relative to the root of the repository it
/// checks out, whatever directory `tailor ci` ran in.

#include <filesystem>
#include <string>
#include <string_view>

namespace tailor {

/// The root of the git repository holding \a dir: the nearest ancestor (or
/// \a dir itself) with a .git entry; \a dir when there is none.
std::filesystem::path repository_root(const std::filesystem::path& dir);

/// \a p (relative to the current directory, or absolute) relative to \a root,
/// "." for the root itself. Throws DiagnosticError when \a p lies outside
/// \a root (a CI checkout cannot see it) or holds characters other than
/// letters, digits and "._/+-" (it is written into YAML and shell unquoted).
std::string relative_to_repository(const std::filesystem::path& p, const std::filesystem::path& root,
                                   std::string_view what);

}  // namespace tailor
