#pragma once
/// One nixpkgs revision of the knowledge base and what it provides.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kb/fact_evidence.hpp"
#include "util/toml_reader.hpp"
#include "util/version.hpp"

namespace tailor {

struct NixpkgsPin {
  std::string short_rev;  ///< "fe5e41d"
  std::string rev;        ///< 40 hex digits
  std::string sha256;     ///< tarball hash; empty when unknown
  /// nixpkgs attribute -> the version the revision ships ("torch" -> 2.9.1)
  std::map<std::string, Version> versions;
  std::vector<std::string> python;  ///< "3.13", ...
  std::string python_default;
  std::vector<std::string> cuda;  ///< "12.9", ...
  std::optional<Version> cudnn;
  std::string cutlass;
  std::vector<std::string> torch_args;
  /// nixpkgs attribute -> the formal arguments of its function (torch's are torch_args)
  std::map<std::string, std::vector<std::string>> function_args;
  /// nixpkgs' unversioned CUDA package sets -> the CUDA they are at the
  /// revision ("cudaPackages" -> "12.8", "cudaPackages_13" -> "13.0").
  std::map<std::string, std::string> cuda_sets;
  /// Prebuilt packages (wheels) -> platform -> the CUDA their GPU code was
  /// built with ("12.8"), or "none": a CPU-only wheel.
  std::map<std::string, std::map<std::string, std::string>> wheel_cuda;
  /// The lists that are exhaustive ("python", "cuda"): a value missing from
  /// one of them is recorded as absent; from the others, merely not recorded.
  std::vector<std::string> complete;
  std::vector<std::string> used_by;
  std::string notes;
  std::string source;  ///< where the record (the revision and who uses it) comes from
  /// [[pin.evidence]]: where each fact comes from (measured, documented, disputed).
  std::vector<FactEvidence> evidence;

  std::string tarball_url() const;
  bool provides_python(std::string_view v) const;
  bool provides_cuda(std::string_view v) const;
  /// The unversioned package set at CUDA \a v ("cudaPackages"); empty when none is recorded.
  std::string cuda_set_at(std::string_view v) const;
  /// The CUDA of \a attribute's wheel on \a platform ("12.8", "none"); empty when not recorded.
  std::string wheel_cuda_of(std::string_view attribute, std::string_view platform) const;
  /// The recorded formal arguments of \a attribute's function; null when not recorded.
  const std::vector<std::string>* arguments_of(std::string_view attribute) const;
  /// Where they are recorded: "torch_args", "function_args.ATTRIBUTE".
  std::string arguments_field(std::string_view attribute) const;
  /// Whether the \a list ("python", "cuda") names everything the revision has.
  bool is_complete(std::string_view list) const;
  /// The version of \a attribute the revision ships; null when not recorded.
  const Version* version(std::string_view attribute) const;
  /// The same as text; empty when not recorded.
  std::string version_text(std::string_view attribute) const;
  /// The evidence entry covering \a fact ("versions.torch", "cuda"); null when none.
  const FactEvidence* evidence_of(std::string_view fact) const;
  /// The dispute over the version of \a attribute the revision ships; null when
  /// the version is measured, documented or not recorded.
  const FactEvidence* version_dispute(std::string_view attribute) const;
  /// The facts the record holds, by evidence name ("versions.torch", "python", …).
  std::vector<std::string> recorded_facts() const;
};

/// "tailor kb probe-pin 0182a36 --nixpkgs PATH": the command that settles a
/// disputed fact of \a pin by measuring it.
std::string probe_pin_command(const NixpkgsPin& pin);
/// A warning for a decision that a disputed version would make: "nixpkgs pin
/// 0182a36's torch is disputed: 2.9.1 (…) and 2.10.0 (…); \a consequence; settle it
/// with `tailor kb probe-pin …`".
std::string dispute_warning(const NixpkgsPin& pin, const FactEvidence& dispute, std::string_view consequence);

NixpkgsPin read_nixpkgs_pin(TableReader& r);

}  // namespace tailor

namespace tailor {
/// The attribute whose function's arguments a pin records as torch_args.
const std::string& torch_args_attribute();
}  // namespace tailor
