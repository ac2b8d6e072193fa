#include "kb/cuda_alias.hpp"

namespace tailor {

bool is_alias_of(std::string_view attribute, const CudaToolkit& cuda) {
  const std::string own = cuda.nixpkgs_attr();
  return attribute != own && own.size() > attribute.size() && own.starts_with(attribute) &&
         own[attribute.size()] == '_';
}

}  // namespace tailor
