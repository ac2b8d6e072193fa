#include "kb/workaround.hpp"

#include "kb/read_helpers.hpp"

namespace tailor {

namespace {
// requested = { torch = "2.10.0" }: attribute -> version, in file order.
std::vector<std::pair<std::string, std::string>> read_requested(TableReader& r) {
  std::vector<std::pair<std::string, std::string>> out;
  const toml::table* t = r.table("requested");
  if (!t) return out;
  for (const auto& [attr, v] : *t) {
    if (!v.is_string()) throw r.doc().error_at(v, "requested maps nixpkgs attributes to version strings");
    Located<std::string> text{std::string(v.as_string()->get()), pos_of(v)};
    require_version(r.doc(), text, "version");
    out.emplace_back(std::string(attr.str()), text.value);
  }
  return out;
}
}  // namespace

Workaround read_workaround(TableReader& r) {
  Workaround w;
  w.id = r.required_string("id").value;
  w.summary = r.required_string("summary").value;
  w.pins = values(r.strings("pins"));
  w.requested = read_requested(r);
  w.cuda = values(r.strings("cuda"));
  w.packages = values(r.strings("packages"));
  if (const toml::table* t = r.table("source_override"))
    w.source_override = read_source_override(r.doc(), *t, "[workaround.source_override]");
  for (const toml::table* t : r.tables("magma_patch"))
    w.magma_patches.push_back(read_github_source(r.doc(), *t, "[[workaround.magma_patch]]", "commit"));
  if (auto b = r.boolean("allow_broken")) w.allow_broken = b->value;
  w.cccl_include_links = values(r.strings("cccl_include_links"));
  if (auto b = r.boolean("shim_find_cuda_toolkit")) w.shim_find_cuda_toolkit = b->value;
  w.source = r.required_string("source").value;
  return w;
}

}  // namespace tailor
