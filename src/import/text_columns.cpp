#include "import/text_columns.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "matrix/spec.hpp"

namespace tailor {

std::optional<std::string> record_texts(const std::map<std::string, std::string>& texts,
                                        std::map<std::string, std::vector<std::string>>& table,
                                        const std::string& stem) {
  constexpr size_t kColumns = 9;  // text … text_9
  for (size_t n = 0; n < kColumns; ++n) {
    bool fits = std::all_of(texts.begin(), texts.end(), [&](const auto& e) {
      auto it = table.find(e.first);
      return it == table.end() || it->second.size() <= n || it->second[n] == e.second ||
             it->second[n] == Layout::kNoText;
    });
    if (!fits) continue;
    for (const auto& [key, text] : texts) {
      auto& column = table[key];
      if (column.size() <= n) column.resize(n + 1, std::string(Layout::kNoText));
      column[n] = text;
    }
    return n ? fmt::format("{}_{}", stem, n + 1) : stem;
  }
  return std::nullopt;
}

void text_words(const std::map<std::string, std::vector<std::string>>& table, const std::string& key,
                const std::string& stem, std::map<std::string, std::string>& words) {
  auto t = table.find(key);
  if (t == table.end()) return;
  for (size_t n = 0; n < t->second.size(); ++n)
    if (t->second[n] != Layout::kNoText) words[n ? fmt::format("{}_{}", stem, n + 1) : stem] = t->second[n];
}

}  // namespace tailor
