#pragma once
/// What pruning did (or would do) to each file: the report of `tailor prune`.

#include <cstdint>
#include <string>
#include <vector>

#include "binfmt/artifact.hpp"
#include "binfmt/fatbin.hpp"
#include "prune/fatbin_rewrite.hpp"

namespace tailor {

/// Entries of one architecture and kind, kept and removed.
struct ArchChange {
  std::string arch;  ///< "sm_90a", "compute_120"
  uint32_t number = 0;
  FatbinKind kind = FatbinKind::sass;
  uint64_t kept = 0, removed = 0;
  uint64_t kept_bytes = 0, removed_bytes = 0;

  bool operator==(const ArchChange&) const = default;
};

struct FileOutcome {
  std::string path;                          ///< relative to the pruned root; "" for the root file itself
  uint64_t size = 0;                         ///< the file's size before
  uint64_t size_after = 0;                   ///< after (compaction shrinks it); = size when not
  std::string compaction;                    ///< why the file kept its size (holes instead); "" compacted or unchanged
  bool note_header_reused = false;           ///< compacted with its PT_NOTE program header made a PT_LOAD
  uint64_t fatbin_bytes = 0;                 ///< .nv_fatbin sections
  uint64_t removed_bytes = 0;                ///< entry bytes zeroed
  uint64_t disk_before = 0, disk_after = 0;  ///< allocated on disk; 0: not measured
  uint64_t compressed_before = 0, compressed_after = 0;  ///< deflated in a wheel; 0: not measured
  uint64_t removed_deflated = 0;  ///< --dry-run: the removed entries deflated, estimated (deflate_estimate.hpp)
  std::vector<ArchChange> archs;
  size_t containers = 0;
  /// Containers no target can use (binfmt/driver_choice.hpp): \a reduced lost
  /// entries (kept their smallest, or their NVVM IR), \a untouched had none to lose.
  size_t untouched = 0, reduced = 0;
  std::vector<std::string> untouched_for;  ///< the SMs that found nothing in them
  std::string refused;                     ///< why the file was left unchanged; empty when pruned

  bool operator==(const FileOutcome&) const = default;
};

/// The outcome a plan describes (sizes on disk and compressed left at 0).
FileOutcome outcome_of(std::string path, uint64_t size, const RewritePlan& plan);

struct PruneReport {
  std::string root;
  ArtifactKind kind = ArtifactKind::file;
  std::string output;  ///< where the result went ("" for --dry-run)
  std::vector<std::string> sm;
  bool keep_ptx = false;
  bool dry_run = false;
  std::vector<FileOutcome> files;                    ///< ELF files with fatbins, and refused ones
  uint64_t other_files = 0;                          ///< copied as they were
  uint64_t download_before = 0, download_after = 0;  ///< a wheel's size, what pip downloads
  uint64_t disk_before = 0, disk_after = 0;          ///< allocated by every file of the input and of the output
  std::string record;     ///< the tailor-prune.json written (in a wheel: its member name); "" none
  int deflate_level = 0;  ///< zlib level of the members deflated anew (wheels)
  int interrupted = 0;    ///< the signal that stopped an in-place prune midway; 0 none
  double seconds = 0;

  uint64_t removed_bytes() const;
  size_t refused() const;
  /// Apparent sizes of the ELF files with fatbins, summed (compaction shrinks them).
  uint64_t size_before() const;
  uint64_t size_after() const;
  /// Deflated sizes of the ELF members of a wheel, summed.
  uint64_t compressed_before() const;
  uint64_t compressed_after() const;
  /// --dry-run: what the removed entries take deflated, estimated, summed.
  uint64_t removed_deflated() const;
  /// Kept/removed counts summed over every file, per architecture.
  std::vector<ArchChange> archs() const;
};

}  // namespace tailor
