#include "kb/cuda_toolkit.hpp"

#include <fmt/format.h>

#include "kb/read_helpers.hpp"
#include "util/formats_to.hpp"

namespace tailor {

namespace {
constexpr char kNameToken[] = "cuda{}_{}";
}  // namespace

std::string CudaToolkit::name_token() const { return fmt::format(kNameToken, version.major(), version.minor()); }

bool CudaToolkit::has_name_token(std::string_view token) const {
  return formats_to(token, kNameToken, version.major(), version.minor());
}

std::string CudaToolkit::nixpkgs_attr() const {
  return fmt::format("cudaPackages_{}_{}", version.major(), version.minor());
}

std::optional<Version> CudaToolkit::lowest_driver() const { return min_driver ? min_driver : minor_compat_driver; }

std::string CudaToolkit::min_driver_text() const { return min_driver ? min_driver->str() : "not recorded"; }

CudaToolkit read_cuda_toolkit(TableReader& r) {
  CudaToolkit c;
  auto v = r.required_string("version");
  c.version = require_version(r.doc(), v, "CUDA version");
  if (c.version.size() != 2)
    throw r.doc().error_at(v.pos, fmt::format("CUDA version '{}' must be MAJOR.MINOR", v.value));
  c.min_driver = optional_version(r, "min_driver");
  c.minor_compat_driver = optional_version(r, "minor_compat_driver");
  if (auto gcc = r.integer("max_gcc")) c.max_gcc = static_cast<int>(gcc->value);
  c.notes = optional_text(r, "notes");
  c.source = r.required_string("source").value;
  return c;
}

}  // namespace tailor
