#include "support/disputed_kb.hpp"

#include "support/golden.hpp"

namespace tailor::test {

const std::string& disputed_kb_dir() {
  static const std::string dir = "tests/data/kb-disputed";
  return dir;
}

const KnowledgeBase& disputed_kb() {
  static const KnowledgeBase kb = KnowledgeBase::load(source_path(disputed_kb_dir()));
  return kb;
}

}  // namespace tailor::test
