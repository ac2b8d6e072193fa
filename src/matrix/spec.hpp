#pragma once
/// A matrix spec: one product line/branch, its families of variants and the
/// policy that trims them. Parsed from TOML by load_spec (spec_loader.hpp).

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kb/source_override.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

/// The axes a family crosses, in expansion order.
enum class Axis { package, python, pin, cuda, sm, isa };
inline constexpr std::array<Axis, 6> kAxes = {Axis::package, Axis::python, Axis::pin, Axis::cuda, Axis::sm, Axis::isa};
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

struct Family {
  std::string name;
  Pos pos;
  std::string backend;  ///< a backend of packages.toml
  std::map<Axis, AxisValues> axes;  ///< every axis present; "" where it does not apply
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
  int gb_per_job = 8;          ///< memory one nvcc/CUTLASS job may need
  std::optional<int> max_jobs;  ///< upper bound whatever the builder has
  bool strip_toolchain = true;  ///< remove gcc/binutils references from the closure
  bool compress_fatbin = true;  ///< -Xfatbin -compress-all
  int metadata_rev = 1;         ///< $out/.metadata-rev
};

struct Spec {
  std::string path;  ///< as given by the user (or "examples/..." when embedded)
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
  BuildPolicy build;
  /// [[source_override]]: versions the spec builds from fetched sources, for
  /// every variant that builds the attribute.
  std::vector<SourceOverride> source_overrides;

  /// The spec's override of \a attribute; null when none.
  const SourceOverride* source_override(std::string_view attribute) const;

  /// The claim that \a pin provides CUDA (\a cuda) or Python (\a python); null: none.
  const PinClaim* claim(std::string_view pin, std::string_view cuda, std::string_view python) const;
};

}  // namespace tailor
