#pragma once
/// What differs between a backend's wrapper files at one place of their template, and
/// how far it reaches: the text between the files' common prefix and suffix, widened to
/// whole strings and whole lines where it is a list in code (compiler flags). adopt reads
/// each such place as a word of the [layout] (import/layout_import.cpp).

#include <string>
#include <string_view>
#include <vector>

namespace tailor {

/// \a text's lines, each with its line break.
std::vector<std::string_view> lines_of(const std::string& text);

/// The part of each text between their common prefix and suffix.
struct Varying {
  std::string prefix, suffix;
  std::vector<std::string> middles;  ///< one per text; empty where the texts share no such cut
};

/// The varying part of \a texts, cut where a word or number begins or ends ("(driver 550+)",
/// "(driver 560+)": "550", "560").
Varying varying(const std::vector<std::string>& texts);

/// \a v widened to whole strings where a text holds a quote: `"-mavx2" "-mfma"` is a list of
/// strings in code, not text inside the first one. Unchanged where the prefix or suffix has none.
Varying whole_strings(Varying v);

/// \a v widened to whole lines, the lines' common indentation left in the prefix: a text that
/// spans lines of code (a list of compiler flags) is a word in code, not inside its first
/// string. Unchanged where the prefix or the suffix holds no line break.
Varying whole_lines(Varying v);

/// Whether \a text, over several lines, is items of a list of strings: each line strings (and
/// a comment after them); a text per CPU target over lines is its compiler flags, never code.
bool string_lines(const std::string& text);

}  // namespace tailor
