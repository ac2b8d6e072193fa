#pragma once
/// Reading a whole input file, reporting failure as a diagnostic that names it.

#include <filesystem>
#include <string>
#include <string_view>

namespace tailor {

/// The content of \a path; throws DiagnosticError "<path>: error: cannot read <what>".
std::string read_file(const std::filesystem::path& path, std::string_view what = "file");

/// Like read_file, for files that must be text (a spec, a Nix file): a NUL
/// byte means a binary file, reported as "not a text file" instead of being
/// echoed to the terminal by a later syntax error.
std::string read_text_file(const std::filesystem::path& path, std::string_view what = "file");

/// Throws DiagnosticError "<path>: error: not a text file …" when \a text
/// holds a NUL byte.
void require_text(const std::filesystem::path& path, std::string_view text);

}  // namespace tailor
