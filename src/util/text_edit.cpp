#include "util/text_edit.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

namespace tailor {

bool normalize_edits(std::vector<TextEdit>& edits) {
  // By (begin, end): an insertion sorts before a replacement starting at its offset.
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) {
    return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
  });
  edits.erase(std::unique(edits.begin(), edits.end(),
                          [](const TextEdit& a, const TextEdit& b) {
                            return a.begin == b.begin && a.end == b.end && a.text == b.text;
                          }),
              edits.end());
  for (size_t i = 1; i < edits.size(); ++i)
    if (edits[i].begin < edits[i - 1].end) return false;
  return true;
}

namespace {

/// \a edits normalized; throws if they do not fit \a text.
void check_edits(std::string_view text, std::vector<TextEdit>& edits) {
  if (!normalize_edits(edits)) throw std::logic_error("overlapping text edits");
  for (const auto& e : edits)
    if (e.begin > e.end || e.end > text.size()) throw std::logic_error("text edit outside the text");
}

std::string apply_sorted(std::string_view text, const std::vector<TextEdit>& edits) {
  std::string out;
  out.reserve(text.size() + 64);
  size_t at = 0;
  for (const auto& e : edits) {
    out.append(text.substr(at, e.begin - at));
    out += e.text;
    at = e.end;
  }
  out.append(text.substr(at));
  return out;
}

/// The lines of \a text, each with its '\n' (the last one may lack it).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

/// Old lines [old_begin, old_begin + old_count) become new_lines.
struct Change {
  size_t old_begin = 0, old_count = 0;
  std::vector<std::string> new_lines;
};

/// The last byte an edit replaces; its offset if it only inserts.
size_t last_byte(const TextEdit& e) { return e.end > e.begin ? e.end - 1 : e.begin; }

void emit(std::string& out, char mark, std::string_view line) {
  out += mark;
  out.append(line);
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string apply_edits(std::string_view text, std::vector<TextEdit> edits) {
  check_edits(text, edits);
  return apply_sorted(text, edits);
}

std::string unified_diff(std::string_view from, std::string_view to, std::string_view text, std::vector<TextEdit> edits,
                         DiffStyle style) {
  check_edits(text, edits);
  std::vector<std::string_view> old_lines = split_lines(text);
  std::vector<size_t> starts;  // byte offset of each old line, then the end
  for (size_t i = 0, at = 0; i <= old_lines.size(); ++i) {
    starts.push_back(at);
    if (i < old_lines.size()) at += old_lines[i].size();
  }
  auto line_index = [&](size_t offset) {
    return static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin()) - 1;
  };
  // Group the edits by the whole lines they touch, then keep only the lines that differ.
  std::vector<Change> changes;
  for (size_t i = 0; i < edits.size();) {
    size_t first = std::min(line_index(edits[i].begin), old_lines.size());
    size_t last = std::min(line_index(last_byte(edits[i])), old_lines.size());
    size_t j = i + 1;
    for (; j < edits.size() && line_index(edits[j].begin) <= last; ++j)
      last = std::max(last, std::min(line_index(last_byte(edits[j])), old_lines.size()));
    size_t block_begin = starts[first], block_end = starts[std::min(last + 1, old_lines.size())];
    if (last >= old_lines.size()) block_end = text.size();
    std::vector<TextEdit> local;
    for (size_t k = i; k < j; ++k)
      local.push_back({edits[k].begin - block_begin, edits[k].end - block_begin, edits[k].text, {}});
    std::string replaced = apply_sorted(text.substr(block_begin, block_end - block_begin), local);
    std::vector<std::string_view> new_view = split_lines(replaced);
    size_t old_n = std::min(last + 1, old_lines.size()) - first;
    size_t lead = 0, trail = 0;
    while (lead < old_n && lead < new_view.size() && old_lines[first + lead] == new_view[lead]) ++lead;
    while (trail + lead < old_n && trail + lead < new_view.size() &&
           old_lines[first + old_n - 1 - trail] == new_view[new_view.size() - 1 - trail])
      ++trail;
    Change c;
    c.old_begin = first + lead;
    c.old_count = old_n - lead - trail;
    for (size_t k = lead; k + trail < new_view.size(); ++k) c.new_lines.emplace_back(new_view[k]);
    if (c.old_count || !c.new_lines.empty()) changes.push_back(std::move(c));
    i = j;
  }
  std::string out;
  if (style.git) {
    if (changes.empty() && from == to) return "";
    out += fmt::format("diff --git a/{} b/{}\n", from, to);
    if (from != to) out += fmt::format("rename from {}\nrename to {}\n", from, to);
  }
  if (changes.empty()) return out;
  out += fmt::format("--- a/{}\n+++ b/{}\n", from, to);
  const size_t ctx = style.context;
  // Changes whose context lines meet share a hunk; without context each stands alone.
  auto joins = [&](const Change& prev, const Change& next) {
    return ctx > 0 && next.old_begin <= prev.old_begin + prev.old_count + 2 * ctx;
  };
  long delta = 0;  // new line index - old line index before the current change
  for (size_t i = 0; i < changes.size();) {
    size_t j = i + 1;
    while (j < changes.size() && joins(changes[j - 1], changes[j])) ++j;
    size_t hunk_begin = changes[i].old_begin >= ctx ? changes[i].old_begin - ctx : 0;
    size_t hunk_end = std::min(old_lines.size(), changes[j - 1].old_begin + changes[j - 1].old_count + ctx);
    std::string body;
    size_t old_count = 0, new_count = 0, at = hunk_begin;
    long hunk_delta = delta;
    for (size_t k = i; k < j; ++k) {
      for (; at < changes[k].old_begin; ++at, ++old_count, ++new_count) emit(body, ' ', old_lines[at]);
      for (size_t m = 0; m < changes[k].old_count; ++m, ++at, ++old_count) emit(body, '-', old_lines[at]);
      for (const auto& l : changes[k].new_lines) emit(body, '+', l), ++new_count;
      delta += static_cast<long>(changes[k].new_lines.size()) - static_cast<long>(changes[k].old_count);
    }
    for (; at < hunk_end; ++at, ++old_count, ++new_count) emit(body, ' ', old_lines[at]);
    size_t new_begin = static_cast<size_t>(static_cast<long>(hunk_begin) + hunk_delta);
    out += fmt::format("@@ -{},{} +{},{} @@\n", old_count ? hunk_begin + 1 : hunk_begin, old_count,
                       new_count ? new_begin + 1 : new_begin, new_count);
    out += body;
    i = j;
  }
  return out;
}

}  // namespace tailor
