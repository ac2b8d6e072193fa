#pragma once
/// CI definitions that build a spec's matrix: a GitHub Actions workflow and a
/// GitLab CI pipeline. Each platform gets one job whose matrix holds its
/// variants (split into chunks under the services' matrix limits); every job
/// builds, runs `tailor verify` on the result, and publishes on the default
/// branch. A drift job fails when the tree is not what the spec generates.
/// Jobs run at the repository root: the drift job regenerates into the tree,
/// the build jobs run in it (flox builds .flox/pkgs of the tree).

#include <string>

#include "kb/platform.hpp"
#include "matrix/expand.hpp"

namespace tailor {

struct CiOptions {
  std::string org = "flox";  ///< flox publish -o ORG
  size_t chunk = 0;          ///< variants per job matrix; 0: the service's limit
  int max_parallel = 8;      ///< concurrent builds per platform job
  std::string spec;          ///< the spec as the CI job names it (repository-relative); empty: spec.path
  std::string tree = ".";    ///< the generated tree, relative to the repository root
};

/// The most jobs one matrix may make: GitHub Actions 256 per matrix,
/// GitLab 200 permutations per parallel:matrix.
constexpr size_t kGithubMatrixLimit = 256, kGitlabMatrixLimit = 200;

/// One build job: a platform's variants, or one chunk of them.
struct CiJob {
  std::string id;        ///< build-x86-64-linux, build-x86-64-linux-2 when split
  std::string platform;  ///< x86_64-linux
  std::vector<std::string> variants;
};

/// The build jobs of \a m, in order: per platform, chunks of at most \a chunk variants.
std::vector<CiJob> ci_jobs(const Matrix& m, size_t chunk);

/// \a platforms: the runner labels of each platform's jobs and of the drift job.
std::string github_workflow(const Spec& spec, const Matrix& m, const PlatformTable& platforms, const CiOptions& o);
std::string gitlab_pipeline(const Spec& spec, const Matrix& m, const PlatformTable& platforms, const CiOptions& o);

}  // namespace tailor
