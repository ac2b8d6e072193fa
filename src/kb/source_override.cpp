#include "kb/source_override.hpp"

#include <regex>

#include <fmt/format.h>

#include "kb/read_helpers.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

bool is_nix_sha256(const std::string& s) {
  static const std::regex base32("[0-9a-df-np-sv-z]{52}"), sri("sha256-[A-Za-z0-9+/]{43}="), hex("[0-9a-f]{64}");
  return std::regex_match(s, base32) || std::regex_match(s, sri) || std::regex_match(s, hex);
}

GitHubSource read_fetch(TableReader& r, const char* rev_key) {
  GitHubSource s;
  s.owner = r.required_string("owner").value;
  s.repo = r.required_string("repo").value;
  s.rev = r.required_string(rev_key).value;
  auto given = r.string("hash");
  if (!given) {
    // How to get the hash: fetchpatch hashes the patch after normalising it,
    // fetchFromGitHub the unpacked tarball of the commit.
    std::string how = std::string_view(rev_key) == "commit"
                          ? "write nixpkgs' lib.fakeHash, \"sha256-" + std::string(43, 'A') +
                                "=\", and build once: the hash mismatch error prints the right one"
                          : fmt::format(
                                "nix-prefetch-url --unpack https://github.com/{}/{}/archive/{}.tar.gz prints it "
                                "(or nix store prefetch-file --unpack with that URL)",
                                s.owner, s.repo, s.rev);
    try {
      r.missing("hash");
    } catch (const DiagnosticError& e) {
      Diagnostic d = e.diagnostic();
      if (d.hint.empty()) d.hint = how;  // a misspelt key keeps its "did you mean"
      throw DiagnosticError(std::move(d));
    }
  }
  const auto& hash = *given;
  if (!is_nix_sha256(hash.value))
    throw r.doc().error_at(hash.pos, "'" + hash.value + "' is not a Nix sha256 hash",
                           "write it as Nix prints it: sha256-<44 base64 characters>");
  s.hash = hash.value;
  if (auto f = r.boolean("fetch_submodules")) s.fetch_submodules = f->value;
  return s;
}

GitHubSource read_github_source(const TomlDocument& doc, const toml::table& t, std::string what, const char* rev_key) {
  TableReader r(doc, t, std::move(what));
  GitHubSource s = read_fetch(r, rev_key);
  r.finish();
  return s;
}

std::vector<std::string> env_entries(const TomlDocument& doc, TableReader& r) {
  std::vector<std::string> out;
  for (const auto& e : r.strings("env").value_or(std::vector<Located<std::string>>{})) {
    if (e.value.find('=') == std::string::npos || e.value.front() == '=')
      throw doc.error_at(e.pos, "env entry '" + e.value + "' is not NAME=value");
    if (!is_shell_variable_name(std::string_view(e.value).substr(0, e.value.find('='))))
      throw doc.error_at(e.pos,
                         "env entry '" + e.value.substr(0, e.value.find('=')) + "' does not name a shell variable",
                         "a name is letters, digits and _, not starting with a digit");
    out.push_back(e.value);
  }
  return out;
}

SourceOverride read_source_override(const TomlDocument& doc, const toml::table& t, const std::string& what,
                                    bool scoped) {
  TableReader r(doc, t, what);
  SourceOverride o;
  o.pos = pos_of(t);
  o.attribute = r.required_string("attribute").value;
  auto version = r.required_string("version");
  require_version(doc, version, "version");
  o.version = version.value;
  o.fetch = read_fetch(r, "rev");
  for (const toml::table* e : r.tables("extra_source")) {
    TableReader named(doc, *e, "extra source of " + what);
    ExtraSource x;
    x.name = require_nix_identifier(doc, named.required_string("name"), "extra source name");
    x.fetch = read_fetch(named, "rev");
    named.finish();
    o.extra_sources.push_back(std::move(x));
  }
  if (auto b = r.boolean("clear_patches")) o.clear_patches = b->value;
  o.cmake_flags = values(r.strings("cmake_flags"));
  o.env = env_entries(doc, r);
  o.version_txt = optional_text(r, "version_txt");
  if (scoped)
    if (auto pins = r.strings("pins")) {
      if (pins->empty()) throw doc.error_at(t, "'pins' is empty: leave it out to apply on every pin");
      for (const auto& p : *pins) o.pin_positions.push_back(p.pos);
      o.pins = values(pins);
    }
  r.finish();
  return o;
}

}  // namespace tailor
