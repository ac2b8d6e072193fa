#include "kb/nixpkgs_pin.hpp"

#include <algorithm>

#include "kb/read_helpers.hpp"

namespace tailor {

namespace {
bool contains(const std::vector<std::string>& v, std::string_view x) { return std::find(v.begin(), v.end(), x) != v.end(); }
}  // namespace

std::string NixpkgsPin::tarball_url() const { return "https://github.com/NixOS/nixpkgs/archive/" + rev + ".tar.gz"; }
bool NixpkgsPin::provides_python(std::string_view v) const { return contains(python, v); }
bool NixpkgsPin::provides_cuda(std::string_view v) const { return contains(cuda, v); }
const Version* NixpkgsPin::version(std::string_view attribute) const {
  auto it = versions.find(std::string(attribute));
  return it == versions.end() ? nullptr : &it->second;
}
std::string NixpkgsPin::version_text(std::string_view attribute) const {
  const Version* v = version(attribute);
  return v ? v->str() : std::string();
}
bool NixpkgsPin::has_torch_arg(std::string_view a) const { return contains(torch_args, a); }
bool NixpkgsPin::is_complete(std::string_view list) const { return contains(complete, list); }

NixpkgsPin read_nixpkgs_pin(TableReader& r) {
  NixpkgsPin p;
  p.short_rev = r.required_string("short").value;
  p.rev = r.required_string("rev").value;
  p.sha256 = optional_text(r, "sha256");
  if (const toml::table* t = r.table("versions"))
    for (const auto& [attr, v] : *t) {
      if (!v.is_string()) throw r.doc().error_at(v, "versions maps nixpkgs attributes to version strings");
      Located<std::string> text{std::string(v.as_string()->get()), pos_of(v)};
      p.versions.emplace(std::string(attr.str()), require_version(r.doc(), text, "version"));
    }
  p.python = values(r.strings("python"));
  p.python_default = optional_text(r, "python_default");
  p.cuda = values(r.strings("cuda"));
  p.cudnn = optional_version(r, "cudnn");
  p.cutlass = optional_text(r, "cutlass");
  p.torch_args = values(r.strings("torch_args"));
  if (const toml::table* t = r.table("function_args"))
    for (const auto& [attr, v] : *t) {
      const toml::array* a = v.as_array();
      if (!a) throw r.doc().error_at(v, "function_args maps nixpkgs attributes to lists of argument names");
      auto& names = p.function_args[std::string(attr.str())];
      for (const auto& n : *a) {
        if (!n.is_string()) throw r.doc().error_at(n, "function_args lists argument names as strings");
        names.emplace_back(n.as_string()->get());
      }
    }
  if (auto c = r.strings("complete"))
    for (const auto& l : *c) {
      if (l.value != "python" && l.value != "cuda")
        throw r.doc().error_at(l.pos, "complete names the exhaustive lists: \"python\", \"cuda\"");
      p.complete.push_back(l.value);
    }
  p.used_by = values(r.strings("used_by"));
  p.notes = optional_text(r, "notes");
  p.source = r.required_string("source").value;
  return p;
}

}  // namespace tailor

namespace tailor {
const std::vector<std::string>& recipe_torch_args() {
  static const std::vector<std::string> args = {"cudaSupport", "gpuTargets", "effectiveMagma"};
  return args;
}
}  // namespace tailor
