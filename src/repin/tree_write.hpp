#pragma once
/// Writing a repinned tree all at once: every new text goes to a temporary
/// file (or a temporary copy of the tree) first; only when all of them are
/// written do renames put them in place. A failure leaves the tree as it was.

#include <filesystem>
#include <string>
#include <vector>

#include "recipe/source_file.hpp"

namespace tailor::repin {

/// Replaces the files \a changed (relative paths under \a dir) with their new texts.
/// Throws DiagnosticError, after removing its temporary files, if one cannot be written.
void write_in_place(const std::filesystem::path& dir, const std::vector<recipe::SourceFile>& changed);

/// Copies \a dir to \a out (which must not exist, or be an empty directory) with
/// \a changed replaced, through a temporary sibling of \a out renamed at the end.
void write_copy(const std::filesystem::path& dir, const std::filesystem::path& out,
                const std::vector<recipe::SourceFile>& changed);

/// Throws DiagnosticError unless \a out can receive a copy of \a dir (absent or empty, not inside \a dir).
void check_output_dir(const std::filesystem::path& dir, const std::filesystem::path& out);

}  // namespace tailor::repin
