#include "generate/manifest.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/quote.hpp"

namespace tailor {

namespace {
std::string toml_list(const std::vector<std::string>& v) {
  std::vector<std::string> q;
  for (const auto& x : v) q.push_back(toml_string(x));
  return fmt::format("[{}]", fmt::join(q, ", "));
}
}  // namespace

// A manifest serves one kind of machine: with GPU builds for two SMs (or two
// CUDA toolkits) on one platform, priority rather than the machine would
// decide which one runs. A GPU build plus a CPU-only fallback is fine.
void require_one_gpu_build_per_platform(const std::vector<const Variant*>& chosen) {
  std::map<std::string, std::vector<std::string>> targets;  // platform -> "SM 9.0 with CUDA 12.8", first-seen order
  for (const Variant* v : chosen) {
    if (v->accelerator != Accelerator::cuda) continue;
    std::string t = fmt::format("SM {} with CUDA {}", v->sm, v->cuda);
    auto& ts = targets[v->platform];
    if (std::find(ts.begin(), ts.end(), t) == ts.end()) ts.push_back(t);
  }
  for (const auto& [platform, ts] : targets) {
    if (ts.size() < 2) continue;
    Diagnostic d;
    d.message = fmt::format(
        "the manifest holds GPU builds for {} kinds of {} machine ({}): the priority, not the "
        "machine, would decide which one runs",
        ts.size(), platform, fmt::join(ts, ", "));
    d.hint =
        "make one manifest per kind of machine: --for HOST.json (what 'tailor detect --json' wrote there) or "
        "--sm SM --isa ISA picks its builds; or name one GPU build per platform (a CPU-only fallback beside it "
        "is fine)";
    throw DiagnosticError(d);
  }
}

std::string build_env_manifest(const Spec& spec, const Matrix& m) {
  std::set<std::string> systems;
  for (const auto& v : m.variants) systems.insert(v.platform);
  std::string out = fmt::format(
      "# Build environment of {} ({}): `flox build <variant>` builds the recipes in\n"
      "# .flox/pkgs. They pin their own nixpkgs, so nothing needs installing here.\n"
      "version = 1\n\n[install]\n\n[options]\nsystems = {}\n",
      comment_text(spec.name), comment_text(spec.product),
      toml_list(std::vector<std::string>(systems.begin(), systems.end())));
  return out;
}

std::string consumer_manifest(const Spec& spec, const Matrix& m, const std::vector<std::string>& names,
                              const std::string& org) {
  std::vector<const Variant*> chosen;
  auto cpu_only = [](const Variant& v) { return v.accelerator == Accelerator::none; };
  for (const auto& n : names) {
    const Variant* v = &m.require(n, spec.path);
    if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) chosen.push_back(v);
  }
  require_one_gpu_build_per_platform(chosen);
  // Accelerated variants win file conflicts over CPU-only ones on the same system.
  std::stable_sort(chosen.begin(), chosen.end(),
                   [&](const Variant* a, const Variant* b) { return cpu_only(*a) < cpu_only(*b); });
  std::map<std::string, int> next_priority;
  std::string out = fmt::format(
      "# Installs {} variant{} of {} ({}) side by side: each resolves in its own\n"
      "# pkg-group, only on its own system; lower priority wins file conflicts.\n"
      "version = 1\n\n[install]\n",
      chosen.size(), chosen.size() == 1 ? "" : "s", comment_text(spec.name), comment_text(spec.product));
  for (const Variant* v : chosen) {
    int priority = ++next_priority[v->platform];
    out += fmt::format("\n{}.pkg-path = {}\n", toml_key(v->name), toml_string(org + "/" + v->name));
    if (std::string own = v->version_of(v->package); !own.empty())
      out += fmt::format("{}.version = {}\n", toml_key(v->name), toml_string(own));
    out += fmt::format("{}.systems = {}\n", toml_key(v->name), toml_list({v->platform}));
    out += fmt::format("{}.pkg-group = {}\n", toml_key(v->name), toml_string(v->name));
    out += fmt::format("{}.priority = {}\n", toml_key(v->name), priority);
  }
  return out;
}

}  // namespace tailor
