#include "verify/runtime_checks.hpp"

#include <unistd.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/knowledge_base.hpp"
#include "util/find_program.hpp"
#include "util/process.hpp"
#include "util/version.hpp"
#include "verify/static_checks.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

bool executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// Runs the probe; returns its JSON, or nullopt with \a why.
// Runs the package's probe (data/probes/PROBE.py); returns its JSON, or nullopt with \a why.
std::optional<nlohmann::json> run_probe(const PythonTarget& t, const std::string& script, const std::string& mode,
                                        std::string& why) {
  ProcessSpec spec;
  spec.argv = {t.python.string(), "-c", script};
  if (!mode.empty()) spec.argv.push_back(mode);
  spec.env = {"PYTHONPATH=" + t.site_packages.string(), "PYTHONNOUSERSITE=1"};
  spec.stderr_to = ErrorStream::merged;
  ProcessResult r = system_processes().run(spec);
  if (!r.started) {
    why = "cannot start the interpreter";
    return std::nullopt;
  }
  const std::string& out = r.out;
  int status = r.status;
  // The JSON is the last line; anything before it is the interpreter's noise.
  size_t start = out.rfind("\n{");
  std::string json = out.substr(start == std::string::npos ? 0 : start + 1);
  nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    std::string tail = out.size() > 300 ? "..." + out.substr(out.size() - 300) : out;
    why = fmt::format("{} exited with status {}: {}", t.python.string(), status, tail);
    return std::nullopt;
  }
  return j;
}

std::string jstr(const nlohmann::json& j, const std::string& key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

// "2.11.0+cu130" -> "2.11.0"; "2.10.0a0+git1234" -> "2.10.0".
std::optional<Version> release_of(const std::string& v) {
  static const std::regex re(R"(^(\d+(\.\d+)*))");
  std::smatch m;
  if (!std::regex_search(v, m, re)) return std::nullopt;
  return Version::parse(m[1].str());
}

// [want, next minor of want): the range a variant's version allows.
Check range_check(const std::string& name, const std::string& what, const std::string& got, const std::string& want) {
  if (want.empty())
    return {name, CheckStatus::skipped, fmt::format("the variant does not say which {} it builds", what)};
  auto g = release_of(got);
  auto w = Version::parse(want);
  if (!g || !w) return {name, CheckStatus::failed, fmt::format("cannot read {} version '{}'", what, got)};
  auto upper = Version::parse(fmt::format("{}.{}", w->major(), w->minor() + 1));
  std::string range = fmt::format(">= {}, < {}", w->str(), upper->str());
  if (*g >= *w && *g < *upper) return {name, CheckStatus::ok, fmt::format("{} {} (allowed {})", what, got, range)};
  return {name, CheckStatus::failed,
          fmt::format("{} {} is outside {} (the variant builds {})", what, got, range, want)};
}

}  // namespace

bool nvidia_driver_present() {
  std::error_code ec;
  return fs::exists("/proc/driver/nvidia/version", ec) || fs::exists("/dev/nvidiactl", ec);
}

PythonTarget find_python(const fs::path& root_in, const std::string& python_override, const std::string& module) {
  PythonTarget t;
  std::error_code ec;
  fs::path root = fs::weakly_canonical(root_in, ec);
  if (ec) root = root_in;
  if (!fs::is_directory(root, ec)) root = root.parent_path();
  auto is_torch = [&](const fs::path& d) { return fs::exists(d / module / "__init__.py", ec); };
  if (is_torch(root)) {
    t.site_packages = root;
  } else {
    for (fs::path d = root; !d.empty() && d != d.parent_path(); d = d.parent_path())
      if (d.filename() == module && fs::exists(d / "__init__.py", ec)) {
        t.site_packages = d.parent_path();
        break;
      }
    if (t.site_packages.empty() && fs::is_directory(root / "lib", ec))
      for (const auto& e : fs::directory_iterator(root / "lib", ec))
        if (e.path().filename().string().starts_with("python") && is_torch(e.path() / "site-packages")) {
          t.site_packages = e.path() / "site-packages";
          break;
        }
  }
  if (t.site_packages.empty()) {
    t.why = fmt::format("no {} package under {}", module, root_in.string());
    return t;
  }
  // .../lib/pythonX.Y/site-packages: the prefix may hold its own interpreter.
  std::string pyver;
  fs::path lib_python = t.site_packages.parent_path();
  if (t.site_packages.filename() == "site-packages" && lib_python.filename().string().starts_with("python"))
    pyver = lib_python.filename().string().substr(6);
  if (!python_override.empty()) {
    t.python = python_override;
    t.why = "--python";
    return t;
  }
  if (!pyver.empty()) {
    fs::path prefix = lib_python.parent_path().parent_path();
    for (const char* n : {"python3", "python"})
      if (executable(prefix / "bin" / n)) {
        t.python = prefix / "bin" / n;
        t.why = "the artifact's own interpreter";
        return t;
      }
    if (fs::path p = find_program("python" + pyver); !p.empty()) {
      t.python = p;
      t.why = fmt::format("python{} on PATH", pyver);
      return t;
    }
  }
  if (fs::path p = find_program("python3"); !p.empty()) {
    t.python = p;
    t.why = "python3 on PATH";
    return t;
  }
  t.why = pyver.empty() ? "no python3 on PATH" : fmt::format("no python{} beside the artifact or on PATH", pyver);
  return t;
}

namespace {

Check cuda_version_check(const VariantPromise& p, const nlohmann::json& probe) {
  std::string cuda = jstr(probe, "cuda");
  if (p.accelerator == Accelerator::cuda)
    return cuda.empty() ? Check{"cuda-version", CheckStatus::failed, "torch.version.cuda is None: a CPU-only build"}
                        : range_check("cuda-version", "CUDA", cuda, p.cuda);
  return cuda.empty() ? Check{"cuda-version", CheckStatus::ok,
                              "torch.version.cuda is None, as a " + p.backend + " variant should be"}
                      : Check{"cuda-version", CheckStatus::failed,
                              fmt::format("a {} variant built with CUDA {}", p.backend, cuda)};
}

// cuDNN: torch reports 91300 for 9.13.0.
Check cudnn_check(const VariantPromise& p, const nlohmann::json& probe) {
  if (p.accelerator != Accelerator::cuda) return {"cudnn-version", CheckStatus::skipped, "not a CUDA variant"};
  if (!probe.contains("cudnn") || !probe["cudnn"].is_number_integer())
    return p.cudnn_disabled ? Check{"cudnn-version", CheckStatus::ok, "built without cuDNN, as promised"}
                            : Check{"cudnn-version", CheckStatus::failed, "torch reports no cuDNN"};
  int v = probe["cudnn"].get<int>();
  std::string got = fmt::format("{}.{}.{}", v / 10000, v / 100 % 100, v % 100);
  if (p.cudnn_disabled)
    return {"cudnn-version", CheckStatus::failed,
            fmt::format("built with cuDNN {} though the variant disables it", got)};
  if (p.cudnn.empty())
    return {"cudnn-version", CheckStatus::skipped,
            fmt::format("cuDNN {}; the variant's pin does not say which to expect", got)};
  // cuDNN keeps its ABI within a major: allow [pin's version, next major).
  auto g = Version::parse(got), w = Version::parse(p.cudnn);
  auto upper = Version::parse(fmt::format("{}", w ? w->major() + 1 : 0));
  bool ok = g && w && *g >= *w && *g < *upper;
  return {"cudnn-version", ok ? CheckStatus::ok : CheckStatus::failed,
          fmt::format("cuDNN {} ({} >= {}, < {})", got, ok ? "within" : "outside", p.cudnn, upper->str())};
}

Check cpu_compute_check(const nlohmann::json& probe) {
  double cpu = probe.contains("cpu_sum") && probe["cpu_sum"].is_number() ? probe["cpu_sum"].get<double>() : -1;
  // [[0,1,2],[3,4,5]] @ its transpose = [[5,14],[14,50]]: sum 83.
  return cpu == 83.0
             ? Check{"cpu-compute", CheckStatus::ok, "a 2x3 matrix product gives the right answer"}
             : Check{"cpu-compute", CheckStatus::failed, fmt::format("a 2x3 matrix product summed to {}, not 83", cpu)};
}

Check cuda_available_check(const VariantPromise& p, const nlohmann::json& probe, bool gpu_present, bool available) {
  if (p.accelerator != Accelerator::cuda) return {"cuda-available", CheckStatus::skipped, "not a CUDA variant"};
  if (!gpu_present) return {"cuda-available", CheckStatus::skipped, "no NVIDIA driver on this host"};
  return available ? Check{"cuda-available", CheckStatus::ok, fmt::format("torch sees {}", jstr(probe, "device"))}
                   : Check{"cuda-available", CheckStatus::failed,
                           "torch.cuda.is_available() is False though a driver is loaded"};
}

// torch.cuda.get_arch_list() against the fatbin scan.
// Archs torch lists that a prune record says were removed are not missing code:
// torch.cuda.get_arch_list() is fixed when torch is built, and pruning cannot change it.
Check arch_list_check(const nlohmann::json& probe, const std::vector<FatbinEntry>& entries, bool available,
                      const PruneRecords& pruned) {
  if (!available) return {"arch-list", CheckStatus::skipped, "torch reports its arch list only when CUDA is available"};
  std::set<std::string> scanned;
  for (const auto& e : entries)
    scanned.insert(e.kind == FatbinKind::ptx ? fmt::format("compute_{}", e.arch) : fmt::format("sm_{}", e.arch));
  std::vector<std::string> missing, removed;
  std::set<std::string> listed;
  for (const auto& a : probe.value("arch_list", nlohmann::json::array())) {
    std::string s = a.is_string() ? a.get<std::string>() : "";
    listed.insert(s);
    if (scanned.count(s)) continue;
    (pruned.removed.count(s) ? removed : missing).push_back(s);
  }
  std::string records;
  for (const auto& f : pruned.files) records += fmt::format("{}{}", records.empty() ? "" : ", ", f.string());
  std::string by_prune =
      removed.empty() ? ""
                      : fmt::format("; tailor prune removed {} for SM {} ({}), torch lists what it was built with",
                                    fmt::join(removed, ", "), fmt::join(pruned.sm, ", "), records);
  std::string extra;
  for (const auto& t : tally(entries)) {
    std::string plain =
        t.kind == FatbinKind::ptx ? fmt::format("compute_{}", t.number) : fmt::format("sm_{}", t.number);
    if (!listed.count(plain) || t.suffix) extra += fmt::format("{}{} ({})", extra.empty() ? "" : ", ", t.arch, t.count);
  }
  if (missing.empty())
    return {"arch-list", CheckStatus::ok,
            fmt::format("every arch torch lists has code in the fatbins{}{}",
                        removed.empty() ? "" : ", but for what was pruned",
                        (extra.empty() ? "" : "; they also carry " + extra) + by_prune)};
  // Records were read, yet none says these were removed here: name them, so the reader sees which.
  std::string unexplained = pruned.files.empty() || !removed.empty()
                                ? ""
                                : fmt::format("; no prune record read ({}) removed them from these files", records);
  return {"arch-list", CheckStatus::failed,
          fmt::format("torch lists {} but the fatbins carry no code for {}{}{}", listed.size(),
                      fmt::join(missing, ", "), by_prune, unexplained)};
}

// A tiny GPU computation, when the variant's code covers the GPU's SM.
Check gpu_compute_check(const KnowledgeBase& kb, const VariantPromise& p, const nlohmann::json& probe,
                        const std::vector<FatbinEntry>& entries, bool available,
                        const std::optional<nlohmann::json>& gpu_result) {
  if (!available)
    return {"gpu-compute", CheckStatus::skipped,
            p.accelerator == Accelerator::cuda ? "CUDA is not available here" : "not a CUDA variant"};
  auto cap = probe.value("capability", nlohmann::json::array());
  int major = cap.size() == 2 ? cap[0].get<int>() : 0, minor = cap.size() == 2 ? cap[1].get<int>() : 0;
  if (!covers(kb, entries, major, minor))
    return {"gpu-compute", CheckStatus::skipped,
            fmt::format("this GPU is SM {}.{}, which the fatbins do not cover", major, minor)};
  if (!gpu_result) return {"gpu-compute", CheckStatus::failed, "the GPU probe did not run"};
  if (gpu_result->contains("error")) return {"gpu-compute", CheckStatus::failed, jstr(*gpu_result, "error")};
  double s = gpu_result->value("gpu_sum", -1.0);
  return s == 56.0
             ? Check{"gpu-compute", CheckStatus::ok, fmt::format("a kernel ran on SM {}.{}", major, minor)}
             : Check{"gpu-compute", CheckStatus::failed, fmt::format("2*arange(8) summed to {} on the GPU, not 56", s)};
}

// ATen's runtime dispatch level, "CPU capability usage: AVX512", against the
// lowest the variant's ISA promises (cpu_isas.toml's aten_capability).
Check cpu_capability_check(const KnowledgeBase& kb, const VariantPromise& p, const nlohmann::json& probe) {
  static const std::regex cap_re(R"(CPU capability usage: (\w+))");
  std::smatch m;
  std::string config = jstr(probe, "config");
  if (!std::regex_search(config, m, cap_re))
    return {"cpu-capability", CheckStatus::skipped, "torch.__config__.show() names no CPU capability"};
  std::string got = m[1];
  std::vector<std::string> allowed;
  if (const CpuIsa* isa = kb.isa(p.isa)) allowed = kb.aten_capabilities_meeting(*isa);
  if (allowed.empty())
    return {"cpu-capability", CheckStatus::skipped,
            fmt::format("ATen dispatches to {}; not compared for ISA '{}'", got, p.isa)};
  if (std::find(allowed.begin(), allowed.end(), got) != allowed.end())
    return {"cpu-capability", CheckStatus::ok, fmt::format("ATen dispatches to {} ({} variant)", got, p.isa)};
  return {"cpu-capability", CheckStatus::failed,
          fmt::format("ATen dispatches to {}, below what the {} variant needs ({})", got, p.isa,
                      fmt::join(allowed, " or "))};
}

}  // namespace

std::vector<Check> probe_checks(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in,
                                const nlohmann::json& probe, bool gpu_present,
                                const std::optional<nlohmann::json>& gpu_result, const PruneRecords& pruned) {
  // The probe's module (packages.toml probe): the import, and its version against the variant's.
  const std::string& m = p.probe;
  std::string import = "import-" + m;
  if (probe.contains("error")) return {{import, CheckStatus::failed, jstr(probe, "error")}};
  bool available = probe.value("cuda_available", false);
  std::vector<FatbinEntry> entries = in.all_entries();
  auto want = p.versions.find(m);
  return {
      {import, CheckStatus::ok, fmt::format("{} {} from {}", m, jstr(probe, m), jstr(probe, m + "_file"))},
      range_check(m + "-version", m, jstr(probe, m), want == p.versions.end() ? std::string() : want->second),
      range_check("python-version", "Python", jstr(probe, "python"), p.python),
      cuda_version_check(p, probe),
      cudnn_check(p, probe),
      cpu_compute_check(probe),
      cuda_available_check(p, probe, gpu_present, available),
      arch_list_check(probe, entries, available, pruned),
      gpu_compute_check(kb, p, probe, promised_code(kb, p, in), available, gpu_result),
      cpu_capability_check(kb, p, probe),
  };
}

std::vector<Check> runtime_checks(const KnowledgeBase& kb, const VariantPromise& p, const Inspection& in,
                                  const fs::path& root, const std::string& python_override) {
  if (p.python.empty()) return {{"python", CheckStatus::skipped, "not a Python package"}};
  if (p.probe.empty())
    return {{"python", CheckStatus::skipped, fmt::format("package {} names no probe (packages.toml)", p.package)}};
  std::string import = "import-" + p.probe;
  PythonTarget t = find_python(root, python_override, p.probe);
  if (t.site_packages.empty()) return {{import, CheckStatus::skipped, t.why}};
  if (t.python.empty()) return {{import, CheckStatus::skipped, t.why + "; pass --python"}};
  std::string why;
  std::optional<nlohmann::json> probe = run_probe(t, p.probe_script, "", why);
  if (!probe) return {{import, CheckStatus::failed, why}};
  // An interpreter from PATH of another version cannot judge the artifact.
  std::string got = jstr(*probe, "python");
  if (t.why.find("on PATH") != std::string::npos && !p.python.empty() && !got.starts_with(p.python + "."))
    return {{import, CheckStatus::skipped,
             fmt::format("found Python {} ({}), the variant is for {}; pass --python", got, t.why, p.python)}};
  bool gpu = nvidia_driver_present();
  std::optional<nlohmann::json> gpu_result;
  if (probe->value("cuda_available", false)) {
    auto cap = probe->value("capability", nlohmann::json::array());
    if (cap.size() == 2 && covers(kb, promised_code(kb, p, in), cap[0].get<int>(), cap[1].get<int>())) {
      std::string gpu_why;
      gpu_result = run_probe(t, p.probe_script, "gpu", gpu_why);
      if (!gpu_result) gpu_result = nlohmann::json{{"error", gpu_why}};
    }
  }
  // A pruned wheel installed by pip keeps its record in site-packages/torch-*.dist-info.
  fs::path torch_file = jstr(*probe, p.probe + "_file");
  PruneRecords pruned =
      find_prune_records(root, torch_file.empty() ? fs::path() : torch_file.parent_path().parent_path());
  std::vector<Check> out = probe_checks(kb, p, in, *probe, gpu, gpu_result, pruned);
  for (const auto& problem : pruned.problems) out.front().detail += fmt::format("; unread prune record {}", problem);
  out.front().detail += fmt::format(" ({}: {})", t.why, t.python.string());
  return out;
}

}  // namespace tailor
