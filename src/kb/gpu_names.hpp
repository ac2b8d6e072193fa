#pragma once
/// GPUs by the names people know them by: products ("H100", "RTX 4090") and
/// other names ("GB10") of the knowledge base's architectures.

#include <string>
#include <string_view>
#include <vector>

#include "kb/knowledge_base.hpp"

namespace tailor {

/// The architectures whose products (or other names) include \a product,
/// spelled as people do ("rtx 4090", "NVIDIA H100"); several where the
/// knowledge base lists one product under two numberings (DRIVE Thor).
std::vector<const GpuArch*> gpus_named(const KnowledgeBase& kb, std::string_view product);

/// A hint for an SM the knowledge base does not know: what the product
/// \a word is ("H100 is 9.0: write \"9.0\""), or the products of the SMs
/// nearest to it ("RTX 4090 is 8.9, H100 is 9.0"); empty when neither helps.
std::string sm_hint(const KnowledgeBase& kb, std::string_view word);

}  // namespace tailor
