#pragma once
/// `tailor import`: the CPU targets a team's GPU table allows per SM, read as a
/// rule. A table keyed by SMs ("61" = { … }) whose entry lists CPU targets of
/// the knowledge base (allowedISAs = [ "avx" "avx2" ];) says that SM is built
/// for those targets only: a rule that applies to every version, also one added
/// later, where a per-version exclusion would only record what was absent.

#include <string>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "recipe/source_file.hpp"

namespace tailor {

struct IsaRule {
  std::string sm;                    ///< "6.1"
  std::vector<std::string> allowed;  ///< the targets the table lists, as it lists them
  std::string file;                  ///< the table, relative to the tree
  int line = 0;                      ///< of the list
  std::string field;                 ///< "allowedISAs"
  /// The exclusion's reason: where the rule comes from.
  std::string reason() const;
};

/// The rules of the SM-keyed tables among \a files: one per SM whose entry has a
/// non-empty list of strings that are all CPU targets of \a kb.
std::vector<IsaRule> learn_isa_rules(const std::vector<recipe::SourceFile>& files, const KnowledgeBase& kb);

}  // namespace tailor
