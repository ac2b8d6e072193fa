#include "kb/gpu_arch.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "kb/read_helpers.hpp"
#include "util/formats_to.hpp"

namespace tailor {

namespace {
constexpr char kNameToken[] = "sm{}{}";
}  // namespace

std::string GpuArch::name_token() const { return fmt::format(kNameToken, capability.major(), capability.minor()); }

bool GpuArch::has_name_token(std::string_view token) const {
  return formats_to(token, kNameToken, capability.major(), capability.minor());
}

std::string GpuArch::display() const { return fmt::format("SM{}{}", capability.major(), capability.minor()); }

bool GpuArch::supported_by(const Version& cuda) const {
  if (cuda < min_cuda) return false;
  if (max_cuda && *max_cuda < cuda) return false;
  return true;
}

bool GpuArch::names_family(std::string_view name) const {
  if (name.empty()) return false;
  if (family == name || (family.starts_with(name) && family.size() > name.size() && family[name.size()] == ' '))
    return true;
  return std::find(also_called.begin(), also_called.end(), name) != also_called.end();
}

bool GpuArch::lists_product(std::string_view name) const {
  return std::find(products.begin(), products.end(), name) != products.end();
}

std::optional<std::string> sm_from_token(std::string_view t) {
  if (t.starts_with("sm_"))
    t.remove_prefix(3);
  else if (t.starts_with("sm") || t.starts_with("SM"))
    t.remove_prefix(2);
  if (t.size() < 2 || t.size() > 3) return std::nullopt;
  for (char c : t)
    if (c < '0' || c > '9') return std::nullopt;
  return fmt::format("{}.{}", t.substr(0, t.size() - 1), t.back());
}

GpuArch read_gpu_arch(TableReader& r) {
  GpuArch g;
  auto sm = r.required_string("sm");
  g.sm = sm.value;
  g.capability = require_version(r.doc(), sm, "compute capability");
  if (g.capability.size() != 2)
    throw r.doc().error_at(sm.pos, fmt::format("compute capability '{}' must be MAJOR.MINOR", sm.value));
  g.family = require_one_line(r.doc(), r.required_string("family"), "family");
  g.products = one_line_values(r.doc(), r.strings("products"), "product");
  g.also_called = one_line_values(r.doc(), r.strings("also_called"), "name");
  g.not_called = values(r.strings("not_called"));
  g.min_cuda = require_version(r.doc(), r.required_string("min_cuda"), "CUDA version");
  g.max_cuda = optional_version(r, "max_cuda");
  g.arch_specific_min_cuda = optional_version(r, "arch_specific_min_cuda");
  g.family_specific_min_cuda = optional_version(r, "family_specific_min_cuda");
  g.runs_family_specific = values(r.strings("runs_family_specific"));
  g.cudnn_last = optional_version(r, "cudnn_last");
  g.platforms = values(r.strings("platforms"));
  if (auto j = r.boolean("jetson")) g.jetson = j->value;
  g.first_driver = optional_version(r, "first_driver");
  g.last_driver = optional_version(r, "last_driver");
  if (auto b = r.boolean("driver_inferred")) g.driver_inferred = b->value;
  if (auto b = r.boolean("open_modules_only")) g.open_modules_only = b->value;
  if (auto b = r.boolean("preview")) g.preview = b->value;
  if (auto b = r.boolean("build_target")) g.build_target = b->value;
  g.driver_source = optional_text(r, "driver_source");
  g.notes = optional_text(r, "notes");
  g.source = r.required_string("source").value;
  return g;
}

}  // namespace tailor
