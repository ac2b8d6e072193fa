#include "kb/builder_imports.hpp"

#include <regex>

namespace tailor {

std::vector<std::string> relative_nix_imports(std::string_view text, std::string_view dir) {
  // A path literal starting with ./ and naming a .nix file; a path is one
  // token in Nix, so a word boundary before "./" is enough.
  static const std::regex re(R"((^|[^A-Za-z0-9_.+/-])\./((lib/)?[A-Za-z0-9_+-][A-Za-z0-9._+-]*\.nix)\b)");
  std::vector<std::string> out;
  std::string s(text);
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back(std::string(dir) + (*it)[2].str());
  return out;
}

std::set<std::string> builders_used(const std::vector<std::string>& roots, const std::vector<std::string_view>& recipes,
                                    const KnowledgeBase& kb) {
  std::set<std::string> used;
  std::vector<std::string> todo = roots;
  for (std::string_view r : recipes)
    for (auto& p : relative_nix_imports(r, "")) todo.push_back(std::move(p));
  while (!todo.empty()) {
    std::string b = std::move(todo.back());
    todo.pop_back();
    auto it = kb.builder_files.find(b);
    if (it == kb.builder_files.end() || !used.insert(b).second) continue;
    for (auto& p : relative_nix_imports(it->second, "lib/")) todo.push_back(std::move(p));
  }
  return used;
}

}  // namespace tailor
