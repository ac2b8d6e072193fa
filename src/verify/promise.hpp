#pragma once
/// What a variant promises about its build output: the facts `tailor verify`
/// checks. It comes from the variant JSON that generated recipes install
/// ($out/nix-support/tailor-variant.json) or from a variant of a spec.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "kb/knowledge_base.hpp"
#include "settings/build_settings.hpp"

namespace tailor {

struct VariantPromise {
  std::string name;
  std::string package;                          ///< "pytorch"
  std::string backend;                          ///< "cuda", "cpu", "mps"
  Accelerator accelerator = Accelerator::none;  ///< the backend's (packages.toml)
  std::string python;                           ///< "3.13"; empty: not a Python package
  std::string cuda;                             ///< "12.9"; empty unless cuda
  std::string sm;                               ///< "9.0", or an SM set's name ("all"); empty unless cuda
  std::vector<std::string> sm_set;              ///< the SMs of a set variant; empty for one SM
  std::string isa;                              ///< "avx512"
  std::string platform;                         ///< "x86_64-linux"
  /// What verify imports and asks (packages.toml probe of the package, "torch"):
  /// the module and data/probes/PROBE.py; empty: the files alone are checked.
  std::string probe, probe_script;
  /// nixpkgs attribute -> the version the variant builds ("torch" -> "2.9.1"):
  /// the probe's module is checked against its own.
  std::map<std::string, std::string> versions;
  std::string cudnn;             ///< the pin's cuDNN, "9.13.0"; empty when unknown
  bool cudnn_disabled = false;   ///< built with USE_CUDNN=0
  bool ptx = false;              ///< PTX for forward compatibility was asked for
  bool strip_toolchain = false;  ///< gcc/binutils references must be gone
  std::string source;            ///< where the promise was read: a file, or "spec S"
};

/// Where generated recipes install the variant JSON inside a build output.
inline constexpr const char* kVariantJsonPath = "nix-support/tailor-variant.json";

/// Reads \a text (the content of \a path) as a variant JSON: at least
/// name, package, backend, python, cuda, sm, isa and platform (the keys of
/// `tailor matrix --json`); cudnn, ptx, strip_toolchain and the versions it
/// reports under attribute keys ("torch") when present. The backend's
/// accelerator and the package's probe come from \a kb.
/// Throws DiagnosticError naming the file for bad JSON, missing keys or a
/// backend \a kb does not define.
VariantPromise read_variant_json(const std::string& path, const std::string& text, const KnowledgeBase& kb);

/// Sets \a p's probe from its package's definition (none for a package \a kb
/// does not know).
void attach_probe(VariantPromise& p, const KnowledgeBase& kb);

/// The promise of a variant of a spec, with its derived build settings.
VariantPromise promise_of(const BuildSettings& s, const KnowledgeBase& kb, const std::string& spec_path);

}  // namespace tailor
