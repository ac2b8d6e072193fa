#include "migrate/summary.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/recipe_facts.hpp"

namespace tailor::migrate {

namespace {

struct Line {
  size_t begin, end;  ///< without the newline
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> out;
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    out.push_back({b, e});
    b = e + 1;
  }
  return out;
}

size_t line_index(const std::vector<Line>& lines, size_t offset) {
  auto it = std::upper_bound(lines.begin(), lines.end(), offset, [](size_t o, const Line& l) { return o < l.begin; });
  return it == lines.begin() ? 0 : static_cast<size_t>(it - lines.begin()) - 1;
}

const lint::SourceFile* find(const std::vector<lint::SourceFile>& files, const std::string& rel) {
  for (const auto& f : files)
    if (f.rel == rel) return &f;
  return nullptr;
}

std::string short_of(const std::string& s) {
  // Full revisions and hashes read better abbreviated in a one-line summary.
  return s.size() == 40 ? s.substr(0, 7) : s;
}

}  // namespace

std::string render_changes(const RepinPlan& plan) {
  std::string out;
  std::vector<std::string> olds;
  for (const auto& [rev, n] : plan.old_pins) olds.push_back(rev.substr(0, 7));
  out += fmt::format("repin {}: nixpkgs {} -> {} ({})", plan.root, fmt::join(olds, ", "), plan.target.rev.substr(0, 7),
                     plan.target.rev);
  if (plan.python) out += fmt::format("; Python package set -> {}", plan.python->set);
  out += "\n";
  for (const auto& k : plan.knowledge) out += "knowledge base: " + k + "\n";
  size_t files = 0;
  for (const auto& f : plan.before)
    if (f.rel.ends_with(".nix") || f.rel.ends_with(".toml") || f.rel == "README.md" || f.rel == "BUILD_MATRIX.md") ++files;
  if (plan.changes.empty()) {
    out += fmt::format("nothing to change: the {} read already use{} these settings\n",
                       files == 1 ? "file" : fmt::format("{} files", files), files == 1 ? "s" : "");
    return out;
  }
  out += fmt::format("changed {} of {} files:\n", plan.changes.size(), files);
  for (const auto& fc : plan.changes) {
    // Group identical changes: "pin 6a030d5 -> 0182a36 at 7:52, 30:9".
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;
    for (const auto& c : fc.changes) {
      std::string key = c.from.empty() ? fmt::format("{} added ({})", c.what, c.to)
                                       : fmt::format("{} {} -> {}", c.what, short_of(c.from), short_of(c.to));
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
      if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
      it->second.push_back(fmt::format("{}:{}", c.line, c.column));
    }
    std::vector<std::string> parts;
    for (const auto& [key, at] : groups) parts.push_back(fmt::format("{} at {}", key, fmt::join(at, ", ")));
    out += fmt::format("  {}: {}\n", fc.rel, fmt::join(parts, "; "));
  }
  return out;
}

std::string render_diff(const RepinPlan& plan) {
  std::string out;
  for (const auto& fc : plan.changes) {
    const lint::SourceFile* before = find(plan.before, fc.rel);
    const lint::SourceFile* after = find(plan.after, fc.rel);
    if (!before || !after) continue;
    out += fmt::format("--- a/{}\n+++ b/{}\n", fc.rel, fc.rel);
    auto old_lines = split_lines(before->text), new_lines = split_lines(after->text);
    long delta = 0;  // bytes the new text has gained before the current edit
    size_t i = 0;
    const auto& edits = fc.edits;
    while (i < edits.size()) {
      // One hunk: the old lines an edit touches, merged with the edits on the same lines.
      size_t first = line_index(old_lines, edits[i].begin);
      size_t last = line_index(old_lines, std::max(edits[i].begin, edits[i].end == 0 ? 0 : edits[i].end - 1));
      long hunk_delta = delta;
      size_t j = i;
      for (; j < edits.size(); ++j) {
        size_t l = line_index(old_lines, edits[j].begin);
        if (l > last) break;
        last = std::max(last, line_index(old_lines, std::max(edits[j].begin, edits[j].end == 0 ? 0 : edits[j].end - 1)));
        delta += static_cast<long>(edits[j].text.size()) - static_cast<long>(edits[j].end - edits[j].begin);
      }
      size_t new_begin = static_cast<size_t>(static_cast<long>(old_lines[first].begin) + hunk_delta);
      size_t new_end = static_cast<size_t>(static_cast<long>(old_lines[last].end) + delta);
      size_t nfirst = line_index(new_lines, new_begin), nlast = line_index(new_lines, new_end);
      out += fmt::format("@@ -{},{} +{},{} @@\n", first + 1, last - first + 1, nfirst + 1, nlast - nfirst + 1);
      for (size_t l = first; l <= last; ++l)
        out += "-" + before->text.substr(old_lines[l].begin, old_lines[l].end - old_lines[l].begin) + "\n";
      for (size_t l = nfirst; l <= nlast; ++l)
        out += "+" + after->text.substr(new_lines[l].begin, new_lines[l].end - new_lines[l].begin) + "\n";
      i = j;
    }
  }
  return out;
}

std::string render_verify(const std::vector<std::string>& items) {
  if (items.empty()) return "";
  std::string out = "still to verify:\n";
  for (const auto& i : items) out += "  - " + i + "\n";
  return out;
}

}  // namespace tailor::migrate
