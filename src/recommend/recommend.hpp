#pragma once
/// The recommendation engine: a pure function from host facts, a matrix and
/// the knowledge base to the variant to install, with one reason per decision
/// (naming the fact used), warnings, runner-up alternatives, and "why not"
/// for any other variant. Rules (the flox/build-pytorch README's decision tree):
///   - never an ISA whose required CPU features are missing;
///   - CUDA variants built for the GPU's exact SM first, then a lower minor of
///     the same major (cubins run forward within a major) with a warning;
///     arch-specific `a` targets only on the exact SM; on mixed hosts the
///     newest GPU wins, with a note;
///   - a CUDA toolkit whose NVIDIA minimum driver the installed driver meets,
///     else one that runs through minor-version compatibility (with a
///     warning saying what to upgrade);
///   - CPU-only without a GPU; Darwin/MPS on Apple silicon;
///   - the workload picks avx512 (general), avx512bf16 (bf16-training) or
///     avx512vnni (int8-inference).

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/host_facts.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/workload.hpp"
#include "matrix/expand.hpp"

namespace tailor {

enum class Workload { general, bf16_training, int8_inference };  ///< in workload_names() order

/// "general", "bf16-training", "int8-inference" (the KB's `workload` values).
std::string_view workload_name(Workload w);
std::optional<Workload> workload_from_name(std::string_view name);

struct RecommendRequest {
  Workload workload = Workload::general;
  std::string package;  ///< empty: pytorch when the matrix has it, else its first package
  std::string python;   ///< empty: the newest Python of that package in the matrix
  /// The version of the package ([[family.version]]); empty: the newest the
  /// matrix builds where its families list versions, else any.
  std::string version;
  /// How a reason says that the request chose the package, version or
  /// Python: empty for the command line ("asked for with --package"); the
  /// catalog page says "chosen in the catalog".
  std::string chosen_by;
};

struct Alternative {
  std::string name;
  std::string why;  ///< how it differs from the recommendation
};

struct Recommendation {
  const Variant* variant = nullptr;  ///< null: nothing in the matrix runs here
  std::vector<std::string> reasons;  ///< one per decision; the failure reason when variant is null
  std::vector<std::string> warnings;
  std::vector<Alternative> alternatives;
};

/// Chooses the variant of \a m for \a host. Throws DiagnosticError when the
/// request names a package, version or Python the matrix does not have.
Recommendation recommend(const HostFacts& host, const Matrix& m, const KnowledgeBase& kb, const RecommendRequest& req);

/// recommend for one matrix and request and any number of hosts: what does
/// not depend on the host (the variants the request chooses) is settled once.
/// The catalog asks it for thousands of hosts. \a m and \a kb must outlive it.
class Recommender {
 public:
  /// Throws DiagnosticError where \a req asks for what \a m does not build.
  Recommender(const Matrix& m, const KnowledgeBase& kb, RecommendRequest req);
  ~Recommender();
  Recommender(const Recommender&) = delete;
  Recommender& operator=(const Recommender&) = delete;
  Recommendation recommend(const HostFacts& host) const;

 private:
  struct Plan;
  std::unique_ptr<Plan> plan_;
};

/// Why \a name is not the recommendation: what stops it from running here
/// (missing CPU features, SM mismatch, driver too old, platform), or how it
/// ranks below the chosen one. Throws DiagnosticError when \a name is not in
/// the matrix.
std::vector<std::string> why_not_recommended(std::string_view name, const HostFacts& host, const Matrix& m,
                                             const KnowledgeBase& kb, const RecommendRequest& req);

}  // namespace tailor
