#include "kb/invariants.hpp"

#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/builder_imports.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/override_arguments.hpp"
#include "kb/package.hpp"
#include "kb/platform.hpp"
#include "kb/source_override.hpp"
#include "kb/workload.hpp"

namespace tailor {

namespace {

bool contains(const std::vector<std::string>& v, std::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// GPUs and ISAs are built for Linux platforms (macOS builds use Metal and the baseline).
bool linux_platform(const KnowledgeBase& kb, std::string_view system) {
  const Platform* p = kb.platform(system);
  return p && p->os == Os::gnu_linux;
}

std::string linux_platform_names(const KnowledgeBase& kb) {
  std::vector<std::string> names;
  for (const auto& p : kb.platforms.platforms)
    if (p.os == Os::gnu_linux) names.push_back(p.system);
  return fmt::format("{}", fmt::join(names, " or "));
}

bool is_hex40(const std::string& s) {
  static const std::regex re("[0-9a-f]{40}");
  return std::regex_match(s, re);
}

bool package_with_attribute(const KnowledgeBase& kb, const std::string& attribute) {
  return std::any_of(kb.packages.begin(), kb.packages.end(),
                     [&](const PackageDef& p) { return p.attribute == attribute; });
}

template <class T, class Key>
void check_unique(const std::vector<T>& v, Key key, const char* file, std::vector<std::string>& out) {
  std::set<std::string> seen;
  for (const auto& e : v)
    if (!seen.insert(key(e)).second) out.push_back(fmt::format("{}: '{}' appears twice", file, key(e)));
}

// Family-specific code runs on its own SM (runs_on.cpp, where the SM has such
// targets) and on later ones of the same major: a GPU lists only earlier SMs of
// its major.
void check_family_specific(const KnowledgeBase& kb, const GpuArch& g, std::vector<std::string>& out) {
  const char* f = "gpu_architectures.toml";
  for (const auto& sm : g.runs_family_specific) {
    const GpuArch* other = kb.gpu(sm);
    if (!other)
      out.push_back(fmt::format("{}: SM {}: runs_family_specific names unknown SM '{}'", f, g.sm, sm));
    else if (other->capability.major() != g.capability.major() || g.capability < other->capability)
      out.push_back(fmt::format("{}: SM {}: runs_family_specific '{}' is not an earlier SM of its major", f, g.sm, sm));
  }
}

void check_gpus(const KnowledgeBase& kb, std::vector<std::string>& out) {
  const char* f = "gpu_architectures.toml";
  check_unique(
      kb.gpus, [](const GpuArch& g) { return g.sm; }, f, out);
  auto known_cuda = [&](const std::optional<Version>& v, const GpuArch& g, const char* key) {
    if (v && !kb.cuda(v->str()))
      out.push_back(fmt::format("{}: SM {}: {} {} is not a toolkit of cuda_toolkits.toml", f, g.sm, key, v->str()));
  };
  for (const auto& g : kb.gpus) {
    known_cuda(g.min_cuda, g, "min_cuda");
    known_cuda(g.max_cuda, g, "max_cuda");
    known_cuda(g.arch_specific_min_cuda, g, "arch_specific_min_cuda");
    known_cuda(g.family_specific_min_cuda, g, "family_specific_min_cuda");
    if (g.max_cuda && *g.max_cuda < g.min_cuda)
      out.push_back(fmt::format("{}: SM {}: max_cuda is below min_cuda", f, g.sm));
    if (g.arch_specific_min_cuda && *g.arch_specific_min_cuda < g.min_cuda)
      out.push_back(fmt::format("{}: SM {}: arch_specific_min_cuda is below min_cuda", f, g.sm));
    if (g.products.empty()) out.push_back(fmt::format("{}: SM {}: no products", f, g.sm));
    if (g.platforms.empty()) out.push_back(fmt::format("{}: SM {}: no platforms", f, g.sm));
    for (const auto& p : g.platforms)
      if (!linux_platform(kb, p))
        out.push_back(fmt::format("{}: SM {}: '{}' is not a Linux platform tailor knows", f, g.sm, p));
    if (g.jetson && g.platforms != std::vector<std::string>{"aarch64-linux"})
      out.push_back(fmt::format("{}: SM {}: Jetson-class GPUs are aarch64-linux only", f, g.sm));
    check_family_specific(kb, g, out);
    // Driver facts carry their source; a GPU's first branch precedes its last.
    if ((g.first_driver || g.last_driver) && g.driver_source.empty())
      out.push_back(fmt::format("{}: SM {}: driver branches without driver_source", f, g.sm));
    if (!g.driver_source.empty() && !g.first_driver && !g.last_driver)
      out.push_back(fmt::format("{}: SM {}: driver_source without a driver branch", f, g.sm));
    if (g.driver_inferred && !g.first_driver)
      out.push_back(fmt::format("{}: SM {}: driver_inferred without first_driver", f, g.sm));
    if (g.first_driver && g.last_driver && g.last_driver->major() < g.first_driver->major())
      out.push_back(fmt::format("{}: SM {}: last_driver is below first_driver", f, g.sm));
    for (const auto* d : {&g.first_driver, &g.last_driver})
      if (*d && (d->value().major() < 300 || d->value().major() >= 1000))
        out.push_back(fmt::format("{}: SM {}: driver {} is no Linux driver branch", f, g.sm, d->value().str()));
    bool some_toolkit =
        std::any_of(kb.cudas.begin(), kb.cudas.end(), [&](const CudaToolkit& c) { return g.supported_by(c.version); });
    if (!some_toolkit) out.push_back(fmt::format("{}: SM {}: no toolkit of cuda_toolkits.toml supports it", f, g.sm));
  }
}

void check_cudas(const KnowledgeBase& kb, std::vector<std::string>& out) {
  const char* f = "cuda_toolkits.toml";
  check_unique(
      kb.cudas, [](const CudaToolkit& c) { return c.version.str(); }, f, out);
  for (const auto& c : kb.cudas) {
    if (c.minor_compat_driver && c.min_driver && *c.min_driver < *c.minor_compat_driver)
      out.push_back(fmt::format("{}: CUDA {}: minor_compat_driver is above min_driver", f, c.version.str()));
    if (!c.lowest_driver())
      out.push_back(fmt::format("{}: CUDA {}: neither min_driver nor minor_compat_driver", f, c.version.str()));
    if (c.max_gcc && *c.max_gcc < 4)
      out.push_back(fmt::format("{}: CUDA {}: max_gcc {} is implausible", f, c.version.str(), *c.max_gcc));
  }
  // A newer toolkit never needs an older driver.
  std::vector<const CudaToolkit*> sorted;
  for (const auto& c : kb.cudas)
    if (c.min_driver) sorted.push_back(&c);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->version < b->version; });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (*sorted[i]->min_driver < *sorted[i - 1]->min_driver)
      out.push_back(fmt::format("{}: CUDA {} needs an older driver than CUDA {}", f, sorted[i]->version.str(),
                                sorted[i - 1]->version.str()));
}

void check_isas(const KnowledgeBase& kb, std::vector<std::string>& out) {
  const char* f = "cpu_isas.toml";
  check_unique(
      kb.isas, [](const CpuIsa& i) { return i.name; }, f, out);
  for (const auto& i : kb.isas) {
    if (!std::regex_match(i.name, std::regex("[a-z0-9_]+")))
      out.push_back(
          fmt::format("{}: ISA '{}': names may hold only a-z, 0-9 and _ (they are part of variant names)", f, i.name));
    if (!linux_platform(kb, i.platform))
      out.push_back(
          fmt::format("{}: ISA {}: platform '{}' is not {}", f, i.name, i.platform, linux_platform_names(kb)));
    const Platform* platform = kb.platform(i.platform);
    bool x86 = platform && platform->arch == "x86_64";
    if (x86 != !i.x86_64_level.empty())
      out.push_back(fmt::format("{}: ISA {}: x86_64_level is required on x86_64 and meaningless elsewhere", f, i.name));
    // A baseline (no flags) is the platform's default target: it requires nothing and ranks lowest.
    if (i.flags.empty() != i.requires_features.empty())
      out.push_back(
          fmt::format("{}: ISA {}: a target without compiler flags is a baseline and requires no CPU "
                      "features; one with flags requires what they enable",
                      f, i.name));
    for (const auto& other : kb.isas)
      if (i.baseline() && &other != &i && other.platform == i.platform && other.rank <= i.rank)
        out.push_back(fmt::format("{}: ISA {}: a baseline must rank below every other target of {} ({} ranks {})", f,
                                  i.name, i.platform, other.name, other.rank));
    if (!i.word.empty() && !std::regex_match(i.word, std::regex("[a-z0-9_]+")))
      out.push_back(fmt::format("{}: ISA {}: its word '{}' may hold only a-z, 0-9 and _", f, i.name, i.word));
    for (const auto& other : kb.isas)
      if (&other != &i && other.word == i.word && &other < &i)
        out.push_back(
            fmt::format("{}: ISA {}: word '{}' also names ISA {} in variant names", f, i.name, i.word, other.name));
    for (const auto& a : i.aliases)
      for (const auto& other : kb.isas)
        if (other.name == a || (&other != &i && std::count(other.aliases.begin(), other.aliases.end(), a)))
          out.push_back(fmt::format("{}: ISA {}: alias '{}' also names ISA {}", f, i.name, a, other.name));
    if (!i.disable.empty() && i.disable_reason.empty())
      out.push_back(fmt::format("{}: ISA {}: 'disable' needs a 'disable_reason'", f, i.name));
    if (!i.cmake_force_off.empty() && i.cmake_force_off_reason.empty())
      out.push_back(fmt::format("{}: ISA {}: 'cmake_force_off' needs a 'cmake_force_off_reason'", f, i.name));
    if (!i.workload.empty() && !contains(workload_names(), i.workload))
      out.push_back(fmt::format("{}: ISA {}: unknown workload '{}'", f, i.name, i.workload));
    if (!i.aten_capability.empty()) {
      auto caps = kb.aten_capabilities.find(i.platform);
      if (caps == kb.aten_capabilities.end() || !contains(caps->second, i.aten_capability))
        out.push_back(fmt::format("{}: ISA {}: aten_capability '{}' is not one of [aten_capabilities] for {}", f,
                                  i.name, i.aten_capability, i.platform));
    }
    // The features the flags let the compiler use must all be required, and
    // every required feature must come from some flag.
    std::set<std::string> implied;
    for (const auto& flag : i.flags) {
      if (flag.starts_with("-mno-")) continue;
      auto it = kb.flag_features.find(flag);
      if (it == kb.flag_features.end()) {
        out.push_back(fmt::format("{}: ISA {}: flag '{}' has no [flag_features] entry", f, i.name, flag));
        continue;
      }
      implied.insert(it->second.begin(), it->second.end());
    }
    for (const auto& feat : implied)
      if (!contains(i.requires_features, feat))
        out.push_back(
            fmt::format("{}: ISA {}: its flags use '{}' but it does not require that feature", f, i.name, feat));
    for (const auto& feat : i.requires_features)
      if (!implied.count(feat))
        out.push_back(fmt::format("{}: ISA {}: requires '{}' but no flag uses it", f, i.name, feat));
  }
}

void check_pins(const KnowledgeBase& kb, std::vector<std::string>& out) {
  const char* f = "nixpkgs_pins.toml";
  check_unique(
      kb.pins, [](const NixpkgsPin& p) { return p.short_rev; }, f, out);
  check_unique(
      kb.pins, [](const NixpkgsPin& p) { return p.rev; }, f, out);
  for (const auto& p : kb.pins) {
    if (!is_hex40(p.rev))
      out.push_back(fmt::format("{}: pin {}: rev '{}' is not 40 hex digits", f, p.short_rev, p.rev));
    if (p.short_rev.size() < 7 || !p.rev.starts_with(p.short_rev))
      out.push_back(fmt::format("{}: pin {}: short revision is not a prefix (7+ digits) of rev", f, p.short_rev));
    if (!p.sha256.empty() && !is_nix_sha256(p.sha256))
      out.push_back(fmt::format("{}: pin {}: sha256 '{}' is not a Nix sha256 hash", f, p.short_rev, p.sha256));
    if (p.python.empty()) out.push_back(fmt::format("{}: pin {}: provides no Python", f, p.short_rev));
    for (const auto& py : p.python)
      if (!kb.python(py))
        out.push_back(fmt::format("{}: pin {}: Python {} is not in python_versions.toml", f, p.short_rev, py));
    if (!p.python_default.empty() && !contains(p.python, p.python_default))
      out.push_back(
          fmt::format("{}: pin {}: python_default {} is not among its Pythons", f, p.short_rev, p.python_default));
    for (const auto& c : p.cuda)
      if (!kb.cuda(c))
        out.push_back(fmt::format("{}: pin {}: CUDA {} is not in cuda_toolkits.toml", f, p.short_rev, c));
    // A package whose pins record its version is one they ship: its pinned
    // function takes every argument the recipes pass (packages.toml).
    std::set<std::string> attributes;
    for (const auto& pkg : kb.packages)
      if (pkg.version_in_pins) attributes.insert(pkg.attribute);
    // What a pin records of a function's formals lies within what a source
    // states for the release the pin ships (kb/recipe_formals.hpp).
    for (const auto& [attr, v] : p.versions) {
      const std::vector<std::string>* args = p.arguments_of(attr);
      std::vector<std::string> stated = expected_formals(kb.formals, attr, v);
      if (!args || stated.empty()) continue;
      for (const auto& a : *args)
        if (!contains(stated, a))
          out.push_back(fmt::format("{}: pin {}: {} names '{}', which no source states {} {} takes", f, p.short_rev,
                                    p.arguments_field(attr), a, attr, v.str()));
    }
    for (const auto& [set, c] : p.cuda_sets)
      if (!kb.cuda(c))
        out.push_back(fmt::format("{}: pin {}: {} is CUDA {}, not in cuda_toolkits.toml", f, p.short_rev, set, c));
    for (const auto& attr : attributes) {
      const std::vector<std::string>* args = p.arguments_of(attr);
      for (const auto& a : override_arguments(kb, attr))
        if (!args || !contains(*args, a))
          out.push_back(fmt::format("{}: pin {}: {} lacks '{}', which tailor's recipes pass", f, p.short_rev,
                                    p.arguments_field(attr), a));
    }
  }
}

void check_pythons(const KnowledgeBase& kb, std::vector<std::string>& out) {
  const char* f = "python_versions.toml";
  check_unique(
      kb.pythons, [](const PythonVersion& p) { return p.version; }, f, out);
  for (const auto& p : kb.pythons)
    if (!std::regex_match(p.version, std::regex("3\\.[0-9]{1,2}")))
      out.push_back(fmt::format("{}: '{}' is not a CPython 3.X version", f, p.version));
}

// A workaround's effects reach its packages' builders as `workarounds.KEY`:
// each key once, none that source overrides fill (ATTRSource,
// ATTRExtraSources, clearPatches, versionTxt), and each read by a builder of
// the packages it applies to (or the builders these import), so no effect is
// silently dropped.
void check_effect_keys(const KnowledgeBase& kb, const Workaround& w, std::vector<std::string>& out) {
  const char* f = "workarounds.toml";
  std::vector<std::string> roots;
  for (const auto& name : w.packages)
    if (const PackageDef* p = kb.package(name)) roots.push_back(p->builder);
  std::set<std::string> builders = builders_used(roots, {}, kb);
  std::set<std::string> seen;
  for (const auto& key : effect_keys(w)) {
    if (!seen.insert(key).second) out.push_back(fmt::format("{}: {}: effect key '{}' is given twice", f, w.id, key));
    if (key == "clearPatches" || key == "versionTxt" || key.ends_with("Source") || key.ends_with("ExtraSources"))
      out.push_back(fmt::format("{}: {}: effect key '{}' is one a source override fills", f, w.id, key));
    std::regex word("(^|[^A-Za-z0-9_'-])" + key + "($|[^A-Za-z0-9_'-])");
    bool read = std::any_of(builders.begin(), builders.end(),
                            [&](const std::string& b) { return std::regex_search(kb.builder_files.at(b), word); });
    if (!read && !builders.empty())
      out.push_back(fmt::format("{}: {}: effect key '{}' is read by no builder of its packages ({})", f, w.id, key,
                                fmt::join(builders, ", ")));
  }
}

void check_workarounds(const KnowledgeBase& kb, std::vector<std::string>& out) {
  const char* f = "workarounds.toml";
  check_unique(
      kb.workarounds, [](const Workaround& w) { return w.id; }, f, out);
  for (const auto& w : kb.workarounds) {
    for (const auto& p : w.pins)
      if (!kb.pin(p)) out.push_back(fmt::format("{}: {}: pin '{}' is not in nixpkgs_pins.toml", f, w.id, p));
    for (const auto& c : w.cuda)
      if (!kb.cuda(c)) out.push_back(fmt::format("{}: {}: CUDA {} is not in cuda_toolkits.toml", f, w.id, c));
    for (const auto& p : w.packages)
      if (!kb.package(p)) out.push_back(fmt::format("{}: {}: unknown package '{}'", f, w.id, p));
    if (w.packages.empty()) out.push_back(fmt::format("{}: {}: names no packages", f, w.id));
    auto check_attribute = [&](const std::string& a, std::string_view key) {
      if (!package_with_attribute(kb, a))
        out.push_back(fmt::format("{}: {}: {} names '{}', the nixpkgs attribute of no package", f, w.id, key, a));
    };
    for (const auto& r : w.requested) check_attribute(r.first, "requested");
    if (w.source_override) check_attribute(w.source_override->attribute, "source_override.attribute");
    for (const auto& p : w.patches)
      if (!is_hex40(p.commit.rev))
        out.push_back(fmt::format("{}: {}: patch {} commit is not 40 hex digits", f, w.id, p.key));
    check_effect_keys(kb, w, out);
  }
}

// Pins record versions of packages whose definitions say so, and only those.
void check_package_versions(const KnowledgeBase& kb, std::vector<std::string>& out) {
  const char* f = "packages.toml";
  check_unique(
      kb.packages, [](const PackageDef& p) { return p.name; }, f, out);
  check_unique(
      kb.backends, [](const BackendDef& b) { return b.name; }, f, out);
  if (kb.packages.empty()) out.push_back(fmt::format("{}: defines no package", f));
  auto pinned = [&](const std::string& attr) {
    return std::any_of(kb.packages.begin(), kb.packages.end(),
                       [&](const PackageDef& p) { return p.version_in_pins && p.attribute == attr; });
  };
  const PackageDef* headline = kb.package(kb.headline);
  if (!headline || !headline->version_in_pins)
    out.push_back(fmt::format("{}: headline '{}' is no package with version_in_pins", f, kb.headline));
  for (const auto& k : kb.json_version_keys)
    if (!pinned(k))
      out.push_back(
          fmt::format("{}: json_version_keys: '{}' is no attribute of a package with "
                      "version_in_pins",
                      f, k));
  for (const auto& p : kb.pins)
    for (const auto& [attr, v] : p.versions)
      if (!pinned(attr))
        out.push_back(
            fmt::format("nixpkgs_pins.toml: pin {}: versions names '{}', no attribute of a package with "
                        "version_in_pins",
                        p.short_rev, attr));
  for (const auto& p : kb.packages)
    if (p.name.empty() || p.name.find_first_of("{}/ ") != std::string::npos || p.name.front() == '-')
      out.push_back(fmt::format("{}: package name '{}' is not a word with dashes", f, p.name));
  // Every builder is data: data/builders/, an overlay's builders/.
  for (const auto& p : kb.packages)
    if (!kb.builder_files.contains(p.builder))
      out.push_back(fmt::format("{}: package {}: builder '{}' is not in builders/", f, p.name, p.builder));
}

// A builder's own imports (./common.nix) are builders too: a tree that gets
// the builder gets them, so they must exist.
void check_builder_imports(const KnowledgeBase& kb, std::vector<std::string>& out) {
  for (const auto& [name, text] : kb.builder_files)
    for (const auto& i : relative_nix_imports(text, "lib/"))
      if (!kb.builder_files.contains(i))
        out.push_back(fmt::format("builders: {} imports '{}', which is not in builders/", name, i));
}

// platforms.toml: at least one platform, and the drift job's runner (an overlay may replace them, not remove them).
void check_platforms(const KnowledgeBase& kb, std::vector<std::string>& out) {
  const char* f = "platforms.toml";
  if (kb.platforms.platforms.empty()) out.push_back(fmt::format("{}: no [[platform]] entries", f));
  if (kb.platforms.drift_github_runs_on.empty() || kb.platforms.drift_gitlab_tags.empty())
    out.push_back(fmt::format("{}: [drift_job] must name github_runs_on and gitlab_tags", f));
}

}  // namespace

std::vector<std::string> check_invariants(const KnowledgeBase& kb) {
  std::vector<std::string> out;
  check_platforms(kb, out);
  check_gpus(kb, out);
  check_cudas(kb, out);
  check_isas(kb, out);
  check_pins(kb, out);
  check_pythons(kb, out);
  check_workarounds(kb, out);
  check_package_versions(kb, out);
  check_builder_imports(kb, out);
  return out;
}

}  // namespace tailor
