#pragma once
/// One CUDA toolkit release of the knowledge base.

#include <optional>
#include <string>
#include <string_view>

#include "util/toml_reader.hpp"
#include "util/version.hpp"

namespace tailor {

struct CudaToolkit {
  Version version;                             ///< "12.9"
  Version min_driver;                          ///< NVIDIA's minimum Linux driver for the GA release
  std::optional<Version> minor_compat_driver;  ///< minor-version compatibility floor
  int max_gcc = 0;
  std::string notes;
  std::string source;

  /// "cuda12_9": the token used in variant names.
  std::string name_token() const;
  /// Whether \a token is name_token(), without building it (names are read by the thousand).
  bool has_name_token(std::string_view token) const;
  /// "cudaPackages_12_9": the nixpkgs package set.
  std::string nixpkgs_attr() const;
};

CudaToolkit read_cuda_toolkit(TableReader& r);

}  // namespace tailor
