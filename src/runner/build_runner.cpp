#include "runner/build_runner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "runner/build_state.hpp"
#include "util/atomic_write.hpp"
#include "util/check_status.hpp"
#include "util/diagnostic.hpp"
#include "util/temp_files.hpp"

namespace tailor {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool builds_remotely(const BuildOptions& o, const PlannedBuild& b) { return b.heavy && !o.builders.empty(); }

std::vector<std::string> build_command(const BuildOptions& o, const PlannedBuild& b) {
  if (o.tool == "flox") return {"flox", "build", b.name};
  std::vector<std::string> cmd = {"nix",
                                  "--extra-experimental-features",
                                  "nix-command",
                                  "build",
                                  "--print-build-logs",
                                  "--file",
                                  (fs::path(o.tree) / ".flox/pkgs" / (b.name + ".nix")).string(),
                                  "--out-link",
                                  (fs::path(o.tree) / ("result-" + b.name)).string()};
  if (!o.builders.empty()) {
    cmd.push_back("--builders");
    cmd.push_back(o.builders);
  }
  if (builds_remotely(o, b)) {
    cmd.push_back("--max-jobs");
    cmd.push_back("0");
  }
  if (o.keep_going) cmd.push_back("--keep-going");
  return cmd;
}

std::vector<std::string> build_environment(const BuildOptions& o, const PlannedBuild& b) {
  if (o.tool != "flox" || o.builders.empty()) return {};
  std::string conf;
  if (const char* old = std::getenv("NIX_CONFIG")) conf = std::string(old) + "\n";
  conf += "builders = " + o.builders;
  if (builds_remotely(o, b)) conf += "\nmax-jobs = 0";
  return {"NIX_CONFIG=" + conf};
}

double available_memory_gb(const std::string& meminfo) {
  std::ifstream in(meminfo);
  std::string key;
  double kb = 0;
  while (in >> key) {
    if (key == "MemAvailable:" && in >> kb) return kb / (1024.0 * 1024.0);
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

namespace {

struct VerifySaid {
  Verdict verdict;
  std::string message;
};

// What verify said about a result: the failed checks, or why it could not judge.
VerifySaid verdict(const BuildOptions& o, const std::string& result, Processes& processes) {
  if (o.verifier.empty() || result.empty()) return {Verdict::not_run, ""};
  ProcessSpec verify;
  verify.argv = {o.verifier, "verify", result, "--json"};
  verify.stderr_to = ErrorStream::separate;
  ProcessResult run = processes.run(verify);
  std::string stderr_text = run.err;
  while (!stderr_text.empty() && stderr_text.back() == '\n') stderr_text.pop_back();
  nlohmann::json j = nlohmann::json::parse(run.out, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return {Verdict::error, stderr_text.empty() ? "tailor verify printed no report" : stderr_text};
  if (j.value("ok", false)) return {Verdict::ok, ""};
  std::string failed;
  for (const auto& c : j.value("checks", nlohmann::json::array()))
    if (c.is_object() && kCheckStatusJson.parse(c.value("status", "")) == CheckStatus::failed)
      failed += fmt::format("{}{}: {}", failed.empty() ? "" : "; ", c.value("name", "?"), c.value("detail", ""));
  return {Verdict::failed, failed.empty() ? stderr_text : failed};
}

// Appends verify's verdict to the build's log, so the log says why too.
void log_verdict(const BuildOutcome& r) {
  if (r.verdict == Verdict::not_run) return;
  // Never through a link: a link put there since the build started is not written through.
  int fd = ::open(r.log.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  std::string text = "\ntailor verify " + r.result + ": " + std::string(name_of(r.verdict)) +
                     (r.verify_message.empty() ? "" : "\n" + r.verify_message) + "\n";
  for (size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
}

void create_log_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!ec) return;
  Diagnostic d;
  d.path = dir;
  d.message = "cannot create the log directory: " + ec.message();
  throw DiagnosticError(d);
}

// run_builds' loop: start what is ready, wait for one build to end, record it.
class BuildLoop {
 public:
  BuildLoop(const std::vector<PlannedBuild>& plan, const BuildOptions& o, std::ostream& progress, Processes& processes)
      : plan_(plan), o_(o), processes_(processes), progress_(progress, o.progress, o.width), out_(plan.size()) {
    state_path_ = fs::path(o.log_dir) / "state.json";
    state_ = o.rebuild ? BuildState{} : read_build_state(state_path_);
  }

  std::vector<BuildOutcome> run() {
    DeferSignals defer;  // SIGINT/SIGTERM: passed on to the builds' process groups; record them interrupted, then stop
    resume();
    while (true) {
      start_ready();
      if (running_.empty()) break;
      if (interrupting_signal()) stop_ = true;
      auto ended = processes_.wait_any(std::chrono::milliseconds(100));
      if (!ended) {  // nothing ended: keep the clock on the status line going
        progress_.tick(counts());
        continue;
      }
      finish(*ended);
    }
    progress_.finish(counts());
    for (auto& r : out_)
      if (r.status == BuildStatus::pending) r.status = stop_ ? BuildStatus::not_started : BuildStatus::blocked;
    return std::move(out_);
  }

 private:
  // Every build pending, but those that succeeded in an earlier run (the state file).
  void resume() {
    for (size_t i = 0; i < plan_.size(); ++i) {
      index_[plan_[i].name] = i;
      out_[i].name = plan_[i].name;
      out_[i].log = (fs::path(o_.log_dir) / (plan_[i].name + ".log")).string();
      out_[i].status = BuildStatus::pending;
      auto earlier = state_.builds.find(plan_[i].name);
      const BuildRecord* record = earlier == state_.builds.end() ? nullptr : &earlier->second;
      out_[i].why = o_.rebuild ? "--rebuild" : rebuild_reason(record, plan_[i].inputs);
      if (out_[i].why.empty()) {
        out_[i].status = BuildStatus::reused;
        out_[i].result = record->result;
        out_[i].verdict = record->verdict == Verdict::none ? Verdict::not_run : record->verdict;
        out_[i].verify_message = record->verify_message;
      }
    }
    if (!state_.note.empty()) progress_.event(state_.note, counts());
    for (const auto& r : out_)
      if (r.status == BuildStatus::reused)
        progress_.event(fmt::format("reused {} (succeeded earlier: {})", r.name, r.result), counts());
  }

  // Starts what is ready, up to the job bound and, on this machine, the
  // memory budget (one build always may start, however big).
  void start_ready() {
    for (size_t i = 0; i < plan_.size() && !stop_ && static_cast<int>(running_.size()) < o_.jobs; ++i) {
      if (out_[i].status != BuildStatus::pending) continue;
      bool ready = true, blocked = false;
      for (const auto& need : plan_[i].needs) {
        BuildStatus st = out_[index_.at(need)].status;
        blocked = blocked || went_wrong(st);
        ready = ready && has_result(st);
      }
      if (blocked) {
        out_[i].status = BuildStatus::blocked;
        progress_.event(fmt::format("blocked {}: a variant it builds against failed", out_[i].name), counts());
        continue;
      }
      if (!ready) continue;
      if (o_.memory_gb > 0 && local_gb_ > 0 && local_gb_ + local_cost(i) > o_.memory_gb) continue;
      start(i);
    }
  }

  void start(size_t i) {
    ProcessSpec build;
    build.argv = build_command(o_, plan_[i]);
    build.env = build_environment(o_, plan_[i]);
    build.cwd = o_.tool == "flox" ? o_.tree : "";
    build.log = out_[i].log;
    // A link where the log goes (left by someone else) is removed, never followed: the build's
    // output would overwrite whatever it points at. The open itself does not follow one either.
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(build.log, ec))) fs::remove(build.log, ec);
    build.own_group = true;  // a signal to tailor reaches nix's compilers too (util/temp_files.hpp)
    int id = processes_.start(build);
    out_[i].status = BuildStatus::running;
    running_[id] = {i, Clock::now()};
    running_names_.push_back(out_[i].name);
    local_gb_ += local_cost(i);
    std::string rebuilt = out_[i].why == kNotBuiltBefore ? "" : "rebuilt: " + out_[i].why + "; ";
    progress_.event(fmt::format("started {} ({}log: {})", out_[i].name, rebuilt, out_[i].log), counts());
  }

  void finish(const ProcessEnd& ended) {
    auto it = running_.find(ended.id);
    if (it == running_.end()) return;
    auto [i, started] = it->second;
    running_.erase(it);
    std::erase(running_names_, out_[i].name);
    local_gb_ -= local_cost(i);
    BuildOutcome& r = out_[i];
    r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    bool ok = ended.status == 0;
    if (ok) {
      r.status = BuildStatus::succeeded;
      std::error_code ec;
      fs::path link = fs::path(o_.tree) / ("result-" + r.name);
      r.result = fs::exists(link, ec) ? fs::weakly_canonical(link, ec).string() : link.string();
      auto [v, message] = verdict(o_, r.result, processes_);
      r.verdict = v;
      r.verify_message = message;
      log_verdict(r);
      state_.builds[r.name] = {r.status, r.result, r.verdict, r.verify_message, r.seconds, plan_[i].inputs};
    } else if (interrupting_signal()) {
      r.status = BuildStatus::interrupted;  // builds again next time (rebuild_reason: its earlier build interrupted)
      state_.builds[r.name] = {r.status, "", Verdict::none, "", r.seconds, plan_[i].inputs};
      stop_ = true;
    } else {
      r.status = BuildStatus::failed;
      state_.builds[r.name] = {r.status, "", Verdict::none, "", r.seconds, plan_[i].inputs};
      if (!o_.keep_going) stop_ = true;
    }
    write_build_state(state_path_, state_);
    std::string said = r.verify_message.empty() ? "" : ": " + r.verify_message;
    progress_.event(ok ? fmt::format("succeeded {} after {:.1f}s: {} (verify: {}{})", r.name, r.seconds, r.result,
                                     name_of(r.verdict), said)
                    : r.status == BuildStatus::interrupted
                        ? fmt::format("interrupted {} after {:.1f}s (log: {})", r.name, r.seconds, r.log)
                        : fmt::format("FAILED {} after {:.1f}s (log: {})", r.name, r.seconds, r.log),
                    counts());
  }

  ProgressCounts counts() const {
    ProgressCounts c;
    c.total = out_.size();
    for (const auto& r : out_) {
      c.done += has_result(r.status);
      c.failed += went_wrong(r.status) && r.status != BuildStatus::not_started;
    }
    c.running = running_names_;
    c.elapsed = std::chrono::duration<double>(Clock::now() - t0_).count();
    return c;
  }

  double local_cost(size_t i) const { return builds_remotely(o_, plan_[i]) ? 0.0 : plan_[i].memory_gb; }

  const std::vector<PlannedBuild>& plan_;
  const BuildOptions& o_;
  Processes& processes_;
  BuildProgress progress_;
  std::vector<BuildOutcome> out_;
  std::map<std::string, size_t> index_;
  fs::path state_path_;
  BuildState state_;
  Clock::time_point t0_ = Clock::now();
  std::map<int, std::pair<size_t, Clock::time_point>> running_;
  std::vector<std::string> running_names_;  // start order, for the status line
  double local_gb_ = 0;                     // planned memory of the local builds running now
  bool stop_ = false;
};

}  // namespace

std::vector<BuildOutcome> run_builds(const std::vector<PlannedBuild>& plan, const BuildOptions& o,
                                     std::ostream& progress, Processes& processes) {
  create_log_dir(o.log_dir);
  return BuildLoop(plan, o, progress, processes).run();
}

}  // namespace tailor
