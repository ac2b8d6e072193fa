#include "import/isa_rules.hpp"

#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/gpu_arch.hpp"

namespace tailor {

namespace {

const std::regex kEntry(R"re(^\s*"([0-9_]+)"\s*=\s*\{\s*$)re");
const std::regex kListField(R"re(^\s*([A-Za-z0-9_]+)\s*=\s*\[\s*("[^"]*"(\s+"[^"]*")*)\s*\]\s*;)re");
const std::regex kItem(R"re("([^"]*)")re");

}  // namespace

std::string IsaRule::reason() const {
  return fmt::format("{}:{}: SM {} allows only {} ({})", file, line, sm, fmt::join(allowed, ", "), field);
}

std::vector<IsaRule> learn_isa_rules(const std::vector<recipe::SourceFile>& files, const KnowledgeBase& kb) {
  std::vector<IsaRule> out;
  for (const auto& f : files) {
    if (!f.rel.ends_with(".nix")) continue;
    std::string sm;  // of the entry the line is in; empty outside one
    int depth = 0, entry_depth = -1, n = 0;
    size_t i = 0;
    while (i <= f.text.size()) {
      size_t nl = f.text.find('\n', i);
      std::string l = f.text.substr(i, nl == std::string::npos ? std::string::npos : nl - i);
      ++n;
      std::smatch mt;
      if (std::regex_search(l, mt, kEntry)) {
        std::optional<std::string> s = sm_from_token(mt[1].str());
        sm = s && kb.gpu(*s) ? *s : "";
        entry_depth = depth;
      } else if (!sm.empty() && std::regex_search(l, mt, kListField)) {
        std::vector<std::string> items;
        std::string list = mt[2];
        bool all_targets = true;
        for (std::sregex_iterator it(list.begin(), list.end(), kItem), end; it != end; ++it) {
          items.push_back((*it)[1]);
          all_targets = all_targets && kb.isa(items.back()) != nullptr;
        }
        if (all_targets && !items.empty()) out.push_back({sm, items, f.rel, n, mt[1]});
      }
      for (char c : l) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      if (!sm.empty() && depth <= entry_depth) sm.clear();
      if (nl == std::string::npos) break;
      i = nl + 1;
    }
  }
  return out;
}

}  // namespace tailor
