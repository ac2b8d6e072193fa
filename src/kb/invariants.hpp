#pragma once
/// Invariants that every entry of the knowledge base must satisfy (archspec's
/// habit: sweep the whole data set). Checked at load time, so a bad user
/// overlay is reported, and by the tests over the embedded data.

#include <string>
#include <vector>

namespace tailor {

struct KnowledgeBase;

/// One line per violated invariant, "file: entry: problem"; empty if none.
std::vector<std::string> check_invariants(const KnowledgeBase& kb);

}  // namespace tailor
