#pragma once
/// Reading a whole input file, reporting failure as a diagnostic that names it.

#include <filesystem>
#include <string>
#include <string_view>

namespace tailor {

/// The content of \a path; throws DiagnosticError "<path>: error: cannot read <what>".
std::string read_file(const std::filesystem::path& path, std::string_view what = "file");

}  // namespace tailor
