#pragma once
/// Wheels as PEP 825 variants (python/peps, peps/pep-0825.rst, "Wheel Variants:
/// Package Format"; its schema peps/pep-0825/variant-schema-0.1.1.json), which
/// prune writes and recommend reads:
///  - the file name gains a variant label after the platform tag:
///    {distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}-{label}.whl,
///    the label ^[0-9a-z_.]+$, "null" reserved for the variant of no properties;
///  - a property is `namespace :: feature :: value`, namespace and feature
///    ^[a-z0-9_]+$, value ^[a-z0-9_.]+$; a wheel is compatible when, for every
///    feature it lists, at least one of its values is;
///  - the wheel carries *.dist-info/variant.json: "$schema", "default-priorities"
///    {"namespace": [...]} naming every namespace used, and "variants" holding its
///    own label alone, label -> namespace -> feature -> [values];
///  - the index serves {name}-{version}-variants.json, the same shape with every
///    label of that version.
/// The properties are those of NVIDIA's variant provider (wheelnext/nvidia-variant-provider,
/// README "Variant Property Format"): `nvidia :: sm_arch :: 90_real` (code for SM 9.0,
/// CMake's `90_real`) and `nvidia :: cuda_version_lower_bound :: 12.8`.
/// Both directions live here, beside runs_on: it is the one place that says what a
/// variant's properties mean for a GPU.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

/// The schema URL of the draft implemented (uv's wheel-variants preview uses the same).
inline constexpr const char* kVariantSchema = "https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json";
/// The metadata file inside a variant wheel's .dist-info.
inline constexpr const char* kVariantFile = "variant.json";
/// NVIDIA's provider's namespace and features.
inline constexpr const char* kNvidiaNamespace = "nvidia";
inline constexpr const char* kSmArchFeature = "sm_arch";
inline constexpr const char* kCudaLowerBoundFeature = "cuda_version_lower_bound";

/// A wheel's file name, split (PEP 427 with PEP 825's label).
struct WheelName {
  std::string distribution, version, build, python, abi, platform;
  std::string label;  ///< empty: not a variant wheel

  std::string file_name() const;
  /// "{distribution}-{version}-variants.json", the index-level file of its version.
  std::string variants_index_name() const;
};

/// Parses \a file_name ("torch-2.11.0-cp313-cp313-manylinux_2_28_x86_64.whl"); nullopt when it has
/// not five to seven components or a component is empty. Six components are a build tag when the
/// third starts with a digit (a Python tag never does), else a variant label (PEP 825, Backwards
/// Compatibility).
std::optional<WheelName> parse_wheel_name(std::string_view file_name);

bool valid_variant_label(std::string_view label);  ///< ^[0-9a-z_.]+$
bool valid_variant_key(std::string_view name);     ///< namespace, feature: ^[a-z0-9_]+$
bool valid_variant_value(std::string_view value);  ///< ^[a-z0-9_.]+$

/// namespace -> feature -> values, as in variant.json.
using VariantProperties = std::map<std::string, std::map<std::string, std::vector<std::string>>>;

/// variant.json and {name}-{version}-variants.json.
struct VariantMetadata {
  std::vector<std::string> namespaces;  ///< default-priorities.namespace, in order
  std::map<std::string, VariantProperties> variants;
};

/// The label tailor gives code for \a sm_numbers (90, 86 and 89): "sm90", "sm86_89".
std::string variant_label_of(const std::vector<uint32_t>& sm_numbers);
/// NVIDIA's properties of a wheel with code for \a sm_numbers: sm_arch `NN_real` each, and
/// cuda_version_lower_bound \a cuda unless empty.
VariantProperties nvidia_properties(const std::vector<uint32_t>& sm_numbers, const std::string& cuda);
/// The CUDA of a wheel version's local label, "2.11.0+cu130" -> "13.0"; empty where there is none.
std::string cuda_of_wheel_version(std::string_view version);
/// "nvidia :: sm_arch :: 90_real", one line each, sorted.
std::vector<std::string> property_lines(const VariantProperties& p);

/// The JSON text (keys sorted, two-space indent, a final newline).
std::string variant_json_text(const VariantMetadata& m);
/// Reads variant.json or *-variants.json text. Throws DiagnosticError (`SOURCE:line:col: error: ...`
/// where a position is known) for text that is not JSON or breaks the PEP's rules: another schema
/// (tools must treat an unknown format version as unsupported), a namespace missing from
/// default-priorities, a bad label, key or value, an empty or repeated value list, a "null" variant
/// with properties, a key the schema does not have.
VariantMetadata parse_variant_json(std::string_view text, std::string_view source);
/// \a add merged into \a into (PEP 825, publishing: disjoint labels join, a common label must have
/// the same properties, a namespace list may grow at its end). Throws DiagnosticError naming
/// \a source where they conflict.
void merge_variant_metadata(VariantMetadata& into, const VariantMetadata& add, std::string_view source);

}  // namespace tailor
