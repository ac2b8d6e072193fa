#include "repin/doc_tables.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "lint/doc_claims.hpp"
#include "repin/pin_args.hpp"

namespace tailor::repin {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// A cell's text without Markdown decoration and surrounding blanks.
std::string plain(std::string_view cell) {
  std::string out;
  for (char c : cell)
    if (c != '*' && c != '`' && c != '_') out += c;
  size_t b = out.find_first_not_of(" \t"), e = out.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : out.substr(b, e - b + 1);
}

struct Cell {
  size_t begin, end;  ///< bytes of the cell between its pipes
};

std::vector<Cell> split_row(std::string_view text, size_t line_begin, size_t line_end) {
  std::vector<Cell> cells;
  size_t first = text.find('|', line_begin);
  if (first == std::string_view::npos || first >= line_end) return cells;
  size_t start = first + 1;
  for (size_t i = start; i < line_end; ++i) {
    if (text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] == '|') {
      cells.push_back({start, i});
      start = i + 1;
    }
  }
  std::string_view tail = text.substr(start, line_end - start);
  if (tail.find_first_not_of(" \t\r") != std::string_view::npos) cells.push_back({start, line_end});
  return cells;
}

bool is_table_line(std::string_view line) {
  size_t b = line.find_first_not_of(" \t");
  return b != std::string_view::npos && line[b] == '|';
}

bool is_separator(std::string_view line) {
  return is_table_line(line) && line.find('-') != std::string_view::npos &&
         line.find_first_not_of("|-: \t\r") == std::string_view::npos;
}

enum class Topic { none, torch, python };

// Topic::torch: the headline package's (\a r's attribute, "torch").
Topic topic_of(std::string_view header, const DocRepin& r) {
  std::string h = lower(plain(header));
  std::string a = lower(r.attribute);
  if (h.find(a) != std::string::npos && h.find("python") == std::string::npos) return Topic::torch;
  if (h.find("python") != std::string::npos && h.find(a) == std::string::npos) return Topic::python;
  return Topic::none;
}

/// A row key such as "PyTorch" or "Python version" (not a variant name).
Topic row_topic(std::string_view first_cell, const DocRepin& r) {
  std::string k = lower(plain(first_cell));
  for (const std::string& t :
       {lower(r.name), lower(r.attribute), lower(r.name) + " version", lower(r.attribute) + " version"})
    if (k == t) return Topic::torch;
  for (const char* t : {"python", "python version"})
    if (k == t) return Topic::python;
  return Topic::none;
}

/// The branch a cell names: its first `code` span, else its plain text up to a blank.
std::string branch_in(std::string_view cell) {
  size_t a = cell.find('`');
  size_t b = a == std::string_view::npos ? a : cell.find('`', a + 1);
  if (b != std::string_view::npos) return std::string(cell.substr(a + 1, b - a - 1));
  std::string p = plain(cell);
  return p.substr(0, p.find(' '));
}

/// Which branch each line of a doc is about: rows of tables whose first column
/// is "Branch" (a row with an empty first cell continues the one above), and
/// lines outside tables whose first `code` span is one of those branches.
struct BranchLines {
  std::vector<std::string> of_line;  ///< per line; empty: no branch
  std::string own;                   ///< the tree's branch, given or marked; empty: unknown
};

BranchLines branch_lines(std::string_view text, const std::vector<std::pair<size_t, size_t>>& lines,
                         const std::string& given) {
  BranchLines out;
  out.of_line.resize(lines.size());
  std::set<std::string> names;
  std::string marked;
  bool in_table = false, branch_table = false;
  std::string current;
  for (size_t n = 0; n < lines.size(); ++n) {
    auto [b, e] = lines[n];
    std::string_view line = text.substr(b, e - b);
    if (!is_table_line(line)) {
      in_table = branch_table = false;
      continue;
    }
    auto cells = split_row(text, b, e);
    if (!in_table) {
      in_table = true;
      branch_table =
          !cells.empty() && lower(plain(text.substr(cells[0].begin, cells[0].end - cells[0].begin))) == "branch";
      current.clear();
      continue;
    }
    if (!branch_table || is_separator(line) || cells.empty()) continue;
    std::string name = branch_in(text.substr(cells[0].begin, cells[0].end - cells[0].begin));
    if (!name.empty()) current = name;
    if (current.empty()) continue;
    out.of_line[n] = current;
    names.insert(current);
    if (lint::doc_line_about_this_tree(line) || line.find("This branch") != std::string_view::npos) marked = current;
  }
  for (size_t n = 0; n < lines.size(); ++n) {
    if (!out.of_line[n].empty()) continue;
    std::string_view line = text.substr(lines[n].first, lines[n].second - lines[n].first);
    if (is_table_line(line) || line.find('`') == std::string_view::npos) continue;
    std::string name = branch_in(line);
    if (!names.count(name)) continue;
    if (line.find("You are on") != std::string_view::npos) {
      marked = name;
      continue;  // about the tree itself
    }
    out.of_line[n] = name;
  }
  out.own = !given.empty() ? given : !marked.empty() ? marked : names.size() == 1 ? *names.begin() : "";
  return out;
}

}  // namespace

std::vector<size_t> find_version(std::string_view text, std::string_view version) {
  std::vector<size_t> out;
  if (version.empty()) return out;
  for (size_t k = text.find(version); k != std::string_view::npos; k = text.find(version, k + 1)) {
    size_t e = k + version.size();
    bool before = k > 0 && (std::isdigit(static_cast<unsigned char>(text[k - 1])) || text[k - 1] == '.');
    bool after = e < text.size() &&
                 (std::isdigit(static_cast<unsigned char>(text[e])) ||
                  (text[e] == '.' && e + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[e + 1]))));
    if (!before && !after) out.push_back(k);
  }
  return out;
}

std::vector<size_t> find_torch_mentions(std::string_view text, std::string_view version, std::string_view word) {
  std::vector<size_t> out;
  std::string w = lower(word);
  for (size_t k : find_version(text, version)) {
    // The word within a few separator characters before the version.
    size_t j = k;
    while (j > 0 && k - j < 3 && std::string_view(" :=v-").find(text[j - 1]) != std::string_view::npos) --j;
    if (!w.empty() && j >= w.size() && lower(text.substr(j - w.size(), w.size())) == w) out.push_back(k);
  }
  return out;
}

std::vector<TextEdit> plan_doc(std::string_view text, const DocRepin& r, std::vector<Mention>& left,
                               std::vector<Mention>* other_branches) {
  std::vector<TextEdit> edits;
  // Revisions anywhere: a run of hex digits that abbreviates (or is) an old revision.
  for (auto [i, j] : revision_runs(text)) {
    std::string_view run = text.substr(i, j - i);
    for (const auto& old : r.old_revs)
      if ((old.starts_with(run) || run.starts_with(old)) && run != r.new_rev.substr(0, run.size())) {
        edits.push_back({i, j, r.new_rev.substr(0, run.size()), "pin"});
        break;
      }
  }
  // Versions in table cells.
  std::vector<std::pair<size_t, size_t>> lines;
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    lines.emplace_back(b, e);
    b = e + 1;
  }
  std::vector<std::pair<size_t, size_t>> torch_cells;  // rewritten or not, cells about torch
  std::vector<Topic> columns;
  bool in_table = false;
  for (size_t n = 0; n < lines.size(); ++n) {
    auto [b, e] = lines[n];
    std::string_view line = text.substr(b, e - b);
    if (!is_table_line(line)) {
      in_table = false;
      continue;
    }
    if (!in_table) {  // a header row, if a separator follows
      in_table = true;
      columns.clear();
      if (n + 1 < lines.size() &&
          is_separator(text.substr(lines[n + 1].first, lines[n + 1].second - lines[n + 1].first)))
        for (const auto& c : split_row(text, b, e))
          columns.push_back(topic_of(text.substr(c.begin, c.end - c.begin), r));
      continue;
    }
    if (is_separator(line)) continue;
    auto cells = split_row(text, b, e);
    Topic row = cells.empty() ? Topic::none : row_topic(text.substr(cells[0].begin, cells[0].end - cells[0].begin), r);
    for (size_t c = 0; c < cells.size(); ++c) {
      Topic t = row != Topic::none && c > 0 ? row : c < columns.size() ? columns[c] : Topic::none;
      if (t == Topic::none) continue;
      std::string_view cell = text.substr(cells[c].begin, cells[c].end - cells[c].begin);
      const std::string& from = t == Topic::torch ? r.old_torch : r.old_python;
      const std::string& to = t == Topic::torch ? r.new_torch : r.new_python;
      if (t == Topic::torch) torch_cells.emplace_back(cells[c].begin, cells[c].end);
      if (from.empty() || to.empty() || from == to) continue;
      for (size_t k : find_version(cell, from))
        edits.push_back(
            {cells[c].begin + k, cells[c].begin + k + from.size(), to, t == Topic::torch ? r.attribute : "python"});
    }
  }
  // Old torch versions elsewhere: rewritten where a heading or a line about
  // this branch names torch's, left for the user in other prose (history,
  // other branches).
  if (!r.old_torch.empty() && r.old_torch != r.new_torch) {
    std::vector<size_t> named =
        r.new_torch.empty() ? std::vector<size_t>{} : find_torch_mentions(text, r.old_torch, r.attribute);
    for (size_t k : find_version(text, r.old_torch)) {
      bool in_cell = std::any_of(torch_cells.begin(), torch_cells.end(),
                                 [&](const auto& c) { return k >= c.first && k < c.second; });
      if (in_cell) continue;
      size_t line_start = text.rfind('\n', k == 0 ? 0 : k - 1);
      line_start = line_start == std::string_view::npos || k == 0 ? 0 : line_start + 1;
      size_t line_end = text.find('\n', k);
      std::string_view whole =
          text.substr(line_start, line_end == std::string_view::npos ? text.npos : line_end - line_start);
      if (std::find(named.begin(), named.end(), k) != named.end() && lint::doc_line_about_this_tree(whole)) {
        edits.push_back({k, k + r.old_torch.size(), r.new_torch, r.attribute});
        continue;
      }
      int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(k), '\n')) + 1;
      left.push_back({line, static_cast<int>(k - line_start) + 1, r.old_torch});
    }
  }
  // Lines about other branches stay as written.
  const BranchLines about = branch_lines(text, lines, r.branch);
  auto line_of = [&](size_t k) {
    auto it = std::upper_bound(lines.begin(), lines.end(), k,
                               [](size_t x, const std::pair<size_t, size_t>& l) { return x < l.first; });
    return static_cast<size_t>(it - lines.begin()) - 1;
  };
  auto other = [&](size_t k) -> const std::string* {
    const std::string& b = about.of_line[line_of(k)];
    return b.empty() || b == about.own ? nullptr : &b;
  };
  std::set<size_t> reported;
  std::erase_if(edits, [&](const TextEdit& e) {
    const std::string* b = other(e.begin);
    if (!b) return false;
    size_t n = line_of(e.begin);
    if (other_branches && reported.insert(n).second) other_branches->push_back({static_cast<int>(n) + 1, 1, *b});
    return true;
  });
  std::erase_if(left, [&](const Mention& m) {
    size_t n = static_cast<size_t>(m.line) - 1;
    return n < lines.size() && other(lines[n].first);
  });
  normalize_edits(edits);
  return edits;
}

}  // namespace tailor::repin
