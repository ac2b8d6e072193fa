#pragma once
/// A plain-text table with aligned columns, used by every command that prints
/// rows (matrix, kb, later detect/inspect).

#include <string>
#include <vector>

namespace tailor {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  /// Adds a row; it must have as many cells as the header.
  void add_row(std::vector<std::string> cells);
  size_t rows() const { return rows_.size(); }
  /// Columns separated by two spaces, a dashed rule under the header, no
  /// trailing spaces. Widths count UTF-8 code points.
  std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

/// Number of UTF-8 code points in \a s.
size_t display_width(const std::string& s);

}  // namespace tailor
