#pragma once
/// Child processes behind one interface: run one to its end and read its
/// output, or start several and wait for whichever ends first. tailor talks
/// to nix, git, nvidia-smi and Python through it; tests put an in-memory
/// fake in its place (tests/support/fake_processes.hpp).

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace tailor {

/// Where a child's standard error goes.
enum class ErrorStream { separate, merged, discarded };

struct ProcessSpec {
  std::vector<std::string> argv;  ///< argv[0] is looked up on PATH; no shell is involved
  std::vector<std::string> env;   ///< NAME=VALUE entries added to the inherited environment
  std::string cwd;                ///< empty: ours
  std::string log;                ///< start(): stdout and stderr both go to this file (truncated)
  /// start(): the child leads a process group of its own, which a signal to
  /// tailor is passed on to while DeferSignals lives (util/temp_files.hpp).
  bool own_group = false;
  ErrorStream stderr_to = ErrorStream::separate;  ///< run(): what happens to stderr
};

struct ProcessResult {
  bool started = false;  ///< false: the program could not be started (not on PATH)
  int status = -1;       ///< the exit status; 128 + the signal for a killed child
  std::string out;       ///< stdout (and stderr when merged)
  std::string err;       ///< stderr when separate
};

/// A background child that ended: the id start() gave it, and its exit status.
struct ProcessEnd {
  int id = 0;
  int status = -1;
};

class Processes {
 public:
  virtual ~Processes() = default;
  /// Runs \a spec to its end, capturing its output.
  virtual ProcessResult run(const ProcessSpec& spec) = 0;
  /// Starts \a spec in the background (output to spec.log); the child's id.
  /// A program that cannot be started ends at once with status 127, as a
  /// shell reports it.
  virtual int start(const ProcessSpec& spec) = 0;
  /// Waits up to \a timeout for one started child to end; nullopt: none did
  /// (or none is running).
  virtual std::optional<ProcessEnd> wait_any(std::chrono::milliseconds timeout) = 0;
};

/// The operating system's processes (posix_spawn and waitpid).
Processes& system_processes();

}  // namespace tailor
