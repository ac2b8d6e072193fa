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
  std::optional<Version> min_driver;           ///< NVIDIA's minimum Linux driver for the GA release; absent: unknown
  std::optional<Version> minor_compat_driver;  ///< minor-version compatibility floor
  std::optional<int> max_gcc;                  ///< absent: no source states it
  std::string notes;
  std::string source;

  /// "cuda12_9": the token used in variant names.
  std::string name_token() const;
  /// Whether \a token is name_token(), without building it (names are read by the thousand).
  bool has_name_token(std::string_view token) const;
  /// "cudaPackages_12_9": the nixpkgs package set.
  std::string nixpkgs_attr() const;
  /// The oldest driver known to run it: the GA minimum, else the
  /// minor-version compatibility floor; absent when neither is recorded.
  std::optional<Version> lowest_driver() const;
  /// "575.51.03", or "not recorded" where no source states the GA minimum.
  std::string min_driver_text() const;
};

CudaToolkit read_cuda_toolkit(TableReader& r);

}  // namespace tailor
