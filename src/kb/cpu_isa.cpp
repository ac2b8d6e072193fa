#include "kb/cpu_isa.hpp"

#include "kb/read_helpers.hpp"

namespace tailor {

std::string CpuIsa::arch_display() const { return platform.starts_with("x86_64") ? "x86-64" : "aarch64"; }

CpuIsa read_cpu_isa(TableReader& r) {
  CpuIsa i;
  i.name = r.required_string("name").value;
  auto word = r.string("word");
  i.word = word ? word->value : i.name;
  i.display = require_one_line(r.doc(), r.required_string("display"), "display name");
  i.platform = r.required_string("platform").value;
  i.flags = one_line_values(r.doc(), r.strings("flags"), "flag");
  i.requires_features = values(r.strings("requires"));
  i.x86_64_level = optional_text(r, "x86_64_level");
  i.rank = static_cast<int>(r.required_integer("rank").value);
  i.aten_capability = optional_text(r, "aten_capability");
  i.workload = optional_text(r, "workload");
  i.use_case = r.required_string("use_case").value;
  i.examples = values(r.strings("examples"));
  i.aliases = values(r.strings("aliases"));
  i.disable = values(r.strings("disable"));
  i.disable_reason = optional_text(r, "disable_reason");
  i.cmake_force_off = values(r.strings("cmake_force_off"));
  i.cmake_force_off_reason = optional_text(r, "cmake_force_off_reason");
  i.notes = optional_text(r, "notes");
  i.source = r.required_string("source").value;
  return i;
}

}  // namespace tailor
