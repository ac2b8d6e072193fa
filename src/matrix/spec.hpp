#pragma once
/// A matrix spec: one product line/branch, its families of variants and the
/// policy that trims them. Parsed from TOML by load_spec (spec_loader.hpp).

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kb/source_override.hpp"
#include "matrix/external_recipe.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

/// The axes a family crosses, in expansion order.
enum class Axis { package, version, python, pin, cuda, sm, isa };
inline constexpr std::array<Axis, 7> kAxes = {Axis::package, Axis::version, Axis::python, Axis::pin,
                                              Axis::cuda,    Axis::sm,      Axis::isa};
std::string_view axis_name(Axis a);
std::optional<Axis> axis_from_name(std::string_view name);

using AxisValues = std::vector<Located<std::string>>;

/// A predicate over cells: each listed axis must take one of the listed values.
struct CellFilter {
  std::map<Axis, std::vector<std::string>> values;
  std::vector<std::string> platforms;  ///< empty: any platform
  std::string reason;                  ///< required for excludes
  Pos pos;
};

/// One version of a family's package ([[family.version]]): what it is built
/// against, where its source comes from and which pin builds it, per backend and CUDA.
struct PackageVersion {
  std::string version;  ///< "0.26.0"
  Pos pos;
  /// nixpkgs attribute of a package it is built against -> the version it pairs with ("torch" -> "2.12.0")
  std::vector<std::pair<std::string, std::string>> paired;
  std::string pin;                               ///< short revision; empty: the family's pin axis
  std::map<std::string, std::string> cuda_pins;  ///< CUDA version -> short revision (per-CUDA overrides)
  std::string cpu_pin;                           ///< short revision for backends without CUDA; empty: pin
  std::string word;  ///< the package word of its names, "torchvision026", "torchaudio211-pt212"
  /// Its pairing tag ('pairing = "pt{torch}"': "pt212"): how the tree tells a version
  /// built against another release apart; empty: none (a version's first pairing).
  std::string pairing;
  /// Its own source on pins that do not ship it; absent: what the pin ships.
  std::optional<SourceOverride> source;
  /// [family.version.external.ATTRIBUTE]: packages it is built against that a
  /// recipe of another repository builds, at the paired version.
  std::vector<ExternalRecipe> external;

  /// Whether the version names its pins (then the family's pin axis does not apply).
  bool names_pins() const { return !pin.empty() || !cuda_pins.empty() || !cpu_pin.empty(); }
  /// The pin of a cell: per CUDA, else per backend, else the version's pin; empty when none applies.
  std::string pin_for(bool gpu, const std::string& cuda) const;
  /// The version it pairs with for \a attribute; empty when none.
  std::string paired_with(std::string_view attribute) const;
  /// The recipe of another repository that builds \a attribute; null when none.
  const ExternalRecipe* external_for(std::string_view attribute) const;
};

/// A set of SMs one variant targets together (sm_sets = { all = [...] } of a
/// family): named in the family's `sm` list and in the variant's name by its name.
struct SmSet {
  std::string name;  ///< "all"
  Pos pos;
  AxisValues sms;  ///< compute capabilities, in the order written ("7.5", "8.0", …)
};

struct Family {
  std::string name;
  Pos pos;
  std::string backend;                 ///< a backend of packages.toml
  std::map<Axis, AxisValues> axes;     ///< every axis present; "" where it does not apply
  std::vector<std::string> platforms;  ///< filter; empty: any
  Pos platforms_pos;
  std::vector<std::vector<Axis>> zips;  ///< axes advanced together
  std::vector<CellFilter> excludes;
  std::vector<CellFilter> includes;  ///< explicit cells (each axis one value)
  /// Name tokens as the tree spells them: "armv8_2" -> "armv8.2"; "" leaves the
  /// token (and its '-') out, as in names without an ISA or without "cpu".
  std::map<std::string, std::string> spelling;
  /// inline = ["pytorch"]: packages its companions build inside their own
  /// recipes (a torchvision repository's custom torch), not variants of their own.
  AxisValues inline_packages;
  /// [[family.version]]: the versions of its one package; empty: what the pin ships.
  std::vector<PackageVersion> versions;
  /// sm_sets: SM values of `sm` that stand for several SMs; empty: none.
  std::vector<SmSet> sm_sets;
  /// [family.external.ATTRIBUTE]: what a recipe of another repository builds for
  /// every variant of the family whose version (if any) names no recipe of its own
  /// for that attribute (a family whose names carry no version word has no version to hold one).
  std::vector<ExternalRecipe> external;

  /// The set called \a name; null when \a name is a single SM.
  const SmSet* sm_set(std::string_view name) const;
  /// The family's recipe of another repository that builds \a attribute; null when none.
  const ExternalRecipe* external_for(std::string_view attribute) const;
};

/// A fact of a pin that the knowledge base does not record, claimed by the
/// spec ([[claim]]; `tailor import` writes them for what a tree uses).
struct PinClaim {
  std::string pin;  ///< short revision
  std::vector<std::string> cuda, python;
  std::string reason;
  Pos pos;
};

/// Build policy that the derived settings and emitters follow.
struct BuildPolicy {
  int gb_per_job = 8;           ///< memory one nvcc/CUTLASS job may need
  std::optional<int> max_jobs;  ///< upper bound whatever the builder has
  bool strip_toolchain = true;  ///< remove gcc/binutils references from the closure
  bool compress_fatbin = true;  ///< -Xfatbin -compress-all
  int metadata_rev = 1;         ///< $out/.metadata-rev
  /// Prune the knowledge base's CUDA libraries (cuda_toolkits.toml [[library]])
  /// to each GPU variant's SMs in their fixup phase, with tailor prune.
  bool prune_cuda_libraries = false;
  Pos prune_cuda_libraries_pos;
  /// Keep the binary caches: each GPU variant is made from nixpkgs' cached build
  /// of its package without compiling (packages.toml `cache`).
  bool keep_cache = false;
  Pos keep_cache_pos;
};

/// Where the tailor that build phases run comes from ([tailor]).
struct TailorSource {
  enum class Kind { none, pinned, catalog };
  /// pinned: built from its source at a revision, by that source's
  /// nix/package.nix; catalog: the recipes take it as their `tailor`
  /// argument (the Flox catalog passes it).
  Kind kind = Kind::none;
  GitHubSource fetch;  ///< pinned: owner, repo, rev, hash
  Pos pos;
};

/// [layout]: the tree keeps its own builder and layout (a team's wrappers
/// around its hand-written builder). generate then writes only the wrappers,
/// rendered from the templates with the variant's words, and checks that the
/// builder files it keeps are there; it never writes them.
struct Layout {
  Pos pos;
  std::string dir = ".flox/pkgs";  ///< where the wrappers are, relative to the tree
  /// Files of the tree's own builder, relative to the tree: checked, never written.
  std::vector<std::string> keep;
  /// Backend ("cpu", "cuda", "mps"), or a family whose wrappers have a text of
  /// their own -> the text of a variant's wrapper, with {words} of the variant
  /// (layout_words.hpp lists them).
  std::map<std::string, std::string> wrapper;
  /// The team's GPU names by "SM" or "SM platform" ("9.0", "9.0 aarch64"), as
  /// its wrappers spell them; where absent, the knowledge base's products.
  std::map<std::string, std::string> gpu_names;
  /// The team's driver floor per CUDA ("12.8" = "550") as its files write it: kept where it
  /// meets the driver rule's floor for the GPUs a file serves (kb/driver_rule.hpp).
  std::map<std::string, std::string> drivers;
  /// The files of facts the builder reads and the pages the team's scripts
  /// wrote, by path relative to the tree -> their text with {word@key} facts
  /// (table_words.hpp): generate writes them from the knowledge base.
  std::map<std::string, std::string> tables;
  /// The pages written per (version, CUDA) cell: a path template over the cell's
  /// words ("docs/matrices/vision-{version_mm}-cuda-{cuda}.md") -> the text
  /// template (page_template.hpp).
  std::map<std::string, std::string> pages;
  /// The team's own fair names of architectures by SM ("11.0" = "DRIVE Thor"), where they
  /// differ from the knowledge base's family: {arch_name@…} writes them.
  std::map<std::string, std::string> arch_names;
  /// A CPU target -> the texts the wrappers ({text}, {text_2}, …) and the rows of a page
  /// ({text@target}, …) write for it: the team's compiler flags, its words for the target.
  std::map<std::string, std::vector<std::string>> target_text;
  /// "SM" or "SM platform" -> the texts the wrappers write for it beside its GPU names
  /// ({sm_text}, {sm_text_2}, …): the team's own words, which the knowledge base cannot give.
  std::map<std::string, std::vector<std::string>> sm_texts;
  /// In target_text and sm_texts: no text at that place (TOML false): the first text of a
  /// target whose files of the first kind stay the team's, say. Its word has no value there.
  static constexpr std::string_view kNoText{"\0", 1};
  /// The team's scripts that wrote the wrappers (and pages): `tailor generate` replaces them.
  std::vector<std::string> replaces;
};

struct Spec {
  std::string path;  ///< as given by the user (or "examples/..." when embedded), for diagnostics
  /// How generated files and pages name the spec: relative to the tree, never
  /// absolute (spec_source in spec_loader.hpp). Empty: path.
  std::string source;
  const std::string& shown() const { return source.empty() ? path : source; }
  std::string text;
  std::string name;     ///< branch name, "pytorch-2.9-python313"
  std::string product;  ///< "build-pytorch", "build-vllm"
  std::string summary;
  /// nixpkgs attribute -> requested version ([branch] torch = "2.10.0");
  /// absent: what the pin ships
  std::vector<std::pair<std::string, std::string>> versions;

  /// The version requested for \a attribute; empty when none.
  std::string requested(std::string_view attribute) const;
  std::vector<Family> families;
  std::vector<PinClaim> claims;
  std::optional<Layout> layout;  ///< [layout]; absent: tailor writes its own builder and layout
  BuildPolicy build;
  TailorSource tailor;
  /// [[source_override]]: versions the spec builds from fetched sources, for
  /// every variant that builds the attribute.
  std::vector<SourceOverride> source_overrides;

  /// The spec's (first) override of \a attribute; null when none.
  const SourceOverride* source_override(std::string_view attribute) const;
  /// The spec's override of \a attribute that builds \a version (any version when
  /// empty) on \a pin (overrides scoped to pins apply there only); null when none.
  const SourceOverride* source_override(std::string_view attribute, std::string_view version,
                                        std::string_view pin) const;
  /// The family called \a name; null when none.
  const Family* family(std::string_view name) const;

  /// The claim that \a pin provides CUDA (\a cuda) or Python (\a python); null: none.
  const PinClaim* claim(std::string_view pin, std::string_view cuda, std::string_view python) const;
};

}  // namespace tailor
