#pragma once
/// A variant of the page tests' matrix (vision 0.26.0 for Python 3.13), as
/// expand would make it: the family by CUDA, the platform by CPU target.
#include <string>

#include "matrix/variant.hpp"

namespace tailor::test {

inline Variant page_variant(const std::string& cuda, const std::string& sm, const std::string& isa) {
  Variant v;
  v.package = "vision";
  v.family = "vision-" + cuda;
  v.version = "0.26.0";
  v.python = "3.13";
  v.cuda = cuda;
  v.sm = sm;
  v.isa = isa;
  v.platform = isa == "armv9" ? "aarch64-linux" : "x86_64-linux";
  v.name = "vision-" + cuda + "-" + sm + "-" + isa;
  return v;
}

}  // namespace tailor::test
