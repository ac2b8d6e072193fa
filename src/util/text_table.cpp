#include "util/text_table.hpp"

#include <algorithm>
#include <stdexcept>

namespace tailor {

size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != header_.size()) throw std::logic_error("TextTable: row width differs from header");
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<size_t> width(header_.size());
  for (size_t i = 0; i < header_.size(); ++i) width[i] = display_width(header_[i]);
  for (const auto& r : rows_)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], display_width(r[i]));

  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t i = 0; i < cells.size(); ++i) {
      out += cells[i];
      if (i + 1 < cells.size()) out += std::string(width[i] - display_width(cells[i]) + 2, ' ');
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header_);
  std::vector<std::string> rule;
  for (size_t w : width) rule.emplace_back(w, '-');
  out += line(rule);
  for (const auto& r : rows_) out += line(r);
  return out;
}

}  // namespace tailor
