#pragma once
/// The one reading of a team's concrete text back into template words: each
/// value the text writes ("90", "12.8") becomes its word ("{sm_nodot}",
/// "{cuda@cell}") where it stands as that word. A wrapper's words
/// (layout_import.cpp) and a page's (page_fit_steps.hpp) are put back by it,
/// each feature saying where a value stands alone.

#include <functional>
#include <string>
#include <vector>

namespace tailor {

/// A word to put back: the text it becomes ("{sm_nodot}") and the value the team's text writes ("90").
struct PutWord {
  std::string place;
  std::string value;
};

/// Whether the value found at [at, end) of \a text stands as the word there.
using PutFits = std::function<bool(const std::string& text, size_t at, size_t end)>;

/// \a text with each of \a words' values put back as its place, in \a words' order
/// (a caller puts the longest values first: "12_8" before "12"), where \a fits says
/// it stands as the word; text put back for a word is never read again.
std::string put_back(std::string text, const std::vector<PutWord>& words, const PutFits& fits);

}  // namespace tailor
