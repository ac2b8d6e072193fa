#pragma once
/// A source override: build version X of a package from a fetched source
/// instead of what the nixpkgs pin ships, with the extra sources that version
/// pins for itself. The knowledge base attaches them to pins (workarounds.toml)
/// and a spec may declare its own ([[source_override]]).

#include <compare>
#include <string>
#include <vector>

#include "util/toml_reader.hpp"

namespace tailor {

/// A fetchFromGitHub: rev is a tag, a branch or a commit.
struct GitHubSource {
  std::string owner, repo, rev, hash;
  bool fetch_submodules = false;
  auto operator<=>(const GitHubSource&) const = default;
};

/// A further source the overridden version builds with (its own onnx, cutlass…).
struct ExtraSource {
  std::string name;  ///< what the builder calls it, "onnx"
  GitHubSource fetch;
  auto operator<=>(const ExtraSource&) const = default;
};

struct SourceOverride {
  std::string attribute;  ///< nixpkgs attribute of the package it builds, "torch"
  std::string version;    ///< the version it builds
  GitHubSource fetch;
  std::vector<ExtraSource> extra_sources;
  // Changes the older recipe needs to build the fetched source.
  bool clear_patches = false;
  std::vector<std::string> cmake_flags;
  std::vector<std::string> env;  ///< "NAME=value"
  std::string version_txt;
  /// Short revisions of the pins it applies on (a spec's override scoped to the
  /// pins that need it); empty: every pin.
  std::vector<std::string> pins;
  std::vector<Pos> pin_positions;  ///< where each of pins is written
  Pos pos;                         ///< where it is written
};

/// Reads the fetch keys (owner, repo, \a rev_key, hash, fetch_submodules) of a
/// table that may hold more.
GitHubSource read_fetch(TableReader& r, const char* rev_key);
/// Reads a fetch table (owner, repo, \a rev_key, hash, fetch_submodules).
GitHubSource read_github_source(const TomlDocument& doc, const toml::table& t, std::string what, const char* rev_key);

/// The table's `env` list ("NAME=value"), each NAME a shell variable name, or
/// an error at the entry.
std::vector<std::string> env_entries(const TomlDocument& doc, TableReader& r);

/// Reads a source override table: attribute, version, owner, repo, rev, hash,
/// fetch_submodules, clear_patches, cmake_flags, env, version_txt and
/// [[<what>.extra_source]] (name + fetch). \a what names the table in errors.
/// Bad values (a version that does not parse, a hash Nix does not accept,
/// env without '=') are errors at their position.
/// With \a scoped, the table may also name the 'pins' it applies on (as written:
/// the caller resolves them).
SourceOverride read_source_override(const TomlDocument& doc, const toml::table& t, const std::string& what,
                                    bool scoped = false);

/// A hash Nix accepts for sha256: base32 (52 characters), SRI ("sha256-" +
/// 44 base64 characters) or hex.
bool is_nix_sha256(const std::string& s);

}  // namespace tailor
