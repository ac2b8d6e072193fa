#pragma once
/// File names off the strict pattern, as hand-written trees have them: an ISA
/// spelled another way (cpu_isas.toml aliases: "armv8.2", "arm64"), no ISA
/// word (the recipe's CPU flags say which ISA it builds for), or a backend's
/// fixed word left out ("pytorch-python313-avx2"). The spelling found lets a
/// spec's family (`spelling`) reproduce the name exactly.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/variant.hpp"

namespace tailor::recipe {

struct SpelledVariant {
  Variant variant;                              ///< name: the file name as written
  std::map<std::string, std::string> spelling;  ///< KB token -> the tree's spelling ("" left out)
};

/// Reads \a stem when parse_variant_name cannot; \a cpu_flags are the
/// recipe's compiler flags. nullopt when no reading names it back exactly.
std::optional<SpelledVariant> parse_spelled_name(std::string_view stem, const std::vector<std::string>& cpu_flags,
                                                 const KnowledgeBase& kb);

/// Reads \a stem as a variant of an SM set when parse_variant_name cannot: the
/// word where the SM goes names the set ("all" of vllm-python312-cuda12_8-all-avx2),
/// \a sms are the recipe's targets (gpuTargets or cudaCapabilities), two or more
/// SMs of the knowledge base. nullopt when no word reads back to \a stem so.
std::optional<Variant> parse_set_name(std::string_view stem, const std::vector<std::string>& sms,
                                      const KnowledgeBase& kb);

}  // namespace tailor::recipe
