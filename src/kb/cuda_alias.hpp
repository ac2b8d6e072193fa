#pragma once
/// Names of CUDA package sets that are no toolkit's own.

#include <string_view>

#include "kb/cuda_toolkit.hpp"

namespace tailor {

/// "cudaPackages_13" for CUDA 13.0: not the toolkit's own package set but a
/// shorter name of it, which follows whatever default the pin gives it.
bool is_alias_of(std::string_view attribute, const CudaToolkit& cuda);

}  // namespace tailor
