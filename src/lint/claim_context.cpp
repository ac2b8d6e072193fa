#include "lint/claim_context.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "util/version.hpp"

namespace tailor::lint {

namespace {

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// The text of \a line before \a at, back to the start of its clause (a sentence
/// end, ';', ':' or a dash), lower-cased and without trailing blanks.
std::string clause_before(std::string_view line, size_t at) {
  size_t from = 0;
  for (size_t i = 0; i < at; ++i)
    if (line[i] == ';' || (line[i] == '.' && (i + 1 >= line.size() || line[i + 1] == ' ')) ||
        line.substr(i).starts_with("—") || line.substr(i).starts_with("…"))
      from = i + 1;
  std::string out = lower(line.substr(from, at - from));
  while (!out.empty() && (out.back() == ' ' || out.back() == '(' || out.back() == '*' || out.back() == '`'))
    out.pop_back();
  return out;
}

bool ends_with_word(const std::string& text, std::string_view words) {
  return text.ends_with(words) && (text.size() == words.size() || !alnum(text[text.size() - words.size() - 1]));
}

}  // namespace

bool historical_claim(std::string_view line, size_t name_at, size_t version_end) {
  // Words that make the version a point in time or a bound, not what is built.
  // ("from" alone is not one: "built from PyTorch 2.10.0 sources" says what is built.)
  static constexpr std::array<std::string_view, 31> kBefore = {
      "added in",     "introduced in", "fixed in",      "removed in",  "dropped in",  "deprecated in", "supported in",
      "available in", "new in",        "landed in",     "changed in",  "broken in",   "first in",      "since",
      "as of",        "starting with", "starting from", "starting in", "starting at", "until",         "till",
      "before",       "prior to",      "up to",         "requires",    "require",     "needs",         "need",
      "at least",     "than",          "between"};
  std::string before = clause_before(line, name_at);
  for (auto w : kBefore)
    if (ends_with_word(before, w)) return true;
  std::string after = lower(line.substr(std::min(version_end, line.size())));
  if (after.starts_with("+") || after.starts_with(".x")) return true;
  for (std::string_view w : {" or later", " or newer", " and later", " and newer", " or above", " or higher", " onward",
                             " and up", " or earlier", " or older", " and earlier", " and older"})
    if (after.starts_with(w)) return true;
  return false;
}

bool about_other_branch(std::string_view line, std::string_view claimed) {
  std::string l = lower(line);
  if (l.find("this branch") != std::string::npos || l.find("you are on") != std::string::npos) return false;
  // "pytorch-2.10", "pytorch-2.9-python313": a word, '-', then a version that the claim is of.
  for (size_t dash = l.find('-'); dash != std::string::npos; dash = l.find('-', dash + 1)) {
    if (dash == 0 || !std::isalpha(static_cast<unsigned char>(l[dash - 1]))) continue;
    size_t e = dash + 1;
    while (e < l.size() && (std::isdigit(static_cast<unsigned char>(l[e])) || l[e] == '.')) ++e;
    std::string_view v = std::string_view(l).substr(dash + 1, e - dash - 1);
    while (v.ends_with('.')) v.remove_suffix(1);
    if (v.find('.') == std::string_view::npos) continue;
    auto branch = Version::parse(v), claim = Version::parse(claimed);
    if (!branch || !claim) continue;
    bool same = true;
    for (size_t i = 0; i < branch->size() && i < claim->size(); ++i) same = same && branch->part(i) == claim->part(i);
    if (same) return true;
  }
  // "branch" of another: "the pytorch-2.10 branch", "other branches", "Branches" tables.
  for (size_t at = l.find("branch"); at != std::string::npos; at = l.find("branch", at + 1)) {
    std::string before = l.substr(0, at);
    while (!before.empty() && before.back() == ' ') before.pop_back();
    if (!ends_with_word(before, "current")) return true;
  }
  return false;
}

}  // namespace tailor::lint
