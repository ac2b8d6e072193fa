#pragma once
/// What a consumer manifest installs on one kind of machine: for each package
/// of the matrix, the variant the recommendation engine picks for that
/// machine (packages with nothing that runs there are left out).

#include <string>
#include <vector>

#include "host/recommend.hpp"

namespace tailor {

struct ManifestChoice {
  std::vector<std::string> names;    ///< chosen variants, in package order of the matrix
  std::vector<std::string> reasons;  ///< "pytorch: <variant>: <reason>; ..." one line per package
};

/// Recommends one variant per package of \a m for \a host; \a only (when not
/// empty) restricts the candidates to those names.
ManifestChoice choose_for_host(const HostFacts& host, const Matrix& m, const KnowledgeBase& kb,
                               const std::vector<std::string>& only, const std::string& spec_path);

}  // namespace tailor
