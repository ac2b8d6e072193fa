#include "build/build_runner.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <limits>
#include <thread>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/atomic_write.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"
#include "util/temp_files.hpp"

namespace tailor {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool builds_remotely(const BuildOptions& o, const PlannedBuild& b) { return b.heavy && !o.builders.empty(); }

std::vector<std::string> build_command(const BuildOptions& o, const PlannedBuild& b) {
  if (o.tool == "flox") return {"flox", "build", b.name};
  std::vector<std::string> cmd = {"nix", "--extra-experimental-features", "nix-command", "build", "--print-build-logs",
                                  "--file", (fs::path(o.tree) / ".flox/pkgs" / (b.name + ".nix")).string(),
                                  "--out-link", (fs::path(o.tree) / ("result-" + b.name)).string()};
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

nlohmann::json read_state(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return nlohmann::json::object();
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return nlohmann::json::object();  // a damaged state file only costs a rebuild
  }
}

void write_state(const fs::path& p, const nlohmann::json& state) {
  write_file_atomically(p, state.dump(2) + "\n");
}

pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& cwd,
            const std::string& log) {
  pid_t pid = ::fork();
  if (pid != 0) {
    if (pid > 0) ::setpgid(pid, pid);  // both sides set it: whichever runs first wins the race
    return pid;
  }
  ::setpgid(0, 0);  // its own process group: a signal to tailor reaches nix's children too (temp_files.hpp)
  for (const auto& e : env) ::putenv(const_cast<char*>(e.c_str()));  // the child's copy lives until exec
  int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::close(fd);
  }
  if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(127);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  ::_exit(127);
}

std::string run_capture(const std::vector<std::string>& argv) {
  std::string cmd;
  for (const auto& a : argv) cmd += shell_word(a) + " ";
  FILE* p = ::popen((cmd + "2>/dev/null").c_str(), "r");
  if (!p) return {};
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

std::string verdict(const BuildOptions& o, const std::string& result) {
  if (o.verifier.empty() || result.empty()) return "not run";
  std::string out = run_capture({o.verifier, "verify", result, "--json"});
  try {
    return nlohmann::json::parse(out).value("ok", false) ? "ok" : "FAILED";
  } catch (const nlohmann::json::exception&) {
    return "error";
  }
}

}  // namespace

std::vector<BuildOutcome> run_builds(const std::vector<PlannedBuild>& plan, const BuildOptions& o, std::ostream& progress_os) {
  std::error_code ec;
  fs::create_directories(o.log_dir, ec);
  if (ec) {
    Diagnostic d;
    d.path = o.log_dir;
    d.message = "cannot create the log directory: " + ec.message();
    throw DiagnosticError(d);
  }
  fs::path state_path = fs::path(o.log_dir) / "state.json";
  nlohmann::json state = o.rebuild ? nlohmann::json::object() : read_state(state_path);

  std::vector<BuildOutcome> out(plan.size());
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < plan.size(); ++i) {
    index[plan[i].name] = i;
    out[i].name = plan[i].name;
    out[i].log = (fs::path(o.log_dir) / (plan[i].name + ".log")).string();
    out[i].status = "pending";
    const auto& earlier = state.contains(plan[i].name) ? state[plan[i].name] : nlohmann::json();
    if (earlier.is_object() && earlier.value("status", "") == "succeeded") {
      out[i].status = "reused";
      out[i].result = earlier.value("result", "");
      out[i].verdict = earlier.value("verdict", "not run");
    }
  }

  auto t0 = Clock::now();
  DeferSignals defer;  // SIGINT/SIGTERM: pass it on to the builds, record them interrupted, then stop
  std::map<pid_t, ProcessGroupGuard> groups;
  std::map<pid_t, std::pair<size_t, Clock::time_point>> running;
  std::vector<std::string> running_names;  // start order, for the status line
  double local_gb = 0;                     // planned memory of the local builds running now
  bool stop = false;
  BuildProgress progress(progress_os, o.progress, o.width);
  auto counts = [&] {
    ProgressCounts c;
    c.total = out.size();
    for (const auto& r : out) {
      c.done += r.status == "succeeded" || r.status == "reused";
      c.failed += r.status == "failed" || r.status == "blocked" || r.status == "interrupted";
    }
    c.running = running_names;
    c.elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    return c;
  };
  auto local_cost = [&](size_t i) { return builds_remotely(o, plan[i]) ? 0.0 : plan[i].memory_gb; };
  for (const auto& r : out)
    if (r.status == "reused") progress.event(fmt::format("reused {} (succeeded earlier: {})", r.name, r.result), counts());

  while (true) {
    // Start what is ready, up to the job bound and, on this machine, the
    // memory budget (one build always may start, however big).
    for (size_t i = 0; i < plan.size() && !stop && static_cast<int>(running.size()) < o.jobs; ++i) {
      if (out[i].status != "pending") continue;
      bool ready = true, blocked = false;
      for (const auto& need : plan[i].needs) {
        const std::string& st = out[index.at(need)].status;
        blocked = blocked || st == "failed" || st == "blocked" || st == "not-started" || st == "interrupted";
        ready = ready && (st == "succeeded" || st == "reused");
      }
      if (blocked) {
        out[i].status = "blocked";
        progress.event(fmt::format("blocked {}: a variant it builds against failed", out[i].name), counts());
        continue;
      }
      if (!ready) continue;
      if (o.memory_gb > 0 && local_gb > 0 && local_gb + local_cost(i) > o.memory_gb) continue;
      pid_t pid = spawn(build_command(o, plan[i]), build_environment(o, plan[i]), o.tool == "flox" ? o.tree : "",
                        out[i].log);
      out[i].status = "running";
      groups.try_emplace(pid, pid);
      running[pid] = {i, Clock::now()};
      running_names.push_back(out[i].name);
      local_gb += local_cost(i);
      progress.event(fmt::format("started {} (log: {})", out[i].name, out[i].log), counts());
    }
    if (running.empty()) break;
    if (interrupting_signal()) stop = true;
    int status = 0;
    pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid == 0) {  // nothing ended: keep the clock on the status line going
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      progress.tick(counts());
      continue;
    }
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    auto [i, started] = it->second;
    running.erase(it);
    groups.erase(pid);
    std::erase(running_names, out[i].name);
    local_gb -= local_cost(i);
    BuildOutcome& r = out[i];
    r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (ok) {
      r.status = "succeeded";
      fs::path link = fs::path(o.tree) / ("result-" + r.name);
      r.result = fs::exists(link, ec) ? fs::weakly_canonical(link, ec).string() : link.string();
      r.verdict = verdict(o, r.result);
      state[r.name] = {{"status", "succeeded"}, {"result", r.result}, {"verdict", r.verdict}, {"seconds", r.seconds}};
    } else if (int sig = interrupting_signal()) {
      r.status = "interrupted";
      state[r.name] = {{"status", "interrupted"}, {"signal", sig}, {"seconds", r.seconds}};
      stop = true;
    } else {
      r.status = "failed";
      state[r.name] = {{"status", "failed"}, {"seconds", r.seconds}};
      if (!o.keep_going) stop = true;
    }
    write_state(state_path, state);
    progress.event(ok                          ? fmt::format("succeeded {} after {:.1f}s: {} (verify: {})", r.name,
                                                             r.seconds, r.result, r.verdict)
                   : r.status == "interrupted" ? fmt::format("interrupted {} after {:.1f}s (log: {})", r.name, r.seconds, r.log)
                                               : fmt::format("FAILED {} after {:.1f}s (log: {})", r.name, r.seconds, r.log),
                   counts());
  }
  progress.finish(counts());
  for (auto& r : out)
    if (r.status == "pending") r.status = stop ? "not-started" : "blocked";
  return out;
}

}  // namespace tailor
