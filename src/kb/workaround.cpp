#include "kb/workaround.hpp"

#include "kb/read_helpers.hpp"

namespace tailor {

namespace {
GitHubSource read_source(const TomlDocument& doc, const toml::table& t, std::string what, const char* rev_key) {
  TableReader r(doc, t, std::move(what));
  GitHubSource s;
  s.owner = r.required_string("owner").value;
  s.repo = r.required_string("repo").value;
  s.rev = r.required_string(rev_key).value;
  s.hash = r.required_string("hash").value;
  if (auto f = r.boolean("fetch_submodules")) s.fetch_submodules = f->value;
  r.finish();
  return s;
}
}  // namespace

Workaround read_workaround(TableReader& r) {
  Workaround w;
  w.id = r.required_string("id").value;
  w.summary = r.required_string("summary").value;
  w.pins = values(r.strings("pins"));
  w.torch = optional_text(r, "torch");
  w.cuda = values(r.strings("cuda"));
  w.packages = values(r.strings("packages"));
  if (const toml::table* t = r.table("torch_source"))
    w.torch_source = read_source(r.doc(), *t, "[workaround.torch_source]", "rev");
  for (const toml::table* t : r.tables("magma_patch"))
    w.magma_patches.push_back(read_source(r.doc(), *t, "[[workaround.magma_patch]]", "commit"));
  if (auto b = r.boolean("clear_patches")) w.clear_patches = b->value;
  if (auto b = r.boolean("allow_broken")) w.allow_broken = b->value;
  w.cmake_flags = values(r.strings("cmake_flags"));
  w.env = values(r.strings("env"));
  w.version_txt = optional_text(r, "version_txt");
  w.cccl_include_links = values(r.strings("cccl_include_links"));
  if (auto b = r.boolean("shim_find_cuda_toolkit")) w.shim_find_cuda_toolkit = b->value;
  w.source = r.required_string("source").value;
  return w;
}

}  // namespace tailor
