#pragma once
/// Trees that teams generate with their own scripts: each variant file is a
/// call of a parametric builder of the tree (`import ./lib/mkX.nix { sm = "90";
/// … }`) that looks its facts up in metadata tables. tailor's evaluator runs
/// the call and reads what the builder builds from the result: the nixpkgs
/// revision it fetches, the CUDA package set its overlay selects, the source it
/// fetches, the version it states, and a recipe it imports from another
/// repository. What the evaluator cannot tell stays unknown, with the reason.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "kb/source_override.hpp"
#include "lint/findings.hpp"
#include "nix/eval.hpp"

namespace tailor {

/// A fact read from a builder call, and where it is written (tree file:line:col).
struct ReadFact {
  std::string value;  ///< empty: unknown
  std::string at;     ///< where the value is written
  std::string why;    ///< when unknown: why
  bool known() const { return !value.empty(); }
};

/// A recipe the builder imports from a tarball of another repository.
struct ForeignRecipe {
  std::string url;                       ///< of the tarball
  std::string rev;                       ///< the revision in its URL, when it names one
  std::string hash;                      ///< its sha256; empty: fetched without one
  std::string path;                      ///< the file imported from it ("recipes/torch.nix"), when told
  std::string at;                        ///< where the fetch is written
  std::map<std::string, ReadFact> args;  ///< string arguments of the call
  std::vector<std::string> pkgs_args;    ///< arguments given the nixpkgs package set the builder imports
  std::vector<std::string> null_args;    ///< arguments given null
  /// Other arguments (a list, a number, what tailor cannot evaluate): name -> what it is.
  std::map<std::string, std::string> other_args;
  std::string import_at;  ///< where the recipe is imported
  /// Versions the tree's tables state beside the version the call builds (a
  /// row `{ tvVersion = "0.25.0"; ptVersion = "2.10.0"; … }`): which of them the
  /// recipe builds, its path names (pytorch210-…).
  std::vector<std::string> stated_versions;
  /// The attributes whose value is what the recipe returns (`torch = customPytorch` of a
  /// `.override { … }`): what it is passed as.
  std::vector<std::string> passed_as;
};

struct BuilderCall {
  std::string file;                      ///< the variant file, tree-relative
  std::string builder;                   ///< the builder it calls, tree-relative
  std::map<std::string, ReadFact> args;  ///< the call's arguments that are strings
  ReadFact pname, version;
  ReadFact nixpkgs_rev;  ///< the nixpkgs revision fetched (40 hex digits)
  bool nixpkgs_hashed = false;
  ReadFact overlay;                    ///< the package set the CUDA overlay selects ("cudaPackages_12_9")
  std::optional<GitHubSource> source;  ///< what fetchFromGitHub fetches
  std::string source_at;
  std::vector<ForeignRecipe> foreign;  ///< recipes imported from other repositories
  /// What the builder sets for this call that a spec does not hold (yet): `allowBroken = true`,
  /// a computed postPatch, `patches = [ ]`, a build-version variable or version.txt; value = the
  /// setting as text, at = where it is written. The tree's own builder keeps doing it.
  std::vector<ReadFact> settings;
};

/// Reads builder calls of one tree; the tables each file reaches are
/// evaluated once for all of them.
class BuilderCalls {
 public:
  explicit BuilderCalls(const lint::LintTree& tree);
  /// The call \a f makes, or nullopt when \a f is no call of a builder of the tree.
  std::optional<BuilderCall> read(const lint::NixFile& f);
  /// The same facts of a recipe that calls no builder (it overrides a nixpkgs
  /// package itself), read from what its body evaluates to; nullopt when \a f
  /// does not parse or is a builder call. Its recipes of other repositories say what they are passed as.
  std::optional<BuilderCall> read_recipe(const lint::NixFile& f);
  nix::Evaluator& evaluator() { return ev_; }

 private:
  /// \a f's expression, the body of its function where it is one; null when it does not parse.
  const nix::Expr* body(const lint::NixFile& f);
  /// The call of a builder of the tree \a f's body is, and the builder's path; {} when none.
  std::pair<const nix::Call*, nix::ValuePtr> builder_call(const lint::NixFile& f);
  /// The facts of \a result, what \a out.file evaluates to.
  void read_result(BuilderCall& out, const nix::ValuePtr& result);
  std::vector<std::string> stated_beside(const std::string& version);
  std::map<std::string, const lint::NixFile*, std::less<>> files_;
  nix::Evaluator ev_;
};

}  // namespace tailor
