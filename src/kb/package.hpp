#pragma once
/// The packages tailor builds. Each has its own recipe shape (issue #4/#5).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

enum class Package { pytorch, torchvision, torchaudio, vllm, magma };

std::string_view package_name(Package p);
std::optional<Package> package_from_name(std::string_view name);
const std::vector<std::string>& package_names();

/// torchvision/torchaudio: built against the matching pytorch variant.
inline bool is_companion(Package p) { return p == Package::torchvision || p == Package::torchaudio; }

/// How a variant accelerates: CUDA, CPU only, or Apple's Metal (MPS).
enum class Backend { cuda, cpu, mps };

std::string_view backend_name(Backend b);
std::optional<Backend> backend_from_name(std::string_view name);
const std::vector<std::string>& backend_names();

}  // namespace tailor
