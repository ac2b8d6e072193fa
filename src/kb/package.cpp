#include "kb/package.hpp"

namespace tailor {

std::string_view package_name(Package p) {
  switch (p) {
    case Package::pytorch: return "pytorch";
    case Package::torchvision: return "torchvision";
    case Package::torchaudio: return "torchaudio";
    case Package::vllm: return "vllm";
    case Package::magma: return "magma";
  }
  return "pytorch";
}

const std::vector<std::string>& package_names() {
  static const std::vector<std::string> names = {"pytorch", "torchvision", "torchaudio", "vllm", "magma"};
  return names;
}

std::optional<Package> package_from_name(std::string_view name) {
  for (Package p : {Package::pytorch, Package::torchvision, Package::torchaudio, Package::vllm, Package::magma})
    if (package_name(p) == name) return p;
  return std::nullopt;
}

std::string_view backend_name(Backend b) {
  switch (b) {
    case Backend::cuda: return "cuda";
    case Backend::cpu: return "cpu";
    case Backend::mps: return "mps";
  }
  return "cpu";
}

const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> names = {"cuda", "cpu", "mps"};
  return names;
}

std::optional<Backend> backend_from_name(std::string_view name) {
  for (Backend b : {Backend::cuda, Backend::cpu, Backend::mps})
    if (backend_name(b) == name) return b;
  return std::nullopt;
}

}  // namespace tailor
