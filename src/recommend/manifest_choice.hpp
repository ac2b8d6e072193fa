#pragma once
/// What a consumer manifest installs on one kind of machine: for each package
/// of the matrix, the variant the recommendation engine picks for that
/// machine (packages with nothing that runs there are left out). A variant
/// built against another package's variant (a torchvision companion of its
/// torch) is picked among those built against the variant chosen for that
/// package: one environment holds one torch.

#include <string>
#include <vector>

#include "matrix/expand.hpp"
#include "recommend/recommend.hpp"

namespace tailor {

struct ManifestChoice {
  std::vector<std::string> names;     ///< chosen variants, dependencies before what builds against them
  std::vector<std::string> reasons;   ///< "pytorch: <variant> (<reasons>)" one line per package
  std::vector<std::string> left_out;  ///< packages with variants for that machine, none built against the choice
};

/// Recommends one variant per package of \a m for \a host; \a only (when not
/// empty) restricts the candidates to those names.
ManifestChoice choose_for_host(const HostFacts& host, const Spec& spec, const Matrix& m, const KnowledgeBase& kb,
                               const std::vector<std::string>& only);

}  // namespace tailor
