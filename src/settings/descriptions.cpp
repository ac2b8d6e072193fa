#include "settings/descriptions.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "settings/gpu_values.hpp"

namespace tailor {

namespace {

using Values = std::vector<std::pair<std::string, std::string>>;

// The package it builds against whose version the texts mention: the first
// companion-of or python-set-substitution need.
const PackageDef* uses(const PackageDef& p, const KnowledgeBase& kb) {
  for (const auto& n : p.needs)
    if (n.strategy == NeedStrategy::companion_of || n.strategy == NeedStrategy::python_set_substitution)
      return kb.package(n.package);
  return nullptr;
}

// The placeholders of the description templates of packages.toml.
Values template_values(const BuildSettings& s, const PackageDef& p, const KnowledgeBase& kb) {
  const Variant& v = s.variant;
  std::string what = p.display, own = v.version_of(p.name);
  if (!own.empty()) what += " " + own;
  // A set variant's texts name its SMs, not the set's name ("compute capability 7.5, 8.0, 9.0").
  std::string sm = v.sm_set.empty() ? v.sm : fmt::format("{}", fmt::join(v.sm_set, ", "));
  Values out = {{"what", what},
                {"cuda", v.cuda},
                {"sm", sm},
                {"pin_short", s.pin_short},
                {"python_packages", s.python_packages},
                {"cuda_packages", s.cuda_packages}};
  const PackageDef* base = uses(p, kb);
  std::string base_version = base ? v.version_of(base->name) : "";
  bool noted = base && !base_version.empty();
  out.insert(out.end(), {{"uses", base ? base->display : ""},
                         {"uses_version", base_version},
                         {"uses_note", noted ? fmt::format(", {} {}", base->display, base_version) : ""},
                         {"uses_bracket", noted ? fmt::format(" [{} {}]", base->display, base_version) : ""}});
  if (const CpuIsa* isa = v.isa.empty() ? nullptr : kb.isa(v.isa))
    out.insert(out.end(), {{"isa_display", isa->display},
                           {"isa_arch", isa->arch_display()},
                           {"isa_features", fmt::format("{}", fmt::join(isa->requires_features, ", "))}});
  for (auto& kv : gpu_template_values(v, kb))
    if (kv.first != "sm") out.push_back(std::move(kv));
  if (s.driver) out.emplace_back("min_driver", s.driver->floor());
  return out;
}

template <class T>
const T& for_backend(const std::vector<std::pair<std::string, T>>& own, const std::string& backend, const T& fallback) {
  for (const auto& [b, t] : own)
    if (b == backend) return t;
  return fallback;
}

}  // namespace

void describe(BuildSettings& s, const KnowledgeBase& kb) {
  const Variant& v = s.variant;
  const PackageDef& p = *kb.package(v.package);
  const BackendDef& b = *kb.backend(v.backend);
  Values values = template_values(s, p, kb);
  s.description = fill_template(for_backend(p.description, b.name, b.description), values);
  s.header_comment.clear();
  for (const auto& line : for_backend(p.header, b.name, b.header))
    s.header_comment.push_back(fill_template(line, values));
  std::vector<std::string> lines;
  for (const auto& line : b.details) lines.push_back(fill_template(line, values));
  if (!v.python.empty()) lines.push_back("Python: " + v.python);
  if (const PackageDef* base = uses(p, kb); base && !v.version_of(base->name).empty())
    lines.push_back(fmt::format("{}: {}", base->display, v.version_of(base->name)));
  for (const auto& d : s.disabled) lines.push_back(fmt::format("Disabled: {} ({})", d.feature, d.reason));
  s.long_description = fmt::format("{} build with targeted optimizations:\n", p.display);
  for (const auto& l : lines) s.long_description += "- " + l + "\n";
}

}  // namespace tailor
