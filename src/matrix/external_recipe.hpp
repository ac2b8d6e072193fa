#pragma once
/// A package that a version is built against, taken from a recipe of another
/// repository at a pinned revision ([family.version.external.ATTRIBUTE]): teams
/// build their own torch in a repository of its own (`pytorchNixRoot =
/// builtins.fetchTarball …; import "${pytorchNixRoot}/recipes/torch.nix" { … }`).
/// Which version that recipe builds is the spec's to state (`torch = "2.11.0"`
/// beside it), never the nixpkgs pin's.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/diagnostic.hpp"

namespace tailor {

struct Variant;

struct ExternalRecipe {
  std::string attribute;  ///< the nixpkgs attribute it builds, "torch"
  /// "owner/repo" (GitHub) or the https URL of the repository; its tarball is REPO/archive/REV.tar.gz.
  std::string repo;
  std::string rev;
  std::string hash;  ///< sha256 of the unpacked tarball (SRI or Nix base32); empty: fetched without one
  /// The recipe inside the repository, "recipes/torch.nix": a template of the
  /// words of the recipe scope (template_words.hpp) where each variant imports its own
  /// (".flox/pkgs/pytorch{torch_short}-python{python_nodot}-cpu-{isa}.nix").
  std::string path;
  /// The arguments the recipe is called with, in the spec's order: name ->
  /// template. "{pkgs}" is the variant's nixpkgs package set; other words are
  /// filled per variant: the recipe scope of the word table (template_words.hpp): {pkgs} (alone: the
  /// package set), {backend}, {version}, {python}, {python_nodot}, {cuda}, {cuda_underscore}, {sm},
  /// {sm_nodot}, {isa}, and the paired attributes ("{torch}", and "{torch_short}": "210" for 2.10.0).
  std::vector<std::pair<std::string, std::string>> args;
  std::vector<Pos> arg_pos;  ///< where each argument is written
  Pos pos, hash_pos, path_pos;
  /// Written for the whole family ([family.external.ATTRIBUTE]), not one of its versions.
  bool family_level = false;

  /// "[family.version.external.torch]" or "[family.external.torch]": the table, for messages and comments.
  std::string table() const;

  /// The tarball nix fetches: https://github.com/OWNER/REPO/archive/REV.tar.gz, or REPO-URL/archive/REV.tar.gz.
  std::string tarball_url() const;
  /// path filled for \a v; nullopt when it names a word \a v lacks.
  std::optional<std::string> path_for(const Variant& v) const;
  /// "recipes/torch.nix of ml-platform/pytorch-nix at 9c4e2b7a…" for messages and comments;
  /// with \a v, the path filled for that variant (a generated recipe names its own file).
  std::string describe(const Variant* v = nullptr) const;
};

/// The recipe of \a recipes that builds \a attribute; null when none.
const ExternalRecipe* find_external(const std::vector<ExternalRecipe>& recipes, std::string_view attribute);

/// One argument as a variant passes it.
struct ExternalArg {
  std::string name;
  bool pkgs = false;                 ///< the variant's nixpkgs package set
  std::optional<std::string> value;  ///< nullopt: null (a word the variant lacks, as {sm} of a CPU build)
};

/// \a r's arguments filled for \a v (a variant of the version that names \a r).
std::vector<ExternalArg> external_args(const ExternalRecipe& r, const Variant& v);

/// The word \a value is for \a v, written as a template ("90" -> "{sm_nodot}",
/// "2.11.0" -> "{torch}"); the value itself (a constant) when it is no word of
/// \a v. The one reading `tailor import` writes back.
std::string external_arg_template(const std::string& value, const Variant& v);

/// The path of a recipe the variant \a v imports, written as a template: each
/// word between '/' and '-' that is a word of \a v, alone or after letters
/// ("python313" -> "python{python_nodot}", "pytorch210" -> "pytorch{torch_short}").
std::string external_path_template(const std::string& path, const Variant& v);

/// "owner/repo" for a GitHub URL, else the URL; nullopt when \a url is no
/// REPO/archive/REV.tar.gz tarball. Sets \a rev to REV.
std::optional<std::string> repo_of_tarball(const std::string& url, std::string& rev);

}  // namespace tailor
