#include "support/fake_processes.hpp"

#include <algorithm>
#include <filesystem>

namespace tailor::test {

namespace {

std::string name_of(const ProcessSpec& spec) {
  auto it = std::find(spec.argv.begin(), spec.argv.end(), "--file");
  const std::string& arg = it != spec.argv.end() && it + 1 != spec.argv.end() ? *(it + 1) : spec.argv.back();
  return std::filesystem::path(arg).stem().string();
}

}  // namespace

ProcessResult FakeProcesses::run(const ProcessSpec& spec) {
  ran_.push_back(spec);
  return behaviour_(spec);
}

int FakeProcesses::start(const ProcessSpec& spec) {
  started_.push_back(spec);
  ProcessResult r = behaviour_(spec);
  running_.push_back({next_id_, r.started ? now_ + steps_ : now_, r.started ? r.status : 127, name_of(spec)});
  most_ = std::max(most_, static_cast<int>(running_.size()));
  events_.push_back("start " + running_.back().name);
  return next_id_++;
}

std::optional<ProcessEnd> FakeProcesses::wait_any(std::chrono::milliseconds) {
  if (running_.empty()) return std::nullopt;
  ++now_;
  auto due =
      std::min_element(running_.begin(), running_.end(), [](const Child& a, const Child& b) { return a.due < b.due; });
  if (due->due > now_) return std::nullopt;
  ProcessEnd end{due->id, due->status};
  events_.push_back("end " + due->name);
  running_.erase(due);
  return end;
}

}  // namespace tailor::test
