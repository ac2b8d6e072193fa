#pragma once
/// Temporary files that an interrupt must not leave behind. A writer registers
/// each temporary path while it exists; on SIGINT, SIGTERM or SIGHUP the
/// handler removes every registered path and then lets the signal end the
/// process as it would have. Registering costs one allocation and no lock.
///
///   TempFileGuard guard(tmp_path);   // removed if a signal arrives
///   ...write tmp_path, rename it...
///   // leaving the scope unregisters it
///
/// Child process groups (a build's nix and flox) can be registered the same
/// way: the handler sends them the signal it received before it exits.

#include <sys/types.h>

#include <filesystem>
#include <string_view>

namespace tailor {

/// Installs the signal handlers (once; main calls it). Without them the
/// registry still works, only nothing cleans up on a signal.
void install_temp_file_cleanup();

/// The suffix of every temporary file tailor writes: "<file>.tailor-tmp-<pid>".
inline constexpr std::string_view kTempSuffix = ".tailor-tmp-";

/// Registers \a path for removal on a signal while the guard lives.
class TempFileGuard {
 public:
  explicit TempFileGuard(const std::filesystem::path& path);
  ~TempFileGuard();
  TempFileGuard(TempFileGuard&& other) noexcept;
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;
  TempFileGuard& operator=(TempFileGuard&&) = delete;

 private:
  int slot_ = -1;  ///< -1: not registered (registry full, or moved from)
};

/// Registers the process group \a pgid to receive the signal that ends tailor
/// while the guard lives.
class ProcessGroupGuard {
 public:
  explicit ProcessGroupGuard(pid_t pgid);
  ~ProcessGroupGuard();
  ProcessGroupGuard(const ProcessGroupGuard&) = delete;
  ProcessGroupGuard& operator=(const ProcessGroupGuard&) = delete;

 private:
  int slot_ = -1;
};

/// While one lives, the first SIGINT/SIGTERM/SIGHUP does not end tailor: the
/// handler removes the registered files, passes the signal on to the
/// registered process groups and returns; the caller polls
/// interrupting_signal() to wind down and record what was cut short. A second
/// signal ends tailor at once.
class DeferSignals {
 public:
  DeferSignals();
  ~DeferSignals();
  DeferSignals(const DeferSignals&) = delete;
  DeferSignals& operator=(const DeferSignals&) = delete;
};

/// The signal that interrupted tailor, or 0. Set by the handler before the
/// process ends; lets code between the signal and exit tell an interrupt.
int interrupting_signal();

/// Whether \a filename is a staging name "*.tailor-tmp-<pid>" whose process is
/// gone (a leftover of a crash or a SIGKILL).
bool is_stale_temp_name(std::string_view filename);

/// Removes "*.tailor-tmp-<pid>" files (and directories) in \a dir (not recursively) whose
/// process is gone: leftovers of a crash or a SIGKILL. Returns how many.
int remove_stale_temp_files(const std::filesystem::path& dir);

/// For tests: runs what the signal handler runs (removes the registered files,
/// signals the registered groups) without ending the process.
void clean_up_registered_for_test();

}  // namespace tailor
