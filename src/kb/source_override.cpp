#include "kb/source_override.hpp"

#include <regex>
#include <string_view>

#include <fmt/format.h>

#include "kb/github_names.hpp"
#include "kb/read_helpers.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"

namespace tailor {

bool is_nix_sha256(const std::string& s) {
  // 256 bits: Nix's base32 writes the top bit alone first (0 or 1); base64's 43rd character
  // carries 4 bits and two zero bits ([AEIMQUYcgkosw048]). Others are no hash Nix prints.
  static const std::regex base32("[01][0-9a-df-np-sv-z]{51}"), sri("sha256-[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]="),
      hex("[0-9a-f]{64}");
  return std::regex_match(s, base32) || std::regex_match(s, sri) || std::regex_match(s, hex);
}

bool is_github_owner(std::string_view s) {
  static const std::regex owner("[A-Za-z0-9](-?[A-Za-z0-9_.])*");  // GitHub: letters, digits, single hyphens
  return !s.empty() && s.size() <= 100 && std::regex_match(s.begin(), s.end(), owner);
}

bool is_github_repo(std::string_view s) {
  static const std::regex repo("[A-Za-z0-9_.-]+");
  return !s.empty() && s.size() <= 100 && s != "." && s != ".." && std::regex_match(s.begin(), s.end(), repo);
}

bool is_git_rev(std::string_view s) {
  // A commit id, a tag or a branch: no segment "." or "..", nothing a URL or a shell reads.
  static const std::regex rev("[A-Za-z0-9_][A-Za-z0-9_.+-]*(/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*");
  return !s.empty() && s.size() <= 255 && s.find("..") == std::string_view::npos &&
         std::regex_match(s.begin(), s.end(), rev);
}

GitHubSource read_fetch(TableReader& r, const char* rev_key) {
  GitHubSource s;
  // Each goes into a fetch URL (github.com/OWNER/REPO/archive/REV.tar.gz): "", "../../evil", "?#"
  // or an escape would fetch something else or nothing.
  auto owner = r.required_string("owner");
  if (!is_github_owner(owner.value))
    throw r.doc().error_at(owner.pos, "'" + comment_text(owner.value) + "' is no GitHub owner",
                           "letters, digits and single hyphens, as github.com/OWNER shows it");
  auto repo = r.required_string("repo");
  if (!is_github_repo(repo.value))
    throw r.doc().error_at(repo.pos, "'" + comment_text(repo.value) + "' is no GitHub repository name",
                           "letters, digits and . _ - (not \".\" or \"..\"), as github.com/OWNER/REPO shows it");
  auto rev = r.required_string(rev_key);
  if (!is_git_rev(rev.value))
    throw r.doc().error_at(rev.pos, "'" + comment_text(rev.value) + "' is no revision",
                           "a commit id or a tag: letters, digits and . _ + - /, without \"..\"");
  s.owner = owner.value;
  s.repo = repo.value;
  s.rev = rev.value;
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
