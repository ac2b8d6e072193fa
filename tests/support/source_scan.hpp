#pragma once
/// The non-test C++ sources of the checkout, for the tests that scan them
/// (closed sets, the word table, package names): tests check the names the
/// outputs spell.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "support/golden.hpp"

namespace tailor::test {

/// The .cpp and .hpp files under src/\a folder ("" for all of src/) but the tests: (path
/// relative to the checkout, "src/matrix/spec.cpp", and text).
inline std::vector<std::pair<std::string, std::string>> sources(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::recursive_directory_iterator(source_path("src/" + folder))) {
    const fs::path& p = e.path();
    if (!e.is_regular_file() || (p.extension() != ".cpp" && p.extension() != ".hpp")) continue;
    if (p.stem().string().ends_with("_test")) continue;
    std::ifstream in(p);
    out.emplace_back(fs::relative(p, source_path("")).string(),
                     std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
  }
  return out;
}

/// "PATH:LINE: TEXT" of each line of sources(\a folder) whose code (the line up to a
/// comment) matches \a re.
inline std::vector<std::string> matching_lines(const std::string& folder, const std::regex& re) {
  std::vector<std::string> out;
  for (const auto& [path, text] : sources(folder)) {
    size_t from = 0;
    for (int n = 1; from <= text.size(); ++n) {
      size_t end = std::min(text.find('\n', from), text.size());
      std::string line = text.substr(from, end - from);
      if (std::regex_search(line.substr(0, line.find("//")), re))
        out.push_back(path + ":" + std::to_string(n) + ": " + line);
      from = end + 1;
    }
  }
  return out;
}

/// The string literals of C++ \a text with the line each opens on: comments
/// and character literals skipped, escapes kept as written, a raw string's
/// body as it stands.
struct StringLiteral {
  int line = 0;
  std::string text;
};
std::vector<StringLiteral> string_literals(const std::string& text);

}  // namespace tailor::test
