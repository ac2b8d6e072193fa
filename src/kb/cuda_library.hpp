#pragma once
/// A library of nixpkgs' cudaPackages that NVIDIA redistributes prebuilt with
/// device code for every GPU it supports: what `[build] prune_cuda_libraries`
/// prunes to a variant's SMs in its fixup phase.

#include <string>
#include <vector>

#include "kb/fact_evidence.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

struct CudaLibrary {
  std::string attribute;           ///< cudaPackages attribute, "libcublas"
  std::string display;             ///< "cuBLAS and cuBLASLt"
  std::vector<std::string> files;  ///< the shared libraries it installs, "libcublas.so", "libcublasLt.so"
  /// measured (tailor inspect found fatbins in them) or documented; never disputed:
  /// a library is pruned only on a fact as strong as the change.
  EvidenceKind kind = EvidenceKind::measured;
  std::string source;
  std::string notes;
};

/// Reads one [[library]] of cuda_toolkits.toml (closed schema).
CudaLibrary read_cuda_library(TableReader& r);

}  // namespace tailor
