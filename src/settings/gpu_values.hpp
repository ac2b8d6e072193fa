#pragma once
/// The GPU placeholders of packages.toml's templates (arguments, cmake flags,
/// descriptions) for one variant: its one SM, or every SM of its set.

#include <string>
#include <utility>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/variant.hpp"

namespace tailor {

/// {sm}, {sm_list}, {capability}, {min_capability}, {gpu}, {gpu_family},
/// {gpu_products}, {gpu_products_short}; empty when \a v has no SM. For a set
/// variant: {sm} is the set's name, {sm_list} every SM quoted ("\"8.0\" \"9.0\""),
/// {capability} a CMake list ("80;90"), {min_capability} the lowest.
std::vector<std::pair<std::string, std::string>> gpu_template_values(const Variant& v, const KnowledgeBase& kb);

}  // namespace tailor
