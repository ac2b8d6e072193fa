#pragma once
/// What one recipe says, as check, import and repin read it: hand-written (the
/// flox/build-pytorch style: fetchTarball pin, two-stage override, let-bound
/// gpuArchSM/cpuFlags) or generated (a `variant = { … }` record for a shared
/// builder). Extraction walks the Nix syntax tree (nix/visit.hpp) and the
/// comments the lexer recorded; nothing is evaluated. Every fact carries the
/// byte span it was read from, for precise diagnostics.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nix/ast.hpp"
#include "nix/lexer.hpp"
#include "recipe/fact.hpp"
#include "recipe/line_index.hpp"
#include "recipe/prune_lists.hpp"

namespace tailor::recipe {

/// A nixpkgs pin: the revision of a github.com/NixOS/nixpkgs tarball url or
/// of a `nixpkgs = { rev = …; }` record.
struct PinFact {
  std::string rev;
  nix::Span span;               ///< the revision inside its string
  bool sha256_written = false;  ///< a sha256 / hash attribute is present
  bool sha256_null = false;     ///< … and it is `null` (generated recipes when the hash is unknown)
  std::string sha256;           ///< its static value, if any
};

/// A fetch of sources (fetchTarball, fetchurl, fetchFromGitHub, fetchGit, …).
struct FetchFact {
  std::string fetcher;   ///< the function's name as written last ("fetchFromGitHub")
  nix::Span span;        ///< the function's name
  bool hashed = false;   ///< sha256 / hash / narHash / outputHash, or fetchGit's full commit rev
  bool nixpkgs = false;  ///< a nixpkgs tarball (the pin rules judge those)
  /// …whose revision is read (a PinFact stands for it); false where the url interpolates
  /// a builder's argument (`archive/${nixpkgsRev}.tar.gz`): no pin rule sees that fetch.
  bool rev_read = false;
  /// "owner/repo" of a fetchFromGitHub / fetchFromGitLab with both static; empty otherwise.
  std::string source;
  /// The static `rev` or `tag` fetched (key "rev"/"tag", at its value); empty text when none.
  Fact rev;
};

/// `import ./x.nix { a = "v"; }` / `callPackage ./x.nix { … }`: the callee and the
/// static string arguments (resolved through let), each at its value.
struct CallFact {
  std::string path;         ///< as written, "./lib/torch.nix"
  std::vector<Fact> args;   ///< key = argument name, text = value
  std::vector<Fact> names;  ///< every argument passed (text = its name, span = the name's), static value or not
};

struct RecipeFacts {
  std::vector<Fact> names;        ///< pname, variantName, variant.name of the result
  std::vector<Fact> inner_names;  ///< pnames bound inside a let value (an inner torch of a companion)
  /// Attributes overridden inside a let value (`customPytorch = (pkgs.torch.override { … }).overrideAttrs …`):
  /// text = the attribute ("torch"), at the call. A companion's own torch, even without a pname of its own.
  std::vector<Fact> inner_overrides;
  std::vector<PinFact> pins;
  std::vector<Fact> python_sets;        ///< python3Packages, python313Packages, python312 (interpreter) uses
  std::vector<Fact> cuda_overlays;      ///< cudaPackages_12_9 uses
  std::vector<Fact> gpu_targets;        ///< each entry of a gpuTargets list (resolved through let)
  std::vector<Fact> gpu_target_params;  ///< gpuTargets entries that are unresolved variables (builder arguments)
  /// Per entry of gpu_targets: the variable it was read through (`[ gpuArchSM ]`), or empty for a literal.
  std::vector<std::string> gpu_target_vars;
  std::vector<Fact> cuda_capabilities;  ///< each entry of a cudaCapabilities list
  /// each entry of an ollama-style cudaArches list ("sm_86"): its consumer's spelling, read
  /// for what comments beside it say, not judged as TORCH_CUDA_ARCH_LIST
  std::vector<Fact> cuda_arches;
  bool has_gpu_targets = false;
  nix::Span gpu_targets_span;  ///< the first gpuTargets value
  bool has_cuda_capabilities = false;
  std::vector<Fact> cpu_flags;         ///< "-mavx2", "-march=armv9-a+sve2": compiler flags in strings
  std::vector<Fact> env;               ///< USE_CUDNN=0 style settings: key = variable, text = value
  std::vector<Fact> platforms;         ///< meta.platforms entries and `platform = "…"` values
  std::vector<Fact> descriptions;      ///< meta.description (key "description") and each line of longDescription
  std::vector<Fact> comments;          ///< each comment line (key "header" for the leading block, else "comment")
  std::vector<Fact> imports;           ///< relative paths of `import ./x.nix` / `callPackage ./x.nix`, and
                                       ///< torchVariant / magmaVariant names (text ends in ".nix")
  std::vector<Fact> absolute_imports;  ///< `import /home/…` and `~/…` paths (key "import")
  /// `<nixpkgs>` and other lookup paths (text without brackets); key "unused-default"
  /// inside the default of a formal nothing reads (never evaluated), else empty.
  std::vector<Fact> search_paths;
  std::vector<FetchFact> fetches;
  std::vector<CallFact> calls;
  /// `X.override { a = …; inherit b; }` (X a package: "torch" of
  /// `python3Packages.torch.override`): key = X, text = each argument named, at its name;
  /// a generated variant record's `override = { … }` beside `package = "P"`: key "package:P".
  std::vector<Fact> override_args;
  /// The file's own function, when it is one with a closed set pattern
  /// (`{ a, b ? 1 }:`, no `...`): text = each formal. Empty for anything else.
  std::vector<Fact> closed_formals;
  bool takes_set = false;  ///< the file is a function with a closed set pattern
  /// `(import ./lib/cpu-isa.nix).avx512`: key = the imported path, text = the attribute picked from it.
  std::vector<Fact> table_picks;
  /// Source overrides: `version = …` beside `src = …`. key = the attribute whose
  /// override holds them ("torch" of `torch.overrideAttrs`; empty outside an override),
  /// text = the version, empty when it is no static string (a builder's parameter).
  std::vector<Fact> versions;
  /// What a generated variant record asks its builder to build from source:
  /// `workarounds = { torchSource = { owner = …; version = "2.10.0"; }; }` (key "torch").
  std::vector<Fact> record_versions;

  // For `tailor check --fix`:
  std::vector<Fact> python_binders;  ///< formals, lambda arguments and let bindings named python3…
  /// A python3… name is also an attribute name (`inherit python3Packages;`, `{ python3Packages = …; }`):
  /// renaming the set would change what the recipe exports or passes on.
  bool python_rename_unsafe = false;
  /// References of each variable bound to a static string (a fix may change the
  /// binding only where every reference is one it means to change).
  std::map<std::string, int, std::less<>> string_var_uses;
  /// Where a line can be added to the first preConfigure indented string:
  /// the start of the line holding its closing '' (0: none), and the indentation of its lines.
  uint32_t pre_configure_insert = 0;
  std::string pre_configure_indent;
  /// The SM lists of `tailor prune … --sm LIST` commands and `pruneSms = [ … ]` records.
  std::vector<PruneSmList> prune_sm_lists;
};

/// A recipe that names no nixpkgs (no pin, no `<nixpkgs>`) and takes a Python
/// set as a function argument (`{ python3Packages, lib, … }:`): its caller, such
/// as Flox's catalog, supplies the packages. With \a set, that set in particular.
bool sets_from_caller(const RecipeFacts& f, std::string_view set = {});

/// Extracts the facts of \a root, parsed from \a text with \a comments.
RecipeFacts extract_facts(std::string_view text, const nix::Expr& root, const std::vector<nix::Comment>& comments);
/// The same over the text's \a lines, indexed already (by the lexer: see nix::ParseResult::line_starts).
RecipeFacts extract_facts(std::string_view text, const nix::Expr& root, const std::vector<nix::Comment>& comments,
                          LineIndex lines);

/// Longest text tailor's regular expressions are run on: libstdc++'s
/// backtracking matcher recurses per character, so longer (hostile) lines are skipped.
inline constexpr size_t kMaxRegexLine = 4096;
/// Longest identifier or short value matched against a name pattern.
inline constexpr size_t kMaxRegexName = 256;

}  // namespace tailor::recipe
