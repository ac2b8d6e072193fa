#include "kb/override_arguments.hpp"

#include <algorithm>

#include "kb/knowledge_base.hpp"

namespace tailor {

std::vector<std::string> override_arguments(const KnowledgeBase& kb, std::string_view attribute) {
  std::vector<std::string> out;
  auto add = [&](const std::string& a) {
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  };
  for (const auto& p : kb.packages) {
    if (p.attribute == attribute) {
      // A package that builds another into its Python set passes its arguments to that one.
      if (!p.need(NeedStrategy::python_set_substitution))
        for (const auto& a : p.arguments) add(a.name);
      for (const auto& n : p.needs)
        if (n.strategy == NeedStrategy::links_if_built || n.strategy == NeedStrategy::companion_of) add(n.argument);
    }
    for (const auto& n : p.needs)
      if (n.strategy == NeedStrategy::python_set_substitution && kb.package(n.package) &&
          kb.package(n.package)->attribute == attribute)
        for (const auto& a : p.arguments) add(a.name);
  }
  return out;
}

}  // namespace tailor
