#pragma once
/// Line and column of byte offsets of one text, for diagnostics.

#include <cstdint>
#include <string_view>
#include <vector>

#include "nix/token.hpp"

namespace tailor::recipe {

/// Spans of byte ranges of one text: line starts computed once, then a binary search.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  /// Over line starts found already (nix::ParseResult::line_starts): the lexer scanned for them.
  LineIndex(std::string_view text, std::vector<uint32_t> starts);
  /// The span [begin, end) with the 1-based line and column of \a begin.
  nix::Span span(size_t begin, size_t end) const;
  /// The 1-based line \a line without its newline (and '\r'); empty if absent. As line_of, without a scan.
  std::string_view line(int line) const;

 private:
  std::string_view text_;
  std::vector<uint32_t> starts_;
};

/// 1-based line and column of byte \a offset of \a text (one-off; LineIndex for many).
nix::Span span_of(std::string_view text, size_t begin, size_t end);

}  // namespace tailor::recipe
