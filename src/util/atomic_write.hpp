#pragma once
/// Replacing a file so that readers see the old content or the new, never half
/// of it: write a temporary file beside it, then rename it over the original.

#include <filesystem>
#include <optional>
#include <string_view>

#include "util/temp_files.hpp"

namespace tailor {

/// A file written under a temporary name in the directory of its target (a
/// rename within one file system is atomic); commit() renames it into place.
/// Destroyed uncommitted, it removes the temporary file: several files can be
/// staged first and committed only once all of them are written.
class StagedFile {
 public:
  /// Writes \a content beside \a path. The file gets \a mode, or else the
  /// permission bits of the file it replaces (if any). Throws DiagnosticError
  /// "<path>: error: cannot write file: <OS reason>" on failure, leaving
  /// nothing behind. Until commit, a signal removes the temporary file
  /// (util/temp_files.hpp).
  StagedFile(std::filesystem::path path, std::string_view content,
             std::optional<std::filesystem::perms> mode = std::nullopt);
  StagedFile(StagedFile&& other) noexcept;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  StagedFile& operator=(StagedFile&&) = delete;
  ~StagedFile();

  /// Renames the temporary file over the target. Throws DiagnosticError
  /// "<path>: error: cannot replace file: <reason>" (the temporary is removed).
  void commit();

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_, tmp_;  ///< tmp_ empty: committed or moved from
  TempFileGuard guard_;
};

/// Writes \a content to \a path through a StagedFile, committed at once.
void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           std::optional<std::filesystem::perms> mode = std::nullopt);

}  // namespace tailor
