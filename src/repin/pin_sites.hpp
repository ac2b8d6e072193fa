#pragma once
/// Where a hand-written Nix file pins nixpkgs, as byte ranges of the source:
/// the revision inside a github.com/NixOS/nixpkgs/archive/REV.tar.gz url
/// (fetchTarball), `rev = …` of builtins.fetchGit / fetchFromGitHub on
/// NixOS/nixpkgs or of a `nixpkgs = { rev; sha256; }` record, a
/// github:NixOS/nixpkgs/REV flake url, and string-literal revisions bound
/// in a `let` and interpolated into such a url. With each revision, the
/// hash attribute that goes with it, or where one could be inserted.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nix/ast.hpp"

namespace tailor::repin {

/// A hash written beside a pin: `sha256 = "…";` / `hash = …;` / `narHash`.
struct HashSite {
  std::string attr;           ///< the attribute name
  size_t begin = 0, end = 0;  ///< the string's content (between the quotes), or the `null`
  nix::Span span;             ///< of the value, for messages
  std::string value;          ///< its static text ("" for null or non-literals)
  bool is_null = false;       ///< `sha256 = null;`
  bool literal = false;       ///< a plain string literal whose bytes can be replaced
};

struct PinSite {
  std::string rev;            ///< as written (7 to 40 hex digits)
  size_t begin = 0, end = 0;  ///< the revision's bytes
  nix::Span span;             ///< of the revision, for messages
  std::string form;           ///< "fetchTarball url", "fetchGit rev", "fetchFromGitHub rev", "nixpkgs record",
                              ///< "flake url", "string"
  bool via_binding = false;   ///< the revision is a let/attribute binding interpolated or referenced
  std::optional<HashSite> hash;
  /// No hash written: the attribute a hash would take here ("sha256" / "hash"), and
  /// where it goes (after the binding that names the source); empty attr: nowhere.
  std::string insert_attr;
  size_t insert_at = 0;
  std::string insert_prefix;  ///< "\n    " (own line, same indentation) or " "
};

/// Every pin of \a root (parsed from \a text), in source order, one site per revision written.
std::vector<PinSite> find_pins(std::string_view text, const nix::Expr& root);

/// String literals whose whole value is \a rev (full form), not already in \a sites: the
/// catch-all for revisions bound in a `let` and used in a way find_pins does not know.
std::vector<PinSite> find_rev_literals(std::string_view text, const nix::Expr& root, std::string_view rev,
                                       const std::vector<PinSite>& sites);

}  // namespace tailor::repin
