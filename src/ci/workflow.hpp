#pragma once
/// CI definitions that build a spec's matrix: a GitHub Actions workflow and a
/// GitLab CI pipeline. Each platform gets one job whose matrix holds its
/// variants (split into chunks under the services' matrix limits); every job
/// builds, runs `tailor verify` on the result, and publishes on the default
/// branch. A drift job fails when the tree is not what the spec generates.

#include <string>

#include "matrix/expand.hpp"

namespace tailor {

struct CiOptions {
  std::string org = "flox";  ///< flox publish -o ORG
  size_t chunk = 200;        ///< variants per job matrix (GitHub allows 256, GitLab 200)
  int max_parallel = 8;      ///< concurrent builds per platform job
};

std::string github_workflow(const Spec& spec, const Matrix& m, const CiOptions& o);
std::string gitlab_pipeline(const Spec& spec, const Matrix& m, const CiOptions& o);

}  // namespace tailor
