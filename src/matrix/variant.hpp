#pragma once
/// A variant: one package built for one (python, cuda, sm, isa, platform, pin)
/// cell, and the name the flox/build-pytorch conventions give it.

#include <optional>
#include <string>
#include <string_view>

#include "kb/knowledge_base.hpp"
#include "kb/package.hpp"

namespace tailor {

struct Variant {
  std::string name;  ///< "pytorch-python313-cuda12_9-sm90-avx512"
  Package package = Package::pytorch;
  Backend backend = Backend::cuda;
  std::string python;  ///< "3.13"; empty for magma
  std::string cuda;    ///< "12.9"; empty unless backend is cuda
  std::string sm;      ///< "9.0"; empty unless backend is cuda
  std::string isa;     ///< "avx512"; empty for mps
  std::string platform;  ///< "x86_64-linux", "aarch64-linux", "aarch64-darwin"
  std::string pin;       ///< short revision, "6a030d5"
  std::string family;    ///< the spec family that produced it
  std::string torch;     ///< torch version it builds (requested or the pin's)
  std::string vllm;      ///< vLLM version, vllm variants only
};

/// The flox/build-pytorch naming convention:
///   pytorch-python313-cuda12_9-sm90-avx512, pytorch-python313-cpu-avx2,
///   pytorch-python313-darwin-mps, magma-cuda12_9-sm90-avx2.
/// Needs python/cuda/sm/isa/backend/package of \a v; the KB gives the tokens.
std::string variant_name(const Variant& v, const KnowledgeBase& kb);

/// The same convention from ready tokens ("python313", "cuda12_9", "sm90");
/// tokens that do not apply to the backend or package are ignored.
std::string variant_name_from_tokens(Package package, Backend backend, std::string_view python_token,
                                     std::string_view cuda_token, std::string_view sm_token, std::string_view isa);

}  // namespace tailor

namespace tailor {

/// Reads a name of the convention above back into package, backend, python,
/// cuda, sm and isa (pin, platform and family stay empty). On failure returns
/// nullopt and sets \a problem to what is wrong with the name.
std::optional<Variant> parse_variant_name(std::string_view name, const KnowledgeBase& kb, std::string& problem);

}  // namespace tailor
