#pragma once
/// An in-memory stand-in for the operating system's processes: nothing is
/// spawned and nothing sleeps. A started child runs for a number of steps of
/// a virtual clock; each wait_any() advances the clock one step and ends the
/// child due first (the earliest started among equals), or times out.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "util/process.hpp"

namespace tailor::test {

class FakeProcesses : public Processes {
 public:
  /// What a child does: its exit status and output (started = false: not on PATH).
  using Behaviour = std::function<ProcessResult(const ProcessSpec&)>;

  explicit FakeProcesses(Behaviour behaviour, int steps = 2) : behaviour_(std::move(behaviour)), steps_(steps) {}

  ProcessResult run(const ProcessSpec& spec) override;
  int start(const ProcessSpec& spec) override;
  std::optional<ProcessEnd> wait_any(std::chrono::milliseconds timeout) override;

  /// Every start() so far, in order.
  const std::vector<ProcessSpec>& started() const { return started_; }
  /// Every run() so far, in order.
  const std::vector<ProcessSpec>& ran() const { return ran_; }
  /// The most children that ran at once.
  int most_at_once() const { return most_; }
  /// "start NAME" and "end NAME" events, NAME being the last argument with a
  /// path's directories and a .nix extension removed.
  const std::vector<std::string>& events() const { return events_; }

 private:
  struct Child {
    int id = 0;
    long due = 0;
    int status = 0;
    std::string name;
  };
  Behaviour behaviour_;
  int steps_;
  long now_ = 0;
  int next_id_ = 1;
  int most_ = 0;
  std::vector<Child> running_;
  std::vector<ProcessSpec> started_, ran_;
  std::vector<std::string> events_;
};

}  // namespace tailor::test
