#pragma once
/// Pruning one ELF file on disk: the result is written under a temporary name
/// beside the output (a reflink or kernel copy of the input, then only the
/// .nv_fatbin bytes rewritten), freed ranges punched as holes where the file
/// system allows, the input's mode kept, and renamed into place. On any error
/// the temporary is removed and the output is untouched.

#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "binfmt/scratch_file.hpp"
#include "prune/prune_report.hpp"
#include "prune/sm_selection.hpp"
#include "util/temp_files.hpp"

namespace tailor {

struct PruneOptions {
  std::vector<PruneTarget> targets;
  bool keep_ptx = false;
  bool dry_run = false;
  /// Move the kept containers together and cut the freed bytes out of the file
  /// (elf_compact.hpp); false, or where the layout does not allow it: holes.
  bool compact = true;
  /// Where a library has two fatbin sections (relocatable device code), cut both
  /// by turning its PT_NOTE program header into a PT_LOAD (elf_compact.hpp).
  bool reuse_note_header = false;
  /// Outputs go into a fresh staging folder renamed into place as a whole:
  /// files are written directly, without a temporary name each.
  bool fresh_output = false;
};

/// Prunes the ELF file \a in into \a out (the same path: in place), reported
/// as \a shown. Files that need no change are copied (or, in place, left
/// alone). Throws DiagnosticError (with the path) for unknown layouts,
/// corrupt input or I/O errors, having written nothing.
FileOutcome prune_elf_file(const std::filesystem::path& in, const std::filesystem::path& out, std::string shown,
                           const PruneOptions& opts);

/// Prunes the ELF image \a bytes in memory (unless dry_run), in place: no
/// compaction (the buffer keeps its size), the freed bytes become zeros. Throws
/// DiagnosticError for unknown layouts or corrupt input, leaving \a bytes as
/// they were.
FileOutcome prune_elf_bytes(std::string shown, std::span<uint8_t> bytes, const PruneOptions& opts);

/// Prunes the ELF image in \a file in place (unless dry_run), read and written
/// a header or an entry at a time. Throws like prune_elf_bytes. Where it is
/// compacted, \a moved (if given) receives the offsets where the bytes that moved
/// now start (a deflater's restarts: parallel_deflate.hpp).
FileOutcome prune_elf_scratch(std::string shown, ScratchFile& file, const PruneOptions& opts,
                              std::vector<uint64_t>* moved = nullptr);
/// The same, read from \a source and written into the empty \a out: only what the
/// output keeps is written (nothing where the file would not change, out left empty).
FileOutcome prune_elf_scratch_into(std::string shown, const ScratchFile& source, ScratchFile& out,
                                   const PruneOptions& opts, std::vector<uint64_t>* moved = nullptr);

/// An output written under a temporary name beside \a out; commit() renames it
/// into place, destruction without commit removes it.
class StagedOutput {
 public:
  explicit StagedOutput(std::filesystem::path out);
  ~StagedOutput();
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;
  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return tmp_; }
  void commit();

 private:
  std::filesystem::path out_, tmp_;
  std::optional<TempFileGuard> guard_;  ///< a signal removes tmp_
  int fd_ = -1;
};

/// Copies \a in to \a out atomically (reflink or kernel copy), keeping its mode.
void copy_file_atomically(const std::filesystem::path& in, const std::filesystem::path& out);
/// Copies \a in to \a out, which must not exist (reflink or kernel copy), keeping its mode.
void copy_file_new(const std::filesystem::path& in, const std::filesystem::path& out);

}  // namespace tailor
