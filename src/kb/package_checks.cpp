#include "kb/package_checks.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/knowledge_base.hpp"

namespace tailor {

namespace {

struct Checker {
  const KnowledgeBase& kb;
  const std::map<std::string, std::string_view>& texts;

  [[noreturn]] void fail(const DataPos& at, std::string message, std::string hint = {}) const {
    auto it = texts.find(at.path);
    throw DiagnosticError(
        diagnostic_at(at.path, it == texts.end() ? "" : it->second, at.pos, std::move(message), std::move(hint)));
  }

  // Placeholders of a name template: "{python}" -> "python".
  static std::vector<std::string> placeholders(const std::string& tmpl) {
    std::vector<std::string> out;
    for (const auto& seg : template_segments(tmpl))
      if (seg.size() > 2 && seg.front() == '{' && seg.back() == '}') out.push_back(seg.substr(1, seg.size() - 2));
    return out;
  }

  void backend(const BackendDef& b) const {
    for (const auto& p : placeholders(b.name_part))
      if (!b.has_axis(p))
        fail(b.name_part_at,
             fmt::format("name_part of backend '{}' names {{{}}}, an axis the backend lacks", b.name, p),
             fmt::format("its axes: {}", fmt::join(b.axes, ", ")));
  }

  void name_template(const PackageDef& p) const {
    auto segs = template_segments(p.variant_name);
    if (segs.front() != "{package}")
      fail(p.variant_name_at, fmt::format("variant_name of package '{}' must begin with {{package}}", p.name));
    if (std::find(segs.begin(), segs.end(), "{backend}") == segs.end())
      fail(p.variant_name_at, fmt::format("variant_name of package '{}' lacks {{backend}}", p.name));
    for (const auto& ph : placeholders(p.variant_name)) {
      if (ph == "package" || ph == "backend" || (ph == "python" && p.python())) continue;
      std::string why = ph == "python"
                            ? fmt::format("an axis package '{}' lacks (scope '{}')", p.name, name_of(p.scope))
                            : "not a placeholder of variant names";
      fail(p.variant_name_at, fmt::format("variant_name of package '{}' names {{{}}}, {}", p.name, ph, why),
           p.python() ? "placeholders: {package}, {python}, {backend}" : "placeholders: {package}, {backend}");
    }
  }

  void backends_of(const PackageDef& p) const {
    for (const auto& b : p.backends)
      if (!kb.backend(b))
        fail(p.at, fmt::format("package '{}' lists backend '{}', which packages.toml does not define", p.name, b),
             fmt::format("backends: {}", fmt::join(kb.backend_names(), ", ")));
    auto listed = [&](const std::string& b, const char* what) {
      if (!p.builds_for(b))
        fail(p.at, fmt::format("package '{}' has a {} for backend '{}', which it is not built for", p.name, what, b));
    };
    for (const auto& a : p.arguments) listed(a.backend, "argument");
    for (const auto& a : p.cmake_flags) listed(a.backend, "cmake_flag");
    for (const auto& d : p.description) listed(d.first, "description");
    for (const auto& h : p.header) listed(h.first, "header");
  }

  void gpu_target(const PackageDef& p) const {
    auto any = [](const std::vector<PackageArgument>& v, bool flag, std::string_view ph) {
      return std::any_of(v.begin(), v.end(), [&](const PackageArgument& a) {
        return (flag ? a.name : a.value).find(ph) != std::string::npos;
      });
    };
    bool ok = true;
    if (p.gpu_target == GpuTargetStrategy::override_argument)
      ok = any(p.arguments, false, "{sm}") || any(p.arguments, false, "{sm_list}");
    if (p.gpu_target == GpuTargetStrategy::cmake_flag) ok = any(p.cmake_flags, true, "{capability}");
    if (p.gpu_target == GpuTargetStrategy::substituted) ok = p.need(NeedStrategy::python_set_substitution) != nullptr;
    if (!p.prebuilt_of.empty() && !kb.package(p.prebuilt_of))
      fail(p.prebuilt_of_at,
           fmt::format("package '{}' is prebuilt_of '{}', which packages.toml does not define", p.name, p.prebuilt_of));
    if (!ok)
      fail(p.gpu_target_at,
           fmt::format("package '{}': gpu_target '{}' needs {}", p.name, name_of(p.gpu_target),
                       p.gpu_target == GpuTargetStrategy::override_argument ? "an argument whose value names {sm}"
                       : p.gpu_target == GpuTargetStrategy::cmake_flag      ? "a cmake_flag that names {capability}"
                                                                            : "a python-set-substitution need"));
  }

  // A package built on a cached one swaps in that one's pruned copy: it must need one.
  void cache(const PackageDef& p) const {
    if (p.cache != CacheRole::dependencies_replaced) return;
    for (const auto& n : p.needs)
      if (const PackageDef* other = kb.package(n.package); other && other->cache == CacheRole::pruned_copy) return;
    fail(p.cache_at,
         fmt::format("package '{}': cache 'dependencies-replaced' swaps in the pruned copy of a package it needs, and "
                     "it needs no package whose cache is 'pruned-copy'",
                     p.name),
         "add a [[package.needs]] on that package, or give it cache = \"pruned-copy\"");
  }

  void needs(const PackageDef& p) const {
    for (const auto& n : p.needs) {
      const PackageDef* other = kb.package(n.package);
      if (!other)
        fail(n.at, fmt::format("package '{}' needs '{}', which packages.toml does not define", p.name, n.package));
      if (n.strategy == NeedStrategy::python_set_substitution && !(p.python() && other->python()))
        fail(n.strategy_at, fmt::format("python-set-substitution swaps '{}' into the Python set of '{}': both must "
                                        "have scope 'python'",
                                        n.package, p.name));
    }
  }

  // Depth-first walk over needs; a need back into the path closes a cycle.
  void cycles(const PackageDef& p, std::vector<std::string>& path) const {
    path.push_back(p.name);
    for (const auto& n : p.needs) {
      auto at = std::find(path.begin(), path.end(), n.package);
      if (at != path.end()) {
        std::vector<std::string> cycle(at, path.end());
        cycle.push_back(n.package);
        fail(n.at, fmt::format("packages need each other in a cycle: {}", fmt::join(cycle, " -> ")),
             "a package can only need packages that do not need it back");
      }
      cycles(*kb.package(n.package), path);
    }
    path.pop_back();
  }

  // A builder file a tree can get: one the knowledge base carries (data/builders/, an overlay's builders/).
  bool builder_known(const std::string& file) const { return kb.builder_files.contains(file); }

  // The files a builder imports must exist, and what it builds must be the
  // package's own attribute: a package that names another package's builder
  // would otherwise get recipes under its name that build the other package.
  void builder(const PackageDef& p) const {
    for (size_t i = 0; i < p.builder_files.size(); ++i)
      if (!builder_known(p.builder_files[i]))
        fail(p.builder_files_at[i],
             fmt::format("package '{}': builder file '{}' is not in builders/", p.name, p.builder_files[i]),
             "an overlay's builders/X.nix is lib/X.nix");
    std::string builds = kb.builder_builds(p);
    if (!builds.empty() && builds != p.attribute)
      fail(p.builder_at,
           fmt::format("package '{}' (attribute '{}') names builder '{}', which builds the attribute '{}': its recipes "
                       "would build {} under the name of {}",
                       p.name, p.attribute, p.builder, builds, builds, p.name),
           fmt::format("give it a builder of its own: `tailor kb new-package {} --like {} -o DIR` writes an overlay "
                       "with one to edit",
                       p.name, sharer_of(p.builder, p.name)));
    if (builds.empty())
      for (const auto& q : kb.packages) {
        if (&q == &p) break;  // reported at the later of the two
        if (q.builder == p.builder && q.attribute != p.attribute)
          fail(p.builder_at,
               fmt::format("package '{}' (attribute '{}') names builder '{}', as '{}' (attribute '{}') does, and "
                           "[builds] does not say which attribute it builds",
                           p.name, p.attribute, p.builder, q.name, q.attribute),
               fmt::format("declare it in packages.toml: [builds] \"{}\" = \"{{attribute}}\" for a builder that "
                           "builds variant.attribute",
                           p.builder));
      }
  }

  // The first other package that names \a file: the one to start from.
  std::string sharer_of(const std::string& file, const std::string& self) const {
    for (const auto& q : kb.packages)
      if (q.builder == file && q.name != self) return q.name;
    return self;
  }

  void builds_table() const {
    for (const auto& [file, what] : kb.builds) {
      if (!builder_known(file))
        fail(kb.builds_at.at(file), fmt::format("[builds] names '{}', which is not in builders/", file));
      if (what.empty())
        fail(kb.builds_at.at(file), fmt::format("[builds] '{}' is empty: name the attribute it builds", file));
    }
  }

  void run() const {
    builds_table();
    for (const auto& b : kb.backends) backend(b);
    for (const auto& p : kb.packages) {
      name_template(p);
      backends_of(p);
      gpu_target(p);
      needs(p);
      cache(p);
      builder(p);
    }
    for (const auto& p : kb.packages) {
      std::vector<std::string> path;
      cycles(p, path);
    }
  }
};

}  // namespace

void check_packages(const KnowledgeBase& kb, const std::map<std::string, std::string_view>& texts) {
  Checker{kb, texts}.run();
}

}  // namespace tailor
