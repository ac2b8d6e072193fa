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
  if (auto b = r.boolean("allow_broken")) w.allow_broken = b->value;
  if (auto s = r.strings("switches"))
    for (const auto& name : *s) w.switches.push_back(require_nix_identifier(r.doc(), name, "switch"));
  for (const toml::table* t : r.tables("include_links")) {
    TableReader l(r.doc(), *t, "[[workaround.include_links]]");
    IncludeLinks x;
    x.key = require_nix_identifier(r.doc(), l.required_string("key"), "key");
    x.names = values(l.strings("names"));
    if (x.names.empty()) throw r.doc().error_at(*t, "include_links names no include directories ('names')");
    l.finish();
    w.include_links.push_back(std::move(x));
  }
  for (const toml::table* t : r.tables("patch")) {
    TableReader p(r.doc(), *t, "[[workaround.patch]]");
    PatchEffect x;
    x.key = require_nix_identifier(r.doc(), p.required_string("key"), "key");
    x.commit = read_fetch(p, "commit");
    p.finish();
    w.patches.push_back(std::move(x));
  }
  w.env = env_entries(r.doc(), r);
  w.source = r.required_string("source").value;
  return w;
}

std::vector<std::string> effect_keys(const Workaround& w) {
  std::vector<std::string> out = w.switches;
  for (const auto& l : w.include_links) out.push_back(l.key);
  for (const auto& p : w.patches) out.push_back(p.key);
  return out;
}

}  // namespace tailor
