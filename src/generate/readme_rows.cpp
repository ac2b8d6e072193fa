#include "generate/readme_rows.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/read_file.hpp"

namespace tailor {

namespace fs = std::filesystem;

namespace {

// The first cell of a Markdown table row, its emphasis and code marks taken off.
std::string first_cell(const std::string& line) {
  size_t bar = line.find('|', 1);
  std::string cell = line.substr(1, bar == std::string::npos ? std::string::npos : bar - 1);
  cell.erase(std::remove_if(cell.begin(), cell.end(), [](char c) { return c == '*' || c == '`' || c == ' '; }),
             cell.end());
  return cell;
}

// "2.11.0": three numbers and two dots (by hand: std::regex recurses per character of a long line).
bool is_version(const std::string& cell) {
  int dots = 0;
  bool digit = false;
  for (char c : cell) {
    if (c == '.') {
      if (!digit) return false;
      ++dots, digit = false;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else {
      return false;
    }
  }
  return dots == 2 && digit;
}

// "|-------|:---:|": the line under a table's header.
bool is_separator(const std::string& line) {
  size_t end = line.find_last_not_of(" \t\r");
  if (end == std::string::npos || line[end] != '|' || line.find('-') == std::string::npos) return false;
  return line.find_first_not_of("|-: ") > end;
}

}  // namespace

std::vector<Diagnostic> stale_readme_rows(const std::string& dir, const Spec& spec, const Matrix& m,
                                          Severity severity) {
  std::vector<Diagnostic> out;
  const std::string readme = "README.md";
  std::error_code ec;
  if (!spec.layout || !fs::is_regular_file(fs::path(dir) / readme, ec)) return out;
  const std::string text = read_file(fs::path(dir) / readme, "README");
  std::vector<std::string> lines;
  {
    std::istringstream is(text);
    for (std::string l; std::getline(is, l);) lines.push_back(l);
  }
  auto finding = [&](size_t line, std::string message, std::string hint) {
    Diagnostic d = diagnostic_at(fmt::format("{}/{}", dir, readme), text, Pos{static_cast<int>(line) + 1, 1},
                                 std::move(message), std::move(hint));
    d.severity = severity;
    out.push_back(std::move(d));
  };
  std::set<std::string> versions;  // those the spec builds
  for (const auto& v : m.variants)
    if (!v.version.empty()) versions.insert(v.version);

  // Tables whose first column lists the spec's versions: each row's version is one the spec builds, and each is listed.
  if (!versions.empty())
    for (size_t i = 0; i < lines.size();) {
      if (lines[i].rfind('|', 0) != 0) {
        ++i;
        continue;
      }
      std::vector<std::pair<size_t, std::string>> rows;  // line, version
      bool body = false;
      for (; i < lines.size() && lines[i].rfind('|', 0) == 0; ++i) {
        if (is_separator(lines[i])) {
          body = true;
          continue;
        }
        std::string cell = first_cell(lines[i]);
        if (body && is_version(cell)) rows.emplace_back(i, cell);
      }
      bool of_the_spec =
          std::any_of(rows.begin(), rows.end(), [&](const auto& r) { return versions.count(r.second) != 0; });
      if (!of_the_spec) continue;
      std::set<std::string> listed;
      for (const auto& [line, version] : rows) {
        listed.insert(version);
        if (!versions.count(version))
          finding(line,
                  fmt::format("the row of {} is stale: the spec builds no {} (it builds {})", version, version,
                              fmt::join(versions, ", ")),
                  "drop the row, or add the version back to the spec");
      }
      std::vector<std::string> unlisted;
      for (const auto& v : versions)
        if (!listed.count(v)) unlisted.push_back(v);
      if (!unlisted.empty())
        finding(rows.back().first,
                fmt::format("the table lists {} and not {}, which the spec builds", fmt::join(listed, ", "),
                            fmt::join(unlisted, ", ")),
                "add a row for each, as the others are written");
    }

  return out;
}

}  // namespace tailor
