#pragma once
/// An advisory lock (flock) per output: a directory a command writes a tree
/// into, or a file it replaces in place. Two tailor runs writing one output
/// would otherwise interleave their files and leave a tree that matches
/// neither; with the lock the second waits for the first, saying so.

#include <filesystem>
#include <iosfwd>

namespace tailor {

class OutputLock {
 public:
  enum class Mode { exclusive, shared };
  /// Locks \a path (a directory or a regular file, which must exist). When
  /// another process holds the lock, writes "tailor: waiting for …" to \a err
  /// and blocks until it is released. Throws DiagnosticError naming \a path
  /// when it cannot be opened or locked.
  OutputLock(const std::filesystem::path& path, std::ostream& err, Mode mode = Mode::exclusive);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace tailor
