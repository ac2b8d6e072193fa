#pragma once
/// The record of a folder pruned in place (tailor-prune.json at its root),
/// kept true while the prune goes: a kill midway must not leave a half-pruned
/// folder that no record describes (issue 46 #5).
///
/// It is written before the first file changes ("complete": false), rewritten
/// as files are done (at most every 200 ms), and once more when the run ends: "complete": true, or false with
/// "interrupted": "SIGTERM" when a signal stopped it (the prune defers SIGINT,
/// SIGTERM and SIGHUP, so each file it lists is pruned and every other file is
/// as it was). A kill -9 leaves the last rewrite, "complete": false, which may
/// lack the files of its last 200 ms. An earlier record's files that this run
/// does not change keep their entries, and its removed archs stay in the
/// entries of files this run prunes further: rerunning an interrupted prune
/// completes its record.

#include <chrono>
#include <filesystem>
#include <mutex>
#include <vector>

#include "prune/prune_report.hpp"

namespace tailor {

class InPlaceRecord {
 public:
  /// Reads the record at \a at (if any: a record that cannot be read is
  /// replaced); \a header gives root, kind, SMs and options.
  InPlaceRecord(std::filesystem::path at, const PruneReport& header);

  /// Writes the first record ("complete": false) before anything changes.
  void begin();
  /// A file done (pruned and renamed into place, or refused). Thread-safe.
  void done(const FileOutcome& f);
  /// The final record of \a rep (the files this run did, in order), \a complete
  /// or not (a signal, an I/O error). Removes the record begin() wrote when
  /// nothing was ever removed here. Returns whether a record is left.
  bool finish(const PruneReport& rep, bool complete);

 private:
  PruneReport merged(const PruneReport& rep) const;
  void write(const PruneReport& rep, bool complete);

  std::filesystem::path at_;
  PruneReport header_;
  std::vector<FileOutcome> earlier_;  ///< the earlier record's files
  bool had_earlier_ = false;
  std::mutex mutex_;
  std::vector<FileOutcome> done_;
  std::chrono::steady_clock::time_point last_{};
  bool written_any_ = false;
};

}  // namespace tailor
